"""Relevance grades, integer or fractional: how they are stored and the rule that reads them.

Judgements from people come as integer grades (0, 1, 2, ...); an LLM judge often gives a
fractional one (0.73, 2.5). ``Qrels.relevance`` holds int64 when every grade is whole (so every
integer input keeps exactly its dtype and numbers) and float64 otherwise
(``Qrels.fractional``). Every metric reads a fractional grade by the same rule, the one it
applies to integer grades, extended to real values:

- graded measures read the grade g as a gain: nDCG's linear gain is g (trec_eval's gain, the
  grade itself; exp gain 2^g - 1), ERR's stop probability (2^g - 1) / 2^g_max; a grade <= 0
  gains nothing;
- binary measures (P, recall, AP, RR, R-Prec, bpref, success, RBP, which is binary in
  ranklens) count a document relevant when g >= the relevance level (default 1): 0.99 is not
  relevant at level 1, 1.0 is;
- a negative grade is "in the pool, not judged", as for integer grades.

The trec_eval drop-in (``ranklens evaluate``) keeps trec_eval's integer grades: it refuses a
fractional grade or, on request, truncates it as trec_eval's ``atol`` does.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

GradePolicy = Literal["real", "integer", "truncate"]
"""How a reader takes a fractional grade: "real" keeps it (the rule above), "integer" refuses
it (the trec_eval drop-in), "truncate" cuts it toward zero as trec_eval's ``atol`` does."""

GRADE_POLICIES: tuple[str, ...] = ("real", "integer", "truncate")

GAIN_MEASURES = "nDCG and ERR"
BINARY_MEASURES = "P, recall, AP, RR, R-Prec, bpref, success and RBP"

EXAMPLES = 2


def grade_array(values: np.ndarray) -> np.ndarray:
    """Grades as stored in ``Qrels``: int64 when every value is whole, float64 otherwise.

    ``ValueError`` for a non-finite grade (NaN or infinity cannot be a relevance).
    """
    values = np.asarray(values)
    if values.dtype.kind in "iub":
        return values.astype(np.int64, copy=False)
    floats = values.astype(np.float64, copy=False)
    finite = np.isfinite(floats)
    if not finite.all():
        bad = float(floats[np.flatnonzero(~finite)[0]])
        raise ValueError(f"relevance grade {bad!r} is not a finite number")
    if np.array_equal(floats, np.round(floats)):
        return floats.astype(np.int64)
    return floats


def is_fractional(grades: np.ndarray) -> bool:
    """True for float grades, i.e. judgements holding at least one non-whole grade."""
    return np.asarray(grades).dtype.kind == "f"


def format_grade(grade: float | int) -> str:
    """A grade as written in a qrels file: ``2``, ``0.73``, ``2.5``."""
    value = float(grade)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def fractional_rule(grades: np.ndarray, relevance_level: int | None = None) -> str | None:
    """The sentence that says how fractional grades are read, or None when all are whole.

    ``relevance_level`` None says "the relevance level (1 unless set)": a reader does not know
    the level a comparison will use.
    """
    grades = np.asarray(grades)
    if not is_fractional(grades):
        return None
    fractional = grades[grades != np.round(grades)]
    shown = ", ".join(format_grade(g) for g in np.unique(fractional)[:EXAMPLES])
    if len(np.unique(fractional)) > EXAMPLES:
        shown += ", …"
    level = "the relevance level (1 unless set)" if relevance_level is None else \
        str(relevance_level)
    return (f"{len(fractional):,} of {len(grades):,} judgements have fractional grades "
            f"({shown}): read as gains for {GAIN_MEASURES}; relevant when grade >= {level} "
            f"for {BINARY_MEASURES}")
