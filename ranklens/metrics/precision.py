"""Set-based metrics of the top of a ranking: P@k, R@k, Success@k, R-Prec, Judged@k and
Unjudged@k.

A document is relevant when it is judged with grade >= the relevance level (trec_eval ``-l``,
default 1); unjudged and negative-graded documents are not.

- P@k (``P_k``): relevant in the top k / k, also when fewer than k documents were retrieved;
- R@k (``recall_k``): relevant in the top k / relevant judged for the query; 0 without any;
- Success@k (``success_k``): 1 when any of the top k is relevant;
- R-Prec (``Rprec``): relevant in the top R / R, with R the number of relevant judged
  documents; 0 when R is 0;
- Unjudged@k (trec_eval 10's ``unj_k``): documents in the top k without a usable judgement
  / k. Unjudged means absent from the query's qrels or judged with a negative grade (trec_eval
  reads a negative grade as "in the pool, not judged"). Positions past the end of a ranking
  shorter than k are not unjudged: trec_eval fills them with non-relevant documents, and P@k
  does count them as non-relevant, so nothing is unknown there;
- Judged@k: 1 - Unjudged@k, the share of the top k positions whose relevance is known. It
  follows trec_eval's three rules: a negative grade is unjudged, the positions past the end
  of a short ranking are judged, and an empty ranking (a query missing from the run, scored
  under ``missing="zero"`` / ``-c``) scores 1, as trec_eval's ``unj_k`` scores it 0.
  ir_measures' ``Judged`` counts a negative grade as judged and divides the judged documents
  of a short ranking by k: it can be lower than this on short rankings.
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


def unjudged_in_top(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    return ranked.count(ranked.top(spec.cutoff) & ~ranked.judged())


def unjudged(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.cutoff is not None
    return unjudged_in_top(ranked, spec) / spec.cutoff


def judged(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    assert spec.cutoff is not None
    return (spec.cutoff - unjudged_in_top(ranked, spec)) / spec.cutoff
