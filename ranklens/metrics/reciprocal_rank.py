"""RR and RR@k, as trec_eval's ``recip_rank``: 1 / (1-based rank of the first relevant
document), 0 when no relevant document is retrieved (within the top k for RR@k). Relevant means
judged with grade >= the relevance level. The mean over queries is MRR.
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels


def reciprocal_rank(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    rows = np.flatnonzero(ranked.relevant(spec.relevance_level) & ranked.top(spec.cutoff))
    out = np.zeros(ranked.n_queries, dtype=np.float64)
    # rows are in rank order within each query: the first row of each query is its best rank
    query = ranked.query[rows]
    first = np.r_[True, query[1:] != query[:-1]] if len(rows) else np.empty(0, dtype=bool)
    out[query[first]] = 1.0 / (ranked.position[rows][first] + 1)
    return out
