"""Per-query ranking metrics with trec_eval's semantics, and rank-biased overlap.

    from ranklens.metrics import evaluate
    evaluation = evaluate(run, qrels, ["ndcg@10", "map", "P@5"])
    evaluation["nDCG@10"].per_query      # {query_id: value}

Names are parsed by ``parse_metric`` (``ndcg_cut_10``, ``nDCG@10``, ``P(rel=2)@5`` ...); each
metric family documents the trec_eval semantics it follows in its module.
"""

from ranklens.data import MetricResult
from ranklens.metrics.evaluate import Evaluation, evaluate
from ranklens.metrics.judged_only import condense_to_judged
from ranklens.metrics.names import COMMON_METRICS, MetricSpec, parse_metric
from ranklens.metrics.rbo import rbo

__all__ = ["COMMON_METRICS", "Evaluation", "MetricResult", "MetricSpec", "condense_to_judged",
           "evaluate", "parse_metric", "rbo"]
