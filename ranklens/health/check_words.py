"""The health checks in words: the counts, each check's heading, the passed ones in one line,
and what a face says where a verdict is withheld.

The section itself (``ranklens.health.section``) is built from these and drawn by every face's
writer (``ranklens.document``, the page's ``ranklens.app.blocks``); none of them words a check
itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ranklens.health.result import HealthCheck, HealthReport

TITLE = "Health checks"

NO_VERDICT = "no verdict"
"""What a row says where the verdict is withheld (segment table, robustness view, plot)."""
SEGMENTS_WITHHELD = (
    "No finding per segment either: the differences, p and q of each segment are computed on "
    "the same documents the judgements do not know, so they are shown, not read (see the "
    "health checks).")
ROBUSTNESS_WITHHELD = (
    "No reading either: every treatment of unjudged documents scores the same documents the "
    "judgements do not know, so the rows are shown without one (see the health checks).")
NO_MARKS = "No row is marked: no verdict is drawn (see the health checks)."
"""Under a segment table whose significance marks are left out because the verdict is
withheld."""


def counts(health: HealthReport) -> str:
    """``"1 failed, 1 warning, 8 passed"`` (only the statuses that occur)."""
    parts = [(len(health.failed), "failed"), (len(health.warnings), "warning"),
             (len(health.passed), "passed")]
    return ", ".join(f"{n} {word}" + ("s" if word == "warning" and n > 1 else "")
                     for n, word in parts if n)


def heading(check: HealthCheck) -> str:
    """The check's title and the run it is about: ``Documents that match ... (neural)``."""
    return check.title + (f" ({check.subject})" if check.subject else "")


def passed_line(health: HealthReport) -> str:
    """Every passed check in one line, titles grouped: ``Self-retrieval (bm25, neural); ...``."""
    grouped: dict[str, list[str]] = {}
    for check in health.passed:
        grouped.setdefault(check.title, [])
        if check.subject:
            grouped[check.title].append(check.subject)
    return "; ".join(title + (f" ({', '.join(subjects)})" if subjects else "")
                     for title, subjects in grouped.items())


def csv_cell(health: HealthReport | None) -> str:
    """The report's health in one CSV cell: ``failed: documents (neural); warning: ...``."""
    if health is None:
        return ""
    shown = [f"{c.status}: {c.key}" + (f" ({c.subject})" if c.subject else "")
             for c in (*health.failed, *health.warnings)]
    return "; ".join(shown) or "passed"


def run_status(health: HealthReport | None, index: int) -> str:
    """One run's health for a leaderboard row: ``passed``, or ``failed: documents``."""
    if health is None:
        return ""
    mine = [c for c in health.of_run(index) if c.status != "passed"]
    if not mine:
        return "passed"
    worst = mine[0].status
    return f"{worst}: " + ", ".join(dict.fromkeys(c.key for c in mine if c.status == worst))


def with_health_column(keys: Sequence[str], table: Any) -> tuple[str, ...]:
    """A leaderboard's column keys with ``health`` before the mark when some run's checks did
    not all pass (a table of passed runs keeps its columns)."""
    if "health" not in table or all(status == "passed" for status in table["health"]):
        return tuple(keys)
    keys = tuple(k for k in keys if k != "health")
    if "significant" in keys:
        at = keys.index("significant")
        return (*keys[:at], "health", *keys[at:])
    return (*keys, "health")


def withholds(health: HealthReport | None) -> bool:
    """Whether no verdict is drawn (then no segment finding, no significance mark, no
    coverage or robustness reading either: they are verdicts of their own; every face shows
    the numbers with `NO_VERDICT` in their place and says why)."""
    return health is not None and bool(health.withheld)


def withheld_runs(health: HealthReport | None, candidates: Sequence[int]) -> tuple[int, ...]:
    """The candidates (positions) whose verdict against the baseline is withheld."""
    if health is None:
        return ()
    return tuple(j for j in candidates if health.withheld_for(j))


def withheld_candidates(health: HealthReport | None, candidates: Sequence[int]) -> list[str]:
    """Under a leaderboard: why the candidates whose documents match nothing have no verdict
    (the leaderboard's own sentence still ranks them by their numbers)."""
    if health is None:
        return []
    return list(dict.fromkeys(filter(None, (health.withheld_for(j) for j in candidates))))


def verdict_or_withheld(health: HealthReport | None, sentences: Sequence[str]) -> list[str]:
    """The verdict's sentences, or the one that says why there is none."""
    if health is not None and health.withheld:
        return [health.withheld]
    return list(sentences)
