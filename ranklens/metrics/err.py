"""ERR and ERR@k, the expected reciprocal rank of Chapelle et al. (CIKM 2009), as the TREC
Web track's ``gdeval.pl`` computes it.

A user reads down the ranking and stops at rank i, satisfied, with probability R_i; ERR is the
expected 1/i of the rank where they stop:

    ERR@k = sum over i <= k of R_i / i * prod over j < i of (1 - R_j),
    R_i = (2^g_i - 1) / 2^g_max

with g_i the grade of the document at rank i (0 when unjudged or negative; a fractional grade
such as 2.5 enters the same formula, ``ranklens.data.grades``) and g_max the top grade of the
scale. gdeval fixes g_max = 4 (``$MAX_JUDGMENT``) whatever grades the qrels use,
so ``ERR@20`` uses 4 as well and ``ERR(max=3)@20`` scales by another top grade (Chapelle's
definition with the collection's own scale). A qrels grade above g_max is an error, as in
gdeval. Documents are in trec_eval's order (score descending, ties by document id descending),
which is gdeval's order too; without a cutoff the whole ranking is read. Queries without any
positive grade score 0 (gdeval prints no line for them).
"""

from __future__ import annotations

import numpy as np

from ranklens.data.grades import format_grade
from ranklens.metrics.names import MetricSpec
from ranklens.metrics.ranked import RankedLabels
from ranklens.metrics.segmented import exclusive_running_sum


def stop_probabilities(grades: np.ndarray, max_grade: int) -> np.ndarray:
    """R = (2^grade - 1) / 2^max_grade, 0 for grades <= 0 (real-valued grades too)."""
    positive = np.maximum(grades, 0).astype(np.float64)
    return np.expm1(positive * np.log(2.0)) / 2.0 ** max_grade


def check_scale(spec: MetricSpec, grades: np.ndarray, max_grade: int) -> None:
    """``ValueError`` when a grade exceeds the scale's top grade (gdeval's rule), naming a
    ``max`` that holds it (the next whole grade for a fractional one)."""
    if not len(grades) or grades.max() <= max_grade:
        return
    top = grades.max()
    enough = int(np.ceil(top))
    raise ValueError(
        f"{spec.name} scales grades up to {max_grade} (gdeval's scale), but the qrels have "
        f"grade {format_grade(top)}; name the top grade, e.g. "
        f"ERR(max={enough})@{spec.cutoff or 20}")


def err(ranked: RankedLabels, spec: MetricSpec) -> np.ndarray:
    max_grade = spec.max_grade
    if max_grade is None:
        raise ValueError(f"{spec.name}: ERR needs the top grade of the scale")
    check_scale(spec, ranked.judgements.grades, max_grade)
    # only rows that can stop the user matter: the others neither add nor change the decay
    rows = np.flatnonzero(ranked.top(spec.cutoff) & (ranked.labels > 0))
    query = ranked.query[rows]
    stop = stop_probabilities(ranked.labels[rows], max_grade)
    # R < 1 always (2^g - 1 < 2^max), so log(1 - R) is finite
    still_reading = np.exp(exclusive_running_sum(np.log1p(-stop), query))
    contribution = stop * still_reading / (ranked.position[rows] + 1.0)
    return np.bincount(query, weights=contribution, minlength=ranked.n_queries)
