"""trec_eval 10.0's ``relstring``: the one measure that prints text, not a number.

``relstring`` answers what the first ranks of each ranking hold (its grade, out of the pool,
unjudged) as one character each; ``ranklens.metrics.trec_measures`` (which answers the numeric
measures) exports it with them.
"""

from __future__ import annotations

import itertools

import numpy as np

from ranklens.metrics.trec_ranking import NONPOOL, UNJUDGED, TrecRanking


def relstring(r: TrecRanking, length: int) -> list[str]:
    """The first ``length`` labels of each ranking as characters: the grade 0-9, '>' above 9,
    '-' not in the pool, '.' in the pool but unjudged."""
    shown = np.minimum(r.num_ret, length)
    starts = np.concatenate(([0], np.cumsum(shown))).astype(np.int64)
    text = np.full(int(starts[-1]), ord("-"), dtype=np.uint8)  # no row: not in the pool
    rows = np.flatnonzero(r.position < length)
    labels = r.labels[rows]
    chars = np.full(len(labels), ord("<"), dtype=np.uint8)
    chars[labels > 9] = ord(">")
    digit = (labels >= 0) & (labels <= 9)
    chars[digit] = (ord("0") + labels[digit]).astype(np.uint8)
    chars[labels == NONPOOL] = ord("-")
    chars[labels == UNJUDGED] = ord(".")
    text[starts[r.query[rows]] + r.position[rows]] = chars
    joined = text.tobytes().decode("ascii")
    bounds = starts.tolist()
    return [joined[b:e] for b, e in itertools.pairwise(bounds)]
