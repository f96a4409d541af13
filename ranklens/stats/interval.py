"""Which confidence interval of the mean difference a comparison shows, and how to say it.

``interval="auto"`` (the default of `compare`, hence of the CLI, the app, reports and share
links) is a rule by the number of queries n:

- n >= `MIN_QUERIES` (20): the bootstrap-t (studentized) interval. Measured coverage of a
  nominal 95% interval, 2,000 samples each (docs/validity.md, ``bench/validity.py``; Monte
  Carlo error +-.005): normal differences .945 / .954 / .947 at n = 20 / 50 / 200, centred
  exponential .947 / .940 / .949, centred lognormal .918 / .928 / .939; the percentile
  interval on the same samples .920 / .942 / .946, .902 / .919 / .943 and .861 / .900 / .932.
- n < 20: the sign-flip interval, the exact permutation test inverted
  (`ranklens.stats.sign_flip`). It never excludes 0 when the exact permutation p-value is above
  alpha and always does when it is at most alpha; at such n the bootstrap intervals do not hold
  their level (at n = 2 the percentile interval of (0.1, 0.2) is [0.1, 0.2], while p = 0.5).
  Exact under the permutation test's symmetry; at n = 10: .947 on normal differences, but
  .897 / .848 on centred exponential / lognormal ones (bootstrap-t .936 / .906 there, at the
  price of contradicting the p-value): few, skewed differences say little either way.

The result records the interval actually used ("studentized" or "sign-flip"), never "auto";
`interval_description` says it in words for the pages and reports. "percentile",
"studentized" and "sign-flip" can also be asked for by name at any n (sign-flip up to 20).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from ranklens.stats.bootstrap import bootstrap_with_notes
from ranklens.stats.errors import check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import MIN_QUERIES, Deltas, as_deltas
from ranklens.stats.results import MeanDifferenceInterval, Seed
from ranklens.stats.sign_flip import MAX_SIGN_FLIP_N, sign_flip_with_notes

IntervalMethod = Literal["auto", "studentized", "percentile", "sign-flip"]
"""An interval method by name (one declaration: validation, the CLI's choices, the pages)."""

DEFAULT_INTERVAL: IntervalMethod = "auto"
"""The interval `compare` shows unless asked otherwise: see the module docstring."""

INTERVAL_METHODS: tuple[IntervalMethod, ...] = get_args(IntervalMethod)
"""What ``interval=`` accepts in `compare` and `mean_interval`."""

SIGN_FLIP_BELOW = MIN_QUERIES
"""``auto`` uses the sign-flip interval below this many queries, bootstrap-t from it on."""

assert SIGN_FLIP_BELOW - 1 <= MAX_SIGN_FLIP_N


def check_interval(interval: str) -> None:
    """Raise ValueError naming the choices unless ``interval`` is one of `INTERVAL_METHODS`."""
    if interval not in INTERVAL_METHODS:
        raise ValueError(f"interval must be one of {INTERVAL_METHODS}, got {interval!r}")


def resolve_interval(interval: str, n_queries: int) -> str:
    """The interval method used for ``n_queries`` differences: ``auto`` decided by n."""
    check_interval(interval)
    if interval != "auto":
        return interval
    return "sign-flip" if n_queries < SIGN_FLIP_BELOW else "studentized"


def mean_interval(
    deltas: Sequence[float] | Deltas,
    *,
    interval: str = DEFAULT_INTERVAL,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: Seed = 0,
) -> MeanDifferenceInterval:
    """The ``1 - alpha`` interval of the mean difference that ``interval`` names.

    ``"auto"`` is the rule by n of the module docstring; the returned ``method`` says which
    interval it was. ``n_resamples`` and ``seed`` matter for the bootstrap intervals only.
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
        return sign_flip_with_notes(values, alpha=alpha)
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
        "sign-flip {level}% interval (the exact permutation test turned into an interval): "
        "every mean difference that test would not rule out, used below {small} queries; it "
        "excludes 0 exactly when the exact permutation p-value is at most {alpha}"
    ),
    "auto": (
        "bootstrap-t (studentized) {level}% interval from {small} queries on; with fewer, the "
        "sign-flip interval (the exact permutation test turned into an interval)"
    ),
}


_LABELS = {
    "studentized": "bootstrap-t (studentized) interval",
    "percentile": "bootstrap percentile interval",
    "sign-flip": "sign-flip interval (exact permutation test inverted)",
    "auto": "bootstrap-t interval (sign-flip below 20 queries)",
}


def interval_label(method: str) -> str:
    """A few words naming the interval ``method``, for a settings line or a column header."""
    check_interval(method)
    return _LABELS[method]


def interval_description(method: str, *, alpha: float = 0.05) -> str:
    """One sentence a ranker understands about the interval ``method`` (as a result records it).

    For example ``interval_description("studentized")`` starts "bootstrap-t (studentized) 95%
    interval: ...". Accepts every name of `INTERVAL_METHODS`.
    """
    check_interval(method)
    check_probability("alpha", alpha)
    level = f"{100 * (1 - alpha):.10g}"
    return _DESCRIPTIONS[method].format(level=level, small=SIGN_FLIP_BELOW, alpha=f"{alpha:g}")
