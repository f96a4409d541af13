"""Set-based metrics of the top of a ranking: P@k, R@k, Success@k, R-Prec and Judged@k.

A document is relevant when it is judged with grade >= the relevance level (trec_eval ``-l``,
default 1); unjudged and negative-graded documents are not.

- P@k (``P_k``): relevant in the top k / k, also when fewer than k documents were retrieved;
- R@k (``recall_k``): relevant in the top k / relevant judged for the query; 0 without any;
- Success@k (``success_k``): 1 when any of the top k is relevant;
- R-Prec (``Rprec``): relevant in the top R / R, with R the number of relevant judged
  documents; 0 when R is 0;
- Judged@k (ir_measures' ``Judged``; trec_eval has none): documents in the top k that have a
  judgement of any grade (negative included) / k.
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels, safe_divide


def relevant_in_top(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    return ranked.count(ranked.top(spec.cutoff) & ranked.relevant(spec.relevance_level))


def precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.cutoff is not None
    return relevant_in_top(ranked, spec) / spec.cutoff


def recall(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level)
    return safe_divide(relevant_in_top(ranked, spec), num_relevant.astype(np.float64))


def success(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    return (relevant_in_top(ranked, spec) > 0).astype(np.float64)


def r_precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level)
    rows = (ranked.position < num_relevant[ranked.query]) & ranked.relevant(spec.relevance_level)
    return safe_divide(ranked.count(rows), num_relevant.astype(np.float64))


def judged(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.cutoff is not None
    return ranked.count(ranked.top(spec.cutoff) & ranked.judged()) / spec.cutoff
