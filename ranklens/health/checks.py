"""The facts the health checks need of a run, and the checks gathered into a `HealthReport`.

`run_facts` counts what the checks need from a run while it is in memory (its documents
against the judgements, its self-retrieved rows); the facts are kept by the file's sha256
(`remember`), so runs scored while read and let go are checked like kept ones.
`with_withheld` gathers checks into a `HealthReport` and says which verdicts they withhold.

This module knows no comparison: turning a compare `Report` and its inputs into checks is the
compare pipeline's step (``ranklens.compare.health_step``), which sits above this package.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from ranklens.data import Qrels, Run
from ranklens.health.documents import DocumentFacts, document_facts
from ranklens.health.result import HealthCheck, HealthReport
from ranklens.health.self_retrieval import SelfRetrieval, self_retrieval

FACTS_KEY = "health_facts"
"""Where ``LoadedInputs.derived`` keeps each run's `RunFacts`, by the file's sha256."""
DROPPED = "self_retrieval_dropped"
"""``LoadedInputs.derived`` flag: these runs hold no self-retrieved rows any more."""


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


def with_withheld(checks: Sequence[HealthCheck], n_runs: int) -> HealthReport:
    """The checks, and why no verdict is drawn: about the pair of a two-run report; with
    several candidates only when the baseline itself fails (each candidate's own failures
    withhold its row, `HealthReport.withheld_for`)."""
    health = HealthReport(tuple(checks))
    if n_runs == 2:
        return HealthReport(health.checks, health.withheld_for(1))
    baseline = [c for c in health.failed if c.key == "documents" and c.runs == (0,)]
    return HealthReport(health.checks, health.withheld_for(0) if baseline else "")


