"""The compare pipeline's health step: a comparison `Report` with its health checks.

Answers "which health checks does this report of these inputs pass": `report_with_health`
computes the comparison (``ranklens.compare.comparison``) and attaches the checks that
`check_report` gathers from the runs' facts (``ranklens.health.checks``), the judgements and
the report's own numbers (digests, per-query values, judged share of the top k);
`check_results` does what can be done from a report alone (per-query tables, Spark);
`enforce` is ``strict=True``. The checks themselves are ``ranklens.health``'s: this module only
asks them about one comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ranklens.compare.comparison import comparison_report
from ranklens.compare.family import run_key, run_role
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.report import Report
from ranklens.compare.scoring import ScoreCache
from ranklens.compare.settings import CompareSettings
from ranklens.health.checks import DROPPED, FACTS_KEY, RunFacts, run_facts, with_withheld
from ranklens.health.documents import documents_check
from ranklens.health.identical import identical_checks
from ranklens.health.judgements import collection_check, grades_check, relevant_check
from ranklens.health.result import HealthCheckFailed, HealthReport
from ranklens.health.self_retrieval import self_retrieval_check, without_self_retrieval

_WITHOUT_SELF = "without_self_retrieval"


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
    """`comparison_report` of ``inputs`` and ``settings`` with its health section; with
    ``settings.drop_self_retrieval`` computed on the runs without their self-retrieved rows
    (counted before they go). ``strict`` raises `HealthCheckFailed` when a check fails."""
    scored = inputs
    if settings.drop_self_retrieval and inputs.tables is None and not inputs.derived.get(DROPPED):
        scored = _without_self(inputs)
    report = comparison_report(scored, settings, progress)
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


def with_results_health(report: Report) -> Report:
    """A report built elsewhere (the Spark engine) with the checks a report alone allows
    (`check_results`); unchanged when it has its health checks already."""
    if report.health is not None:
        return report
    return replace(report, health=check_results(report))


def check_results(report: Report) -> HealthReport:
    """The checks a report alone allows (no rankings, no judgements): identical runs."""
    names = report.run_names
    return with_withheld(identical_checks(names, _digests(report), report.per_query,
                                          [run_key(i) for i in range(len(names))]), len(names))


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
