"""Per-query ranking metrics with trec_eval's semantics, and rank-biased overlap.

    from ranklens.metrics import evaluate
    evaluation = evaluate(run, qrels, ["ndcg@10", "map", "P@5"])
    evaluation["nDCG@10"].per_query      # {query_id: value}

Names are parsed by ``parse_metric`` (``ndcg_cut_10``, ``nDCG@10``, ``P(rel=2)@5`` ...); each
metric family documents the trec_eval semantics it follows in its module.
``contributions(run, qrels, metric, query_id)`` splits one query's value rank by rank and
``explain_difference`` names the moves that make B - A on one query; ``cutoff_ties`` finds the
groups of equal scores that cross a cutoff, and ``evaluate(..., ties="average")`` scores the
expected value over their orders (McSherry & Najork).


The names load on first use, so that a command needing only part of the package
(``ranklens evaluate`` reads ``trec_ranking`` and ``trec_measures``) does not import the rest.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from ranklens._lazy import lazy_names

if TYPE_CHECKING:
    from ranklens.data import MetricResult
    from ranklens.metrics.contributions import Contributions, contributions
    from ranklens.metrics.evaluate import Evaluation, evaluate
    from ranklens.metrics.judged_only import condense_to_judged
    from ranklens.metrics.moves import Move, QueryDifference, explain_difference
    from ranklens.metrics.names import COMMON_METRICS, MetricSpec, parse_metric
    from ranklens.metrics.rbo import rbo
    from ranklens.metrics.ties import TREC_EVAL_TIE_RULE, CutoffTies, cutoff_ties, tie_marks

_LAZY = {
    "MetricResult": "ranklens.data",
    "Contributions": "ranklens.metrics.contributions",
    "contributions": "ranklens.metrics.contributions",
    "Evaluation": "ranklens.metrics.evaluate",
    "evaluate": "ranklens.metrics.evaluate",
    "condense_to_judged": "ranklens.metrics.judged_only",
    "Move": "ranklens.metrics.moves",
    "QueryDifference": "ranklens.metrics.moves",
    "explain_difference": "ranklens.metrics.moves",
    "COMMON_METRICS": "ranklens.metrics.names",
    "MetricSpec": "ranklens.metrics.names",
    "parse_metric": "ranklens.metrics.names",
    "rbo": "ranklens.metrics.rbo",
    "TREC_EVAL_TIE_RULE": "ranklens.metrics.ties",
    "CutoffTies": "ranklens.metrics.ties",
    "cutoff_ties": "ranklens.metrics.ties",
    "tie_marks": "ranklens.metrics.ties",
}
# functions named like the module that holds them: ``ranklens.metrics.evaluate`` is the function
_SHADOWED = frozenset({"contributions", "evaluate", "rbo"})


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)


class _Package(types.ModuleType):
    """Keeps ``ranklens.metrics.evaluate`` (and ``contributions``, ``rbo``) the function when
    the submodule of that name is imported (the import system sets the package attribute to
    the submodule), as it was when this package imported everything up front."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = ["COMMON_METRICS", "TREC_EVAL_TIE_RULE", "Contributions", "CutoffTies", "Evaluation",
           "MetricResult", "MetricSpec", "Move", "QueryDifference", "condense_to_judged",
           "contributions", "cutoff_ties", "evaluate", "explain_difference", "parse_metric",
           "rbo", "tie_marks"]
