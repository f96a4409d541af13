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

A third reason, for a comparison that calls the difference clear (p at most alpha): fewer than
25 changed queries (difference not 0) whose adjusted skewness G1 points away from the mean
(a right-skewed sample with a mean below 0, or a left-skewed one above) by more than half its
normal-theory standard error (`skewness_se`). Such a sample is what a skewed population with
mean 0 gives when it hides its tail: the tail that would pull the mean back to 0 is the one
few queries miss (Bahadur and Savage, 1956). No test holds there (lognormal differences of
10-20 queries: the skew-guarded default rejects a true "no difference" 7-8% of the time at
alpha = .05; a guard read with every skewness within one standard error of the sample's holds
it but widens the normal cells' intervals by 8-26%), so the note says it in words: with it, the
note marks 63-96% of those false rejections (the first two reasons alone: 31-47%) and leaves
.003-.028 of the samples falsely rejected without a word; the third reason is given beside
15-25% of the clear results of normal differences at 10-20 queries (the note for any reason:
27-36%) (``bench/validity_small_skew.py``; docs/validity.md, "Small skewed samples").
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

SKEW_CHECK_BELOW = 25
"""Below this many changed queries a sample whose skewness points away from its mean is noted
(`skewed_away`) ..."""

SKEW_SE_FACTOR = 0.5
"""... when its adjusted skewness is more than this many of its standard errors from 0."""


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


def adjusted_skewness(values: Deltas) -> float:
    """The adjusted Fisher-Pearson skewness G1 = g sqrt(n (n - 1)) / (n - 2) (g = m3 / m2^1.5;
    scipy's ``skew(bias=False)``): the sample skewness with its small-sample shrinkage toward 0
    undone. 0 below three values or without spread."""
    n = values.size
    if n < 3:
        return 0.0
    return skewness(values) * math.sqrt(n * (n - 1.0)) / (n - 2.0)


def skewness_se(k: int) -> float:
    """The standard error of the adjusted skewness G1 of ``k`` (at least 3) values from a
    normal population, sqrt(6 k (k - 1) / ((k - 2) (k + 1) (k + 3))): the scale against which
    `skewed_away` calls a sample's skewness clear."""
    return math.sqrt(6.0 * k * (k - 1.0) / ((k - 2.0) * (k + 1.0) * (k + 3.0)))


def skewed_away(deltas: Deltas) -> tuple[int, float] | None:
    """The changed queries' count k and adjusted skewness G1 when the rule's third reason holds
    (module docstring): fewer than `SKEW_CHECK_BELOW` (and at least 3) changed queries, the
    mean of all the differences on one side of 0 and G1 clearly (more than `SKEW_SE_FACTOR`
    standard errors, `skewness_se`) pointing to the other; None otherwise."""
    changed = deltas[deltas != 0.0]
    k = changed.size
    if not 3 <= k < SKEW_CHECK_BELOW:
        return None
    g1 = adjusted_skewness(changed)
    mean = float(deltas.mean())
    if mean * g1 < 0.0 and abs(g1) > SKEW_SE_FACTOR * skewness_se(k):
        return k, g1
    return None


def shape_note_text(notes: tuple[Note, ...]) -> str:
    """The text of the `shape_notes` note among ``notes`` (a comparison's), "" when none."""
    return " ".join(note.text for note in notes if issubclass(note.category, ShapeWarning))


def shape_brief(text: str) -> str:
    """A table cell's words for a `shape_notes` text (a segment row's ``shape_note``):
    "approximate: skewed for its size", "... short of a tail", "... mostly tied"
    or several, joined by "and"; "" for ""."""
    reasons = [word for word, mark in (("skewed for its size", "skewed ("),
                                       ("short of a tail", "short of a "),
                                       ("mostly tied", "mostly tied (")) if mark in text]
    return f"approximate: {' and '.join(reasons)}" if reasons else ""


def _short_tail(deltas: Deltas) -> list[str]:
    """The third reason's words when it holds (`skewed_away`), else none."""
    away = skewed_away(deltas)
    if away is None:
        return []
    k, g1 = away
    side, tail = ("below", "right") if g1 > 0 else ("above", "left")
    return [f"likely short of a {tail} tail (the {k} changed queries have adjusted skewness "
            f"{g1:.2g} but a mean {side} 0: the {tail} tail that so few queries often miss "
            "would pull the mean back toward 0, so the clear difference may be this sample's "
            "alone)"]


def shape_notes(deltas: Deltas, *, rejected: bool = False) -> tuple[Note, ...]:
    """A note when the differences are too skewed or too tied for their number, or, when the
    comparison ``rejected`` "no difference" (its p-value at most alpha), likely short of the tail
    that would make their mean 0 (module docstring); none otherwise. Answers "may the interval
    and p be off their level here"; it does not say by how much for this sample."""
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
    if rejected:
        reasons += _short_tail(deltas)
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
