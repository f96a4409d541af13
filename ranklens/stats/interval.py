"""Which confidence interval of the mean difference a comparison shows, and how to say it.

``interval="auto"`` (the default of `compare`, hence of the CLI, the app, reports and share
links) is, since 0.3, the skew-guarded test at every n (`ranklens.stats.skew_guard`): the
p-value `compare` prints is the larger of the sign-flip permutation p and Hall's
skewness-corrected t-test's p on the changed queries, and the interval is every mean difference
that either test keeps (the hull of the sign-flip interval and Hall's), so it excludes 0
exactly when that p-value is at most alpha, by construction. In 0.2 "auto" was the bootstrap-t
interval from 20 queries on; with many tied queries it excluded 0 beside p = .25 (issue 45: 17
zeros and three small losses gave (-inf, -0.00015) beside p .253). Before the guard (0.3 until
issue 45's grid was run for it) "auto" was the sign-flip test alone, which is exact only when
the differences are symmetric under no difference: on centred exponential differences it
rejected 7-10% at 10-50 queries where the guard rejects 4-6.4% (docs/validity.md; at 10
queries the guard is still a little above .05).

Measured (``bench/sim_mean_interval.py``, 1,000 samples a cell, Monte Carlo error +-.007;
docs/validity.md): the sign-flip interval covers .94-.96 on normal, t(3), P@10-like steps and
bounded nDCG-like differences at every n from 10, where the bootstrap-t covered .91 on t(3);
its type-I error is at most alpha whenever the differences are symmetric under no difference
(tied queries included), where the bootstrap-t's "excludes 0" erred 11-20%. No candidate
holds skewed or tie-heavy differences with a non-zero mean at small n: there the sign-flip
interval covers like the t-interval (.80-.93 below 50 queries, lognormal .86-.93 up to 200),
the symmetric bootstrap-t somewhat better (.89-.96) but not with the p-value printed beside it.
`compare` says so in a note (`ranklens.stats.shape`) instead of printing a precision it does
not have.

The result records the interval actually used ("skew-guarded" for "auto"), never "auto";
`interval_description` says it in words for the pages and reports. "sign-flip" (the
permutation test alone, inverted with the very sign patterns of its p-value), "percentile" and
"studentized" (bootstrap-t) can still be asked for by name; the bootstrap ones do not agree
with the p-value by construction. The segments of a BH family use the same skew-guarded test
(`FAMILY_INTERVAL`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from ranklens.stats.bootstrap import bootstrap_with_notes
from ranklens.stats.errors import check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import MIN_QUERIES, Deltas, as_deltas
from ranklens.stats.results import MeanDifferenceInterval, Seed
from ranklens.stats.sign_flip import sign_flip_with_notes
from ranklens.stats.skew_guard import GUARDED, skew_guarded_test

IntervalMethod = Literal["auto", "studentized", "percentile", "sign-flip", "skew-guarded"]
"""An interval method by name (one declaration: validation, the CLI's choices, the pages)."""

DEFAULT_INTERVAL: IntervalMethod = "auto"
"""The interval `compare` shows unless asked otherwise: see the module docstring."""

INTERVAL_METHODS: tuple[IntervalMethod, ...] = get_args(IntervalMethod)
"""What ``interval=`` accepts in `compare` and `mean_interval`."""

FAMILY_INTERVAL: IntervalMethod = "skew-guarded"
"""What ``auto`` is for the segments of a BH family (`ranklens.compare.segments`): the
sign-flip test guarded by a skewness-corrected t-test (`ranklens.stats.skew_guard`), because
BH's small levels are where skewed differences make the sign-flip p-value too small."""

SIGN_FLIP_BELOW = MIN_QUERIES
"""In 0.2 ``auto`` used the sign-flip interval below this many queries only; kept for
callers, no longer used by the rule (``auto`` is sign-flip at every n)."""


def check_interval(interval: str) -> None:
    """Raise ValueError naming the choices unless ``interval`` is one of `INTERVAL_METHODS`."""
    if interval not in INTERVAL_METHODS:
        raise ValueError(f"interval must be one of {INTERVAL_METHODS}, got {interval!r}")


def resolve_interval(interval: str, n_queries: int) -> str:
    """The interval method used for ``n_queries`` differences: ``auto`` decided by n."""
    check_interval(interval)
    if interval != "auto":
        return interval
    del n_queries  # the same at every n since 0.3; kept so callers need not change
    return GUARDED


def mean_interval(
    deltas: Sequence[float] | Deltas,
    *,
    interval: str = DEFAULT_INTERVAL,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: Seed = 0,
) -> MeanDifferenceInterval:
    """The ``1 - alpha`` interval of the mean difference that ``interval`` names.

    ``"auto"`` is the skew-guarded interval (module docstring); the returned ``method`` says
    which interval it was. ``n_resamples`` and ``seed`` are the bootstrap's resamples, or the
    random sign patterns of the sign-flip test (the skew-guarded test's sign-flip part): those
    of ``permutation_test(deltas, n_permutations=n_resamples, seed=seed)``; all 2^n when they
    are no more.
    What it warns, `mean_interval_with_notes` returns as notes instead.
    """
    return emitted(mean_interval_with_notes(deltas, interval, alpha, n_resamples, seed))


def mean_interval_with_notes(deltas: Sequence[float] | Deltas, interval: str, alpha: float,
                             n_resamples: int, seed: Seed
                             ) -> tuple[MeanDifferenceInterval, tuple[Note, ...]]:
    """`mean_interval`, with what it would warn (an infinite end) returned as notes (every
    argument given: the defaults are `mean_interval`'s)."""
    check_interval(interval)
    values = as_deltas(deltas)
    method = resolve_interval(interval, values.size)
    if method == "sign-flip":
        return sign_flip_with_notes(values, alpha=alpha, n_permutations=n_resamples, seed=seed)
    if method == GUARDED:
        guarded, _, notes = skew_guarded_test(values, alpha=alpha, n_permutations=n_resamples,
                                              seed=seed)
        return guarded, notes
    return bootstrap_with_notes(values, n_resamples, alpha, seed, method)


_DESCRIPTIONS = {
    "studentized": (
        "bootstrap-t (studentized) {level}% interval: the queries are resampled with "
        "replacement and each resample's mean difference is scaled by its own spread, which "
        "keeps the interval honest on skewed differences"
    ),
    "percentile": (
        "bootstrap percentile {level}% interval: the middle {level}% of the mean differences "
        "of queries resampled with replacement; it can be too narrow below about 50 queries "
        "or when a few queries carry the difference"
    ),
    "sign-flip": (
        "sign-flip {level}% interval (the permutation test turned into an interval): every "
        "mean difference that test would not rule out; it excludes 0 exactly when the "
        "permutation p-value is at most {alpha}"
    ),
    "auto": (
        "skew-guarded {level}% interval: every mean difference that the sign-flip test or a "
        "skewness-corrected t-test would not rule out; its p-value is the larger of the two, "
        "so skewed differences are not told apart from 0 too easily, and the interval "
        "excludes 0 exactly when that p-value is at most {alpha}"
    ),
    "skew-guarded": (
        "skew-guarded {level}% interval: every mean difference that the sign-flip test or a "
        "skewness-corrected t-test would not rule out; its p-value is the larger of the two, "
        "so skewed differences are not told apart from 0 too easily, and the interval "
        "excludes 0 exactly when that p-value is at most {alpha}"
    ),
}


_LABELS = {
    "studentized": "bootstrap-t (studentized) interval",
    "percentile": "bootstrap percentile interval",
    "sign-flip": "sign-flip interval (permutation test inverted)",
    "auto": "skew-guarded interval (sign-flip or skew-corrected t, the wider)",
    "skew-guarded": "skew-guarded interval (sign-flip or skew-corrected t, the wider)",
}


def interval_label(method: str) -> str:
    """A few words naming the interval ``method``, for a settings line or a column header."""
    check_interval(method)
    return _LABELS[method]


def p_label(method: str) -> str:
    """A few words naming the p-value printed beside the interval ``method`` (as a result
    records it): "skew-guarded p" for the skew-guarded test (the sign-flip permutation p, or
    the skewness-corrected t-test's when larger), else "permutation p" (the sign-flip test's,
    which the bootstrap intervals are printed beside)."""
    check_interval(method)
    return "skew-guarded p" if method in (GUARDED, "auto") else "permutation p"


def interval_description(method: str, *, alpha: float = 0.05) -> str:
    """One sentence a ranker understands about the interval ``method`` (as a result records it).

    For example ``interval_description("studentized")`` starts "bootstrap-t (studentized) 95%
    interval: ...". Accepts every name of `INTERVAL_METHODS`.
    """
    check_interval(method)
    check_probability("alpha", alpha)
    level = f"{100 * (1 - alpha):.10g}"
    return _DESCRIPTIONS[method].format(level=level, small=SIGN_FLIP_BELOW, alpha=f"{alpha:g}")
