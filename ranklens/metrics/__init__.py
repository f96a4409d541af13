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
"""

from ranklens.data import MetricResult
from ranklens.metrics.contributions import Contributions, contributions
from ranklens.metrics.evaluate import Evaluation, evaluate
from ranklens.metrics.judged_only import condense_to_judged
from ranklens.metrics.moves import Move, QueryDifference, explain_difference
from ranklens.metrics.names import COMMON_METRICS, MetricSpec, parse_metric
from ranklens.metrics.rbo import rbo
from ranklens.metrics.ties import TREC_EVAL_TIE_RULE, CutoffTies, cutoff_ties, tie_marks

__all__ = ["COMMON_METRICS", "TREC_EVAL_TIE_RULE", "Contributions", "CutoffTies", "Evaluation",
           "MetricResult", "MetricSpec", "Move", "QueryDifference", "condense_to_judged",
           "contributions", "cutoff_ties", "evaluate", "explain_difference", "parse_metric",
           "rbo", "tie_marks"]
