"""Whether the shape of the per-query differences lets the interval hold its level.

The interval `compare` shows (the sign-flip test inverted, `ranklens.stats.interval`) is exact
for differences symmetric about their mean. Skewed differences, or a pile of exactly tied
queries beside a few changed ones, are not symmetric about a non-zero mean, and at small n no
interval holds its level for them (issue 45's grid, ``bench/sim_mean_interval.py``: the
sign-flip interval .77-.93 for exponential, lognormal or 50-90%-tied differences below 50
queries, and the best candidate, the symmetric bootstrap-t, .86-.96). `shape_notes` says so in
words when the sample looks like that, instead of letting the interval print a precision it
does not have.

The rule reads two things off the sample: its skewness g (the moment ratio m3 / m2^1.5) and
the share of exactly tied queries. It notes when n < 25 g^2 (Cochran's rule for the normal
approximation of a mean, Sampling Techniques, 3rd ed., 1977, section 2.15) or when at least
half the queries tie and fewer than 50 differ. It is a warning about the data's shape, not a
test: a sample from a symmetric population can look skewed by chance (t(3) differences set it
off often, and the interval holds there), and a skewed population can look symmetric in a
small sample.
"""

from __future__ import annotations

import math

import numpy as np

from ranklens.errors import RanklensWarning
from ranklens.stats.notes import Note
from ranklens.stats.pairing import Deltas


class ShapeWarning(RanklensWarning):
    """The category of `shape_notes`' note: the differences are too skewed or too tied for
    their number (a `UserWarning`, so filters on that keep working). A caller that keeps
    notes per row (segments, `ranklens.compare.segments`) picks this one out by it."""


COCHRAN_FACTOR = 25
"""Cochran's rule: a mean is near normal from about 25 g^2 observations (g: skewness)."""

TIED_SHARE = 0.5
"""From this share of exactly tied queries (difference 0) ..."""

FEW_CHANGED = 50
"""... and below this many changed ones, the interval is noted as approximate."""


def mostly_tied(n: int, changed: int) -> bool:
    """Half or more of ``n`` queries tied (difference exactly 0) and fewer than `FEW_CHANGED`
    of them changed: the rule's second reason."""
    return changed < FEW_CHANGED and n - changed >= TIED_SHARE * n


def skewness(deltas: Deltas) -> float:
    """Sample skewness m3 / m2^1.5 of ``deltas`` (0 when they have no spread)."""
    centred = deltas - deltas.mean()
    m2 = float(np.mean(centred**2))
    if m2 == 0.0:
        return 0.0
    return float(np.mean(centred**3)) / m2**1.5


def shape_note_text(notes: tuple[Note, ...]) -> str:
    """The text of the `shape_notes` note among ``notes`` (a comparison's), "" when none."""
    return " ".join(note.text for note in notes if issubclass(note.category, ShapeWarning))


def shape_brief(text: str) -> str:
    """A table cell's words for a `shape_notes` text (a segment row's ``shape_note``):
    "approximate: skewed for its size", "... mostly tied" or both; "" for ""."""
    reasons = [word for word, mark in (("skewed for its size", "skewed ("),
                                       ("mostly tied", "mostly tied (")) if mark in text]
    return f"approximate: {' and '.join(reasons)}" if reasons else ""


def shape_notes(deltas: Deltas) -> tuple[Note, ...]:
    """A note when the differences are too skewed or too tied for their number (module
    docstring); none otherwise. Answers "may the interval be off its level here"; it does not
    say by how much for this sample."""
    n = deltas.size
    changed = int(np.count_nonzero(deltas))
    if n < 2 or changed == 0:
        return ()
    g = skewness(deltas)
    needed = math.ceil(COCHRAN_FACTOR * g * g)
    reasons = []
    if n < needed:
        reasons.append(f"skewed (skewness {g:.2g}; a mean this skewed is near normal from about "
                       f"25 x skewness^2 = {needed} queries)")
    if mostly_tied(n, changed):
        reasons.append(f"mostly tied ({n - changed} of {n} queries have difference exactly 0, "
                       f"only {changed} differ)")
    if not reasons:
        return ()
    return (Note(
        f"the per-query differences are {' and '.join(reasons)}: with {n} queries the interval "
        "and the p-value may miss their nominal level (in simulations of such differences no "
        "interval held 95% below 50 changed queries; docs/validity.md); read the interval as "
        "approximate", ShapeWarning),)
