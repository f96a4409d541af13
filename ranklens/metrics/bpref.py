"""bpref, as trec_eval's ``bpref`` computes it (Buckley & Voorhees, SIGIR 2004).

bpref asks, for each relevant document the run retrieved, how many judged non-relevant
documents it ranked above it; unjudged documents play no part at all, which is what makes it
the classic measure for incomplete judgements:

    bpref = 1/R * sum over retrieved relevant r of
            (1 - min(n_r, R) / min(N, R))   if n_r > 0, else 1

with R the relevant judged documents of the query (grade >= the relevance level), N the judged
non-relevant ones (0 <= grade < level) and n_r the judged non-relevant documents ranked above r.
A negative grade is "in the pool, not judged" for trec_eval: neither relevant nor non-relevant,
skipped like an unjudged document and not counted in N. 0 when R is 0. The whole ranking is
read (trec_eval's bpref has no cutoff).
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels, safe_divide
from ranklens.metrics.segmented import exclusive_running_sum


def judged_nonrelevant(ranked: RankedLabels, level: int) -> np.ndarray:
    """Per evaluated query, the judged documents with 0 <= grade < ``level`` (retrieved or not)."""
    judgements = ranked.judgements
    mask = (judgements.grades >= 0) & (judgements.grades < level)
    return np.bincount(judgements.query[mask], minlength=ranked.n_queries)


def bpref(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    level = spec.relevance_level
    labels = ranked.labels
    nonrelevant = ((labels >= 0) & (labels < level)).astype(np.int64)
    above = exclusive_running_sum(nonrelevant, ranked.query)
    rows = np.flatnonzero(ranked.relevant(level))
    query = ranked.query[rows]
    num_relevant = ranked.judgements.num_relevant(level)
    r = num_relevant[query]
    n_above = above[rows]
    denominator = np.minimum(judged_nonrelevant(ranked, level)[query], r)
    # n_above > 0 implies a judged non-relevant document exists, so the denominator is > 0
    penalty = np.divide(np.minimum(n_above, r), denominator, out=np.zeros(len(rows)),
                        where=n_above > 0)
    total = np.bincount(query, weights=1.0 - penalty, minlength=ranked.n_queries)
    return safe_divide(total, num_relevant.astype(np.float64))
