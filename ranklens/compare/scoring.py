"""Scoring the runs of one comparison, and the memo that keeps the per-query values.

``score`` evaluates one run on the judgements for one argument set; ``ScoringKey`` is that
argument set, the one key of the memo; ``ScoreCache`` is the memo itself (the one mutable part
of ``LoadedInputs``): the last `ScoreCache.KEPT` sets of per-query values, the inputs' own
warnings by argument set, and what is derived once from the inputs (qrels with holes filled,
documents retrieved per query, the health checks' facts). ``StreamedRun`` is what is kept of a
run scored while it was read (``ranklens.compare.inputs``).

It reads no file and compares nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare.report import InputRecord
from ranklens.data import Qrels, Run
from ranklens.metrics import Evaluation, evaluate
from ranklens.metrics.checks import TiedScores

if TYPE_CHECKING:
    from ranklens.compare.settings import CompareSettings

__all__ = ["ROBUSTNESS_EAGER_ROWS", "ScoreCache", "ScoringKey", "StreamedRun", "score",
           "scored_names", "scoring_key", "settings_key"]

ROBUSTNESS_EAGER_ROWS = 2_000_000
"""Up to this many rows in the two runs, every report holds the robustness view; above, only
when a coverage banner is raised or another treatment was asked for: judged-only lists cost a
pass over every row of both runs (about 2 s of CPU for two 7M-row runs)."""


class ScoringKey(NamedTuple):
    """What a set of per-query values was scored under: the one key of the scoring memo."""

    metrics: tuple[str, ...]
    missing: str
    order: str
    gain: str
    relevance_level: int
    unjudged: str


def scoring_key(metrics: Sequence[str], missing: str, order: str, gain: str,
                relevance_level: int, unjudged: str) -> ScoringKey:
    return ScoringKey(tuple(metrics), missing, order, gain, relevance_level, unjudged)


def settings_key(settings: CompareSettings, unjudged: str) -> ScoringKey:
    """The key of a report's scoring under ``settings`` with unjudged documents treated as
    ``unjudged``: the settings' metrics and the judged@k their coverage needs."""
    return scoring_key(scored_names(settings.metrics, unjudged), settings.missing,
                       settings.order, settings.gain, settings.relevance_level, unjudged)


class ScoreCache:
    """What one set of inputs has computed and keeps: per-query values by `ScoringKey` (the
    last `KEPT` argument sets), the inputs' own warnings by argument set (``checked``), and
    what is derived once (``derived``: filled qrels, ranking depths, the health checks' facts).

    The one mutable part of ``LoadedInputs``; the copies ``with_segments`` makes share it.
    """

    KEPT = 16
    """Argument sets whose per-query values are kept; the oldest goes first."""

    def __init__(self, scored: Mapping[ScoringKey, tuple[Evaluation, ...]] | None = None,
                 derived: Mapping[str, Any] | None = None) -> None:
        self._scored: dict[ScoringKey, tuple[Evaluation, ...]] = dict(scored or {})
        self.checked: dict[tuple[Any, ...], tuple[str, ...]] = {}
        self.derived: dict[str, Any] = dict(derived or {})

    def get(self, key: ScoringKey) -> tuple[Evaluation, ...] | None:
        """The per-query values scored under ``key``: kept for it, or for the same arguments
        and more metrics (a report's scoring pass holds the other tie reading too, which the
        tie sentence reads: `ranklens.compare.tie_reading`), restricted to its metrics."""
        found = self._scored.get(key)
        if found is not None:
            return found
        wanted = set(key.metrics)
        for held, evaluations in self._scored.items():
            if held[1:] == key[1:] and wanted <= set(held.metrics) and all(
                    m in ev.results for ev in evaluations for m in wanted):
                return tuple(_restricted(ev, key.metrics) for ev in evaluations)
        return None

    def put(self, key: ScoringKey, evaluations: tuple[Evaluation, ...]) -> None:
        if key not in self._scored and len(self._scored) >= self.KEPT:
            self._scored.pop(next(iter(self._scored)))
        self._scored[key] = evaluations

    def __contains__(self, key: object) -> bool:
        return isinstance(key, ScoringKey) and self.get(key) is not None

    def __iter__(self) -> Iterator[ScoringKey]:
        return iter(tuple(self._scored))

    def __len__(self) -> int:
        return len(self._scored)

    def items(self) -> tuple[tuple[ScoringKey, tuple[Evaluation, ...]], ...]:
        return tuple(self._scored.items())


def _restricted(evaluation: Evaluation, metrics: Sequence[str]) -> Evaluation:
    """``evaluation`` with the results (and residuals) of ``metrics`` only."""
    return dataclasses.replace(
        evaluation, results={m: evaluation.results[m] for m in metrics},
        residuals={m: r for m, r in evaluation.residuals.items() if m in metrics})


class StreamedRun(NamedTuple):
    """One run read and scored by ``load_inputs`` with settings, then let go: what is kept.

    ``scored`` is None when the judgements failed to read (their error is raised after every
    run's own); ``tied`` says how tied its scores are (None when not ordered by score), worded
    with the run's name at report time.
    """

    scored: dict[ScoringKey, Evaluation] | None
    summary: io.ReadSummary
    record: InputRecord
    tied: TiedScores | None
    depths: dict[str, int]


def scored_names(metrics: Sequence[str], unjudged: str) -> tuple[str, ...]:
    """The metrics scored for a report: the asked ones and the judged@k their coverage is
    measured at (not for judged-only lists, whose judged@k says nothing)."""
    extra = () if unjudged == "judged-only" else tuple(
        cov.judged_name(cov.coverage_depth(m)) for m in metrics)
    return tuple(dict.fromkeys((*metrics, *extra)))


def score(run: Run | None, qrels: Qrels, metrics: Sequence[str], missing: str, order: str,
          gain: str, relevance_level: int, unjudged: str) -> Evaluation:
    """``run`` scored on ``qrels`` (already filled with proxy labels for "proxy")."""
    assert run is not None  # checked by the caller
    return evaluate(run, qrels, list(metrics), missing="zero" if missing == "zero" else "drop",
                    order=order, gain=gain, relevance_level=relevance_level,
                    judged_only=unjudged == "judged-only")
