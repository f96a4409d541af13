"""`evaluate` of a run read in pieces of whole queries, from the evaluations of its pieces.

Answers what ``evaluate(run, qrels, metrics, missing=...)`` answers of the run that is the
pieces put end to end, given each piece evaluated with ``missing="drop"`` (against ``qrels``
or the part of it that judges the piece's queries): per-query values do not depend on other
queries, so only the lists of left-out queries are made again for the whole run. It does not
score (``ranklens.metrics.evaluate``) nor read or cut files (``ranklens.io.pieces``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ranklens.data import MetricResult, Qrels
from ranklens.metrics.arrow import take
from ranklens.metrics.evaluate import (
    EMPTY_RANKING,
    EMPTY_RESIDUAL,
    Evaluation,
    metric_specs,
    residual_name,
)


def joined_evaluation(parts: Sequence[Evaluation], qrels: Qrels, metrics: Iterable[str], *,
                      missing: str = "drop", gain: str = "linear",
                      relevance_level: int = 1) -> Evaluation:
    """The evaluation of the whole run from those of its ``parts`` (in file order, no query
    in two of them, each evaluated with ``missing="drop"`` for ``metrics`` with this ``gain``
    and ``relevance_level``): ``missing`` ("drop" or "zero") is applied to the judged queries
    no part evaluated, as `evaluate` applies it. ``ValueError`` for no part."""
    if not parts:
        raise ValueError("a run read in pieces has at least one piece")
    evaluated = [q for part in parts for q in _ids(part)]
    lost = _judged_not_in(qrels, set(evaluated))
    run, ties = parts[0].run, parts[0].ties
    results: dict[str, MetricResult] = {}
    residuals: dict[str, MetricResult] = {}
    for spec in metric_specs(list(metrics), gain=gain, relevance_level=relevance_level,
                             ties=ties):
        filler = [EMPTY_RANKING.get(spec.family, 0.0)] * len(lost) if missing == "zero" else []
        results[spec.name] = _joined(spec.name, [p.results[spec.name] for p in parts],
                                     lost if filler else [], filler, run)
        if spec.name in parts[0].residuals:
            name = residual_name(spec)
            results_of = [p.residuals[spec.name] for p in parts]
            residuals[spec.name] = _joined(name, results_of, lost if filler else [],
                                           [EMPTY_RESIDUAL] * len(filler), run)
    ignored = tuple(q for part in parts for q in part.ignored)
    return Evaluation(results, ignored, tuple(lost), missing, run=run,
                      relevance_level=relevance_level, gain=gain, residuals=residuals,
                      ties=ties)


def _ids(evaluation: Evaluation) -> list[str]:
    """The queries an evaluation scored (those of its first metric: every metric has them)."""
    first = next(iter(evaluation.results.values()), None)
    return [] if first is None else [str(q) for q in first.query_ids]


def _judged_not_in(qrels: Qrels, evaluated: set[str]) -> list[str]:
    """The queries with judgements (in the judgements' order) that no piece evaluated."""
    present = np.flatnonzero(qrels.rows_per_query() > 0)
    return [q for q in take(qrels.queries, present).to_pylist() if q not in evaluated]


def _joined(metric: str, parts: list[MetricResult], extra: list[str], filler: list[float],
            run: str) -> MetricResult:
    """One result of the parts' queries and values, and ``extra`` queries at ``filler``."""
    ids = np.concatenate([*(np.asarray(p.query_ids, dtype=object) for p in parts),
                          np.asarray(extra, dtype=object)])
    values = np.concatenate([*(np.asarray(p.values, dtype=np.float64) for p in parts),
                             np.asarray(filler, dtype=np.float64)])
    return MetricResult.from_arrays(metric, ids, values, run=run)


__all__ = ["joined_evaluation"]
