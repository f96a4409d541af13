"""Every health check of one comparison, gathered: what ``LoadedInputs.report`` attaches.

`run_facts` counts what the checks need from a run while it is in memory (its documents
against the judgements, its self-retrieved rows); the facts are kept by the file's sha256, so
runs scored while read and let go are checked like kept ones. `check_report` turns the facts,
the judgements and the report's own numbers (digests, per-query values, judged share of the
top k) into a `HealthReport`; `check_results` does what can be done from a report alone
(per-query tables, Spark). `enforce` is ``strict=True``.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ranklens.compare.family import run_key, run_role
from ranklens.compare.scoring import ScoreCache
from ranklens.data import Qrels, Run
from ranklens.health.documents import DocumentFacts, document_facts, documents_check
from ranklens.health.identical import identical_checks
from ranklens.health.judgements import collection_check, grades_check, relevant_check
from ranklens.health.result import HealthCheck, HealthCheckFailed, HealthReport
from ranklens.health.self_retrieval import (
    SelfRetrieval,
    self_retrieval,
    self_retrieval_check,
    without_self_retrieval,
)

if TYPE_CHECKING:
    from ranklens.compare.analysis import CompareSettings, LoadedInputs
    from ranklens.compare.report import Report

FACTS_KEY = "health_facts"
"""Where ``LoadedInputs.derived`` keeps each run's `RunFacts`, by the file's sha256."""
DROPPED = "self_retrieval_dropped"
"""``LoadedInputs.derived`` flag: these runs hold no self-retrieved rows any more."""
_WITHOUT_SELF = "without_self_retrieval"


@dataclass(frozen=True)
class RunFacts:
    """What the health checks need of one run: its documents against the judgements and its
    self-retrieved rows."""

    documents: DocumentFacts
    self_retrieval: SelfRetrieval


def run_facts(run: Run, qrels: Qrels) -> RunFacts:
    """Count, for ``run`` against ``qrels``, what the checks need (one pass over its ids)."""
    return RunFacts(document_facts(run, qrels), self_retrieval(run))


def remember(derived: MutableMapping[str, Any], digest: str, facts: RunFacts) -> None:
    """Keep ``facts`` of the run whose file has ``digest`` with the inputs."""
    derived.setdefault(FACTS_KEY, {})[digest] = facts


def _facts(inputs: LoadedInputs) -> dict[str, RunFacts]:
    facts: dict[str, RunFacts] = inputs.derived.setdefault(FACTS_KEY, {})
    records = {r.role: r for r in inputs.records}
    for index in range(inputs.n_runs):
        run, record = inputs.run(index), records.get(run_role(index))
        if run is not None and record is not None and inputs.qrels is not None \
                and record.sha256 not in facts:
            facts[record.sha256] = run_facts(run, inputs.qrels)
    return facts


def report_with_health(inputs: LoadedInputs, settings: CompareSettings,
                       progress: Callable[[str], None] | None, strict: bool) -> Report:
    """``inputs.comparison_report(settings)`` with its health section; with
    ``settings.drop_self_retrieval`` computed on the runs without their self-retrieved rows
    (counted before they go). ``strict`` raises `HealthCheckFailed` when a check fails."""
    scored = inputs
    if settings.drop_self_retrieval and inputs.tables is None and not inputs.derived.get(DROPPED):
        scored = _without_self(inputs)
    report = scored.comparison_report(settings, progress)
    report = replace(report, health=check_report(scored, report, settings))
    return enforce(report) if strict else report


def _without_self(inputs: LoadedInputs) -> LoadedInputs:
    """The same inputs with every run's self-retrieved rows dropped (made once)."""
    # kept with the runs it was made from (`LoadedInputs.pair` copies `derived`, not runs)
    runs, found = inputs.derived.get(_WITHOUT_SELF, (None, None))
    if found is None or runs is not inputs.runs:
        if any(run is None for run in inputs.runs):
            raise ValueError("the runs were scored while they were read and not kept: ask for "
                             "drop_self_retrieval when reading them (load_inputs(..., "
                             "settings=...))")
        facts = _facts(inputs)  # counted before the rows go
        found = replace(inputs, runs=tuple(without_self_retrieval(run) for run in inputs.runs
                                           if run is not None),
                        cache=ScoreCache(derived={FACTS_KEY: facts, DROPPED: True}))
        inputs.derived[_WITHOUT_SELF] = (inputs.runs, found)
    assert found is not None
    return found


def check_report(inputs: LoadedInputs, report: Report,
                 settings: CompareSettings) -> HealthReport:
    """Every check of ``report`` computed from ``inputs`` under ``settings``."""
    names = report.run_names
    digests = _digests(report)
    checks = list(identical_checks(names, digests, report.per_query,
                                   [run_key(i) for i in range(len(names))]))
    qrels = inputs.qrels
    if qrels is not None:
        facts = _facts(inputs)
        known = [facts.get(d) if d is not None else None for d in digests]
        for index, found in enumerate(known):
            if found is None:
                continue
            judged, depth, queries = _judged_share(report, index)
            checks.append(documents_check(index, names[index], found.documents, judged, depth,
                                          queries))
            checks.append(self_retrieval_check(index, names[index], found.self_retrieval,
                                               bool(getattr(settings, "drop_self_retrieval",
                                                            False))))
        qrels_name = inputs.file_name("qrels")
        checks.append(relevant_check(qrels, qrels_name, settings.relevance_level))
        checks.append(grades_check(qrels, qrels_name, settings.gain, settings.relevance_level))
        seen = [f for f in known if f is not None]
        if seen:
            checks.append(collection_check(
                qrels_name, [names[i] for i, f in enumerate(known) if f is not None],
                [f.documents.in_qrels for f in seen], seen[0].documents.qrels_examples,
                [e for f in seen for e in f.documents.run_examples[:1]]))
    return with_withheld(tuple(checks), len(names))


def check_results(report: Report) -> HealthReport:
    """The checks a report alone allows (no rankings, no judgements): identical runs."""
    names = report.run_names
    return with_withheld(identical_checks(names, _digests(report), report.per_query,
                                          [run_key(i) for i in range(len(names))]), len(names))


def with_withheld(checks: Sequence[HealthCheck], n_runs: int) -> HealthReport:
    """The checks, and why no verdict is drawn: about the pair of a two-run report; with
    several candidates only when the baseline itself fails (each candidate's own failures
    withhold its row, `HealthReport.withheld_for`)."""
    health = HealthReport(tuple(checks))
    if n_runs == 2:
        return HealthReport(health.checks, health.withheld_for(1))
    baseline = [c for c in health.failed if c.key == "documents" and c.runs == (0,)]
    return HealthReport(health.checks, health.withheld_for(0) if baseline else "")


def enforce(report: Report) -> Report:
    """``report`` unchanged when no health check failed; else raise `HealthCheckFailed`."""
    health = getattr(report, "health", None)
    if health is not None and health.failed:
        raise HealthCheckFailed(health.failed, report)
    return report


def _digests(report: Report) -> list[str | None]:
    by_role = {r.role: r.sha256 for r in report.inputs}
    return [by_role.get(run_role(i)) for i in range(len(report.run_names))]


def _judged_share(report: Report, index: int) -> tuple[float | None, int, int]:
    """(judged share of run ``index``'s top k on the compared queries, k, queries) from the
    report's coverage of its first metric; (None, 10, queries) without coverage."""
    candidate = max(index, 1)
    coverage = report.coverage_of(candidate)
    first = report.comparisons[0] if report.comparisons else None
    queries = first.overall.n_queries if first is not None else 0
    measured = None if coverage is None or first is None else coverage.metric(first.metric)
    if measured is None:
        return None, 10, queries
    row = measured.overall
    return (row.coverage_a if index == 0 else row.coverage_b), measured.depth, row.n_queries
