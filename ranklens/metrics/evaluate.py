"""``evaluate(run, qrels, metrics)``: per-query values of several metrics in one pass.

The run is ordered once (``ordering``), only as deep as the deepest requested cutoff; the rows
kept are matched with the qrels once (``judgements``); every metric is then a few segment
reductions over all queries at once (one module per family). No Python loop runs per query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from ranklens.data import MetricResult, Qrels, Run
from ranklens.metrics.arrow import take
from ranklens.metrics.average_precision import average_precision
from ranklens.metrics.bpref import bpref
from ranklens.metrics.err import err
from ranklens.metrics.judged_only import condense_to_judged
from ranklens.metrics.judgements import Judgements, QueryJoin, check_duplicates
from ranklens.metrics.names import MetricSpec, parse_metric
from ranklens.metrics.ndcg import ndcg
from ranklens.metrics.ordering import (
    ordering_keys,
    run_blocks,
    tie_break_permutation,
    tie_group_starts,
    top_positions,
)
from ranklens.metrics.precision import judged, precision, r_precision, recall, success, unjudged
from ranklens.metrics.ranked import RankedLabels
from ranklens.metrics.rbp import rbp, rbp_residual
from ranklens.metrics.reciprocal_rank import reciprocal_rank
from ranklens.metrics.tie_average import AVERAGED

if TYPE_CHECKING:
    import pandas as pd

FAMILIES: dict[str, Callable[[RankedLabels, MetricSpec], np.ndarray]] = {
    "ndcg": ndcg,
    "P": precision,
    "recall": recall,
    "AP": average_precision,
    "RR": reciprocal_rank,
    "Rprec": r_precision,
    "success": success,
    "judged": judged,
    "unjudged": unjudged,
    "bpref": bpref,
    "RBP": rbp,
    "ERR": err,
}
# what an empty ranking scores, per family: a judged query missing from the run gets this under
# missing="zero" (trec_eval -c adds 0 for every measure; 1 - unj_k = 1 for Judged@k)
EMPTY_RANKING: dict[str, float] = {"judged": 1.0}

# families reported with a residual (the most unjudged documents could add), and what an empty
# ranking's residual is: every rank unknown
RESIDUALS: dict[str, Callable[[RankedLabels, MetricSpec], np.ndarray]] = {
    "RBP": rbp_residual,
}
EMPTY_RESIDUAL = 1.0

# families that tell an unjudged document from a judged non-relevant one (ties between them
# must be put in trec_eval's order)
_UNJUDGED_AWARE = {"judged", "unjudged", "bpref", "RBP"}


def residual_name(metric: str | MetricSpec) -> str:
    """How the residual of ``metric`` is named: ``RBP(p=0.8)_residual``."""
    return f"{parse_metric(metric).name}_residual"


@dataclass(frozen=True)
class Evaluation:
    """Per-query results of several metrics for one run, and which queries were left out.

    ``results`` maps each canonical metric name to its ``MetricResult``. ``ignored`` lists the
    queries of the run without judgements (never scored); ``missing`` the judged queries the run
    did not answer: left out with ``missing="drop"``, scored as an empty ranking with
    ``missing="zero"`` (trec_eval ``-c``). ``evaluation[name]`` accepts any spelling of a
    requested metric, read with the ``relevance_level`` and ``gain`` the evaluation used
    (``evaluate(..., ["P_5"], relevance_level=2)["P_5"]`` is ``P(rel=2)@5``). ``residuals``
    maps the canonical name of each metric that has one (RBP) to its per-query residual: the
    most unjudged documents could add (1 for an empty ranking).
    """

    results: Mapping[str, MetricResult]
    ignored: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    missing_policy: str = "drop"
    run: str = field(default="", compare=False)
    relevance_level: int = field(default=1, compare=False)
    gain: str = field(default="linear", compare=False)
    residuals: Mapping[str, MetricResult] = field(default_factory=dict)
    ties: str = field(default="trec_eval", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", MappingProxyType(dict(self.results)))
        object.__setattr__(self, "residuals", MappingProxyType(dict(self.residuals)))

    def __getitem__(self, metric: str | MetricSpec) -> MetricResult:
        """The result of ``metric``, by canonical name or any accepted spelling."""
        if isinstance(metric, str) and metric in self.results:
            return self.results[metric]
        name = parse_metric(metric, gain=self.gain, relevance_level=self.relevance_level,
                            ties=self.ties).name
        if name not in self.results:
            raise KeyError(f"{metric!r} ({name}) was not evaluated; evaluated: "
                           f"{', '.join(self.results)}")
        return self.results[name]

    def __contains__(self, metric: object) -> bool:
        try:
            self[metric]  # type: ignore[index]
        except (KeyError, ValueError, TypeError):
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def n_ignored(self) -> int:
        return len(self.ignored)

    @property
    def n_missing(self) -> int:
        return len(self.missing)

    def means(self) -> dict[str, float]:
        """Mean of each metric over its scored queries."""
        return {name: result.mean for name, result in self.results.items()}

    def to_frame(self) -> pd.DataFrame:
        """One row per scored query (``query_id``), one column per metric."""
        import pandas as pd

        frames = [result.to_frame().set_index("query_id") for result in self.results.values()]
        if not frames:
            return pd.DataFrame({"query_id": pd.Series([], dtype=object)})
        return pd.concat(frames, axis=1).reset_index()


def evaluate(
    run: Run,
    qrels: Qrels,
    metrics: Iterable[str | MetricSpec] | str,
    *,
    missing: str = "drop",
    order: str = "score",
    gain: str = "linear",
    relevance_level: int = 1,
    judged_only: bool = False,
    ties: str = "trec_eval",
) -> Evaluation:
    """Per-query values of ``metrics`` for ``run`` against ``qrels``, as trec_eval computes them.

    - order within a query: score descending, ties by document id descending (bytes); the rank
      column is ignored unless ``order="rank"`` (rank ascending, ties the same way);
    - queries only in the run are ignored; judged queries missing from the run are left out
      (``missing="drop"``) or scored as an empty ranking (``missing="zero"``, trec_eval
      ``-c``: 0, and 1 for Judged@k); queries whose judgements are all non-relevant are kept
      and score 0;
    - ``judged_only`` (trec_eval ``-J``) ranks only the documents judged with a grade >= 0
      (``condense_to_judged``); a query whose retrieved documents were all unjudged is still
      evaluated, as an empty ranking;
    - ``gain`` ("linear" = trec_eval, or "exp" = 2^grade - 1) applies to nDCG names that do not
      say it; ``relevance_level`` to binary metrics whose name does not say it (``-l``);
    - a (query, document) pair listed twice in the run or the qrels is a ``ValueError``;
    - metrics with a residual (``RBP``) get it in ``Evaluation.residuals``;
    - ``ties="average"`` scores nDCG, P, R, R-Prec, RBP, RR and AP by their expected value
      over every order of each group of equal scores (McSherry & Najork; ``tie_average``),
      for names that do not say it (``nDCG(ties=average)@10`` does); other metrics refuse it.

    It does not compare runs (``ranklens.stats``) nor read files (``ranklens.io``).
    """
    specs = metric_specs(metrics, gain=gain, relevance_level=relevance_level, ties=ties)
    if missing not in ("drop", "zero"):
        raise ValueError(f"missing must be 'drop' or 'zero', not {missing!r}")
    scores = score_queries(run, qrels, specs, order=order, judged_only=judged_only)
    join = scores.join
    results, residuals = {}, {}
    query_ids = list(join.query_ids)
    if missing == "zero":
        query_ids += list(join.missing)
    for spec in specs:
        values = scores.values[spec.name]
        if missing == "zero":
            values = np.concatenate([values, np.full(len(join.missing),
                                                     EMPTY_RANKING.get(spec.family, 0.0))])
        results[spec.name] = MetricResult.from_arrays(spec.name, query_ids, values,
                                                      run=run.name)
        if spec.name in scores.residuals:
            residual = scores.residuals[spec.name]
            if missing == "zero":
                residual = np.concatenate([residual, np.full(len(join.missing),
                                                             EMPTY_RESIDUAL)])
            residuals[spec.name] = MetricResult.from_arrays(residual_name(spec), query_ids,
                                                            residual, run=run.name)
    return Evaluation(results, tuple(join.ignored), tuple(join.missing), missing, run=run.name,
                      relevance_level=relevance_level, gain=gain, residuals=residuals,
                      ties=ties)


def metric_specs(
    metrics: Iterable[str | MetricSpec] | str, *, gain: str = "linear", relevance_level: int = 1,
    ties: str = "trec_eval",
) -> list[MetricSpec]:
    """The distinct ``MetricSpec`` of each requested name, in order; ``ValueError`` if none."""
    if isinstance(metrics, str):
        metrics = [metrics]
    specs = list(dict.fromkeys(
        parse_metric(m, gain=gain, relevance_level=relevance_level, ties=ties) for m in metrics
    ))
    if not specs:
        raise ValueError("no metric requested")
    return specs


@dataclass(frozen=True)
class QueryScores:
    """Each metric's values as an array over the evaluated queries, in ``join.query_ids`` order.

    The array form of an ``Evaluation`` without a ``missing`` policy, for callers that keep
    values columnar (the Spark engine scores many queries per Arrow batch). ``residuals`` holds
    the residual of each metric that has one (RBP), in the same order.
    """

    join: QueryJoin
    values: Mapping[str, np.ndarray]
    residuals: Mapping[str, np.ndarray] = field(default_factory=dict)


def score_queries(
    run: Run, qrels: Qrels, specs: list[MetricSpec], *, order: str = "score",
    judged_only: bool = False,
) -> QueryScores:
    """Per-query values of ``specs`` as arrays (the work of ``evaluate`` without the results).

    Same semantics and errors as ``evaluate``; it applies no ``missing`` policy (the join
    says which queries are missing; ``EMPTY_RANKING`` what they score under ``-c``).
    """
    keys = ordering_keys(run, order)
    check_duplicates(run, "run")
    check_duplicates(qrels, "qrels")
    join = QueryJoin.of(run, qrels)
    judgements = Judgements(qrels, join)
    if judged_only:
        run = condense_to_judged(run, qrels)  # same query dictionary: ``join`` still applies
        keys = ordering_keys(run, order)
    ranked = rank_and_label(run, keys, join, judgements, specs)
    return QueryScores(join, {spec.name: family(spec)(ranked, spec) for spec in specs},
                       {spec.name: RESIDUALS[spec.family](ranked, spec) for spec in specs
                        if spec.family in RESIDUALS})


def family(spec: MetricSpec) -> Callable[[RankedLabels, MetricSpec], np.ndarray]:
    """The function that scores ``spec``: its family's, or the tie-averaged form."""
    return AVERAGED[spec.family] if spec.ties == "average" else FAMILIES[spec.family]


def depth_needed(specs: list[MetricSpec], judgements: Judgements) -> np.ndarray:
    """Per evaluated query, how many top-ranked rows the metrics read."""
    unlimited = np.iinfo(np.int64).max
    depth = np.zeros(judgements.n_queries, dtype=np.int64)
    for spec in specs:
        if spec.family == "Rprec":
            need = judgements.num_relevant(spec.relevance_level).astype(np.int64)
        else:
            need = np.full(judgements.n_queries, spec.cutoff or unlimited, dtype=np.int64)
        np.maximum(depth, need, out=depth)
    return depth


def distinguishing_labels(labels: np.ndarray, specs: list[MetricSpec]) -> np.ndarray:
    """Labels coarsened to what the requested metrics can tell apart (fewer ties to sort)."""
    if any(spec.family in _UNJUDGED_AWARE for spec in specs):
        return labels
    if any(spec.family in ("ndcg", "ERR") for spec in specs):
        return np.maximum(labels, 0)
    levels = sorted({spec.relevance_level for spec in specs})
    return np.searchsorted(np.asarray(levels), labels, side="right")


def rank_and_label(
    run: Run,
    keys: np.ndarray,
    join: QueryJoin,
    judgements: Judgements,
    specs: list[MetricSpec],
) -> RankedLabels:
    """The evaluated queries' rows in trec_eval order, as deep as ``specs`` read, labelled."""
    blocks = run_blocks(run, keys)
    block_query = join.index_of_run_code[blocks.query_codes]
    evaluated = block_query >= 0
    depth = np.zeros(len(block_query), dtype=np.int64)
    depth[evaluated] = depth_needed(specs, judgements)[block_query[evaluated]]
    positions, starts = top_positions(blocks, depth)
    rows = blocks.run_rows(positions)
    lengths = np.diff(starts)
    query = np.repeat(block_query, lengths)
    labels = judgements.labels_of_rows(run, rows, query)
    permutation = tie_break_permutation(
        blocks.keys[positions], starts, distinguishing_labels(labels, specs),
        lambda tied: take(run.docs, run.doc_codes[rows[tied]]),
    )
    if permutation is not None:
        labels = labels[permutation]
    position = np.arange(len(rows), dtype=np.int64) - np.repeat(starts[:-1], lengths)
    groups = None
    if any(spec.ties == "average" for spec in specs):  # tie-break moves rows inside a group only
        group_starts = tie_group_starts(blocks.keys[positions], starts)
        groups = np.repeat(np.arange(len(group_starts) - 1), np.diff(group_starts))
    return RankedLabels(query, position, labels, judgements, groups)


__all__ = [
    "EMPTY_RANKING",
    "FAMILIES",
    "RESIDUALS",
    "Evaluation",
    "QueryScores",
    "evaluate",
    "metric_specs",
    "residual_name",
    "score_queries",
]
