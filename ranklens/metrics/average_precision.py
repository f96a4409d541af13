"""AP and AP@k, as trec_eval's ``map`` and ``map_cut`` compute them per query.

AP = sum, over relevant retrieved documents at 1-based rank r, of (relevant in the top r) / r,
divided by the number of relevant judged documents of the query (retrieved or not); 0 when
there is none. AP@k only sums ranks r <= k but keeps the same denominator (trec_eval's
``map_cut``, not min(k, R)). Relevant means judged with grade >= the relevance level.
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels, safe_divide


def average_precision(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    relevant = ranked.relevant(spec.relevance_level)
    rows = np.flatnonzero(relevant & ranked.top(spec.cutoff))
    query = ranked.query[rows]
    # 1-based count of relevant documents up to each relevant row, within its query
    running = np.arange(1, len(rows) + 1, dtype=np.float64)
    first = np.r_[True, query[1:] != query[:-1]] if len(rows) else np.empty(0, dtype=bool)
    running -= np.repeat(running[first] - 1, np.diff(np.r_[np.flatnonzero(first), len(rows)]))
    precision_at_hit = running / (ranked.position[rows] + 1)
    total = np.bincount(query, weights=precision_at_hit, minlength=ranked.n_queries)
    num_relevant = ranked.judgements.num_relevant(spec.relevance_level).astype(np.float64)
    return safe_divide(total, num_relevant)
