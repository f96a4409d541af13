"""Rank-biased precision and its residual (Moffat & Zobel, TOIS 2008).

A user reads the ranking from the top and goes on to the next document with probability p
(the persistence), so rank i (1-based) is read with weight (1 - p) p^(i-1):

    RBP = sum over ranks i of (1 - p) p^(i-1) r_i,   r_i = 1 if the document at i is relevant

Relevant is binary, as in the paper: judged with grade >= the relevance level (``RBP(p=0.8,
rel=2)``); unjudged documents count as non-relevant, as everywhere in ranklens. ``RBP@k``
reads only the first k ranks.

The **residual** is the most that unjudged documents could add: the weight of every unjudged
rank read (no judgement, or a negative grade, which trec_eval reads as "in the pool, not
judged"), plus the weight of everything below the last rank read, p^L, with L the number of
ranks read (min(k, documents retrieved)). The true RBP lies in [RBP, RBP + residual]
whatever the missing judgements say; the paper reports both, and so does ranklens.
"""

from __future__ import annotations

import numpy as np

from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels


def rank_weights(position: np.ndarray, p: float) -> np.ndarray:
    """(1 - p) p^position for 0-based positions."""
    return (1.0 - p) * np.power(p, position.astype(np.float64))


def _persistence(spec: MetricSpec) -> float:
    if spec.p is None:
        raise ValueError(f"{spec.name}: RBP needs a persistence p")
    return spec.p


def rbp(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    """Per-query RBP (binary relevance at the spec's level), reading ``spec.cutoff`` ranks."""
    p = _persistence(spec)
    rows = ranked.top(spec.cutoff) & ranked.relevant(spec.relevance_level)
    return ranked.count(rows, rank_weights(ranked.position, p))


def rbp_residual(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    """Per-query residual: weight of the unjudged ranks read plus p^(ranks read)."""
    p = _persistence(spec)
    read = ranked.top(spec.cutoff)
    unjudged = read & (ranked.labels < 0)
    depth = ranked.count(read)
    return ranked.count(unjudged, rank_weights(ranked.position, p)) + np.power(p, depth)
