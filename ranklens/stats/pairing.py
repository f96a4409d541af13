"""Pairing per-query values of two runs: which queries enter a paired comparison, and how."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.data import QueryId
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning

Deltas = npt.NDArray[np.float64]

MIN_QUERIES = 20
"""Below this the interval is so wide that it says little; a warning, not an error."""

MISSING_POLICIES = ("drop", "zero", "error")
_EXAMPLES = 3


@dataclass(frozen=True)
class Paired:
    """Values of both runs on the queries that enter the comparison, in ``queries`` order."""

    queries: tuple[QueryId, ...]
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    only_a: tuple[QueryId, ...]
    only_b: tuple[QueryId, ...]

    @property
    def deltas(self) -> Deltas:
        return self.b - self.a


def examples(queries: Sequence[QueryId]) -> str:
    """The first few query ids as a warning shows them: ``'q1', 'q2', 'q3', ...``."""
    shown = ", ".join(repr(query) for query in queries[:_EXAMPLES])
    return f"{shown}, ..." if len(queries) > _EXAMPLES else shown


def check_finite(per_query: Mapping[QueryId, float], side: str) -> None:
    """Raise ValueError naming the queries whose value is NaN or infinite.

    A NaN difference would otherwise make every sign flip compare False against it and
    report a "highly significant" p-value next to a NaN interval.
    """
    bad = sorted(query for query, value in per_query.items() if not math.isfinite(value))
    if bad:
        shown = ", ".join(f"{query!r}={per_query[query]}" for query in bad[:5])
        more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
        raise ValueError(
            f"{side} has NaN or infinite values on {len(bad)} queries: {shown}{more}; "
            "per-query metric values must be finite numbers"
        )


def pair(
    per_query_a: Mapping[QueryId, float],
    per_query_b: Mapping[QueryId, float],
    *,
    missing: str = "drop",
    min_queries: int = MIN_QUERIES,
    stacklevel: int = 2,
) -> Paired:
    """Values of A and B on the compared queries; warnings and errors as in `paired_deltas`."""
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")
    check_finite(per_query_a, "run A")
    check_finite(per_query_b, "run B")
    only_a = tuple(sorted(per_query_a.keys() - per_query_b.keys()))
    only_b = tuple(sorted(per_query_b.keys() - per_query_a.keys()))
    if (only_a or only_b) and missing == "error":
        raise ValueError(
            f"{len(only_a)} queries only in run A ({examples(only_a) or 'none'}) and "
            f"{len(only_b)} only in run B ({examples(only_b) or 'none'}); "
            "a paired comparison needs every query in both runs "
            "(missing='drop' compares the common ones, missing='zero' scores 0 where missing)"
        )
    if (only_a or only_b) and missing == "drop":
        warnings.warn(
            f"dropped {len(only_a)} queries only in run A ({examples(only_a) or 'none'}) and "
            f"{len(only_b)} only in run B ({examples(only_b) or 'none'}): a paired test needs "
            "pairs; missing='zero' scores a missing query 0 (trec_eval -c), "
            "missing='error' refuses",
            UserWarning,
            stacklevel=stacklevel + 1,
        )
    if missing == "zero":
        queries = tuple(sorted(per_query_a.keys() | per_query_b.keys()))
    else:
        queries = tuple(sorted(per_query_a.keys() & per_query_b.keys()))
    if not queries:
        raise InsufficientSampleError(0, 2)
    if len(queries) < min_queries:
        warnings.warn(
            f"comparison on {len(queries)} paired queries: the interval will be wide and the "
            f"p-value unstable; {min_queries} or more are recommended (see the MDE calculator)",
            SmallSampleWarning,
            stacklevel=stacklevel + 1,
        )
    a = np.fromiter((per_query_a.get(q, 0.0) for q in queries), np.float64, len(queries))
    b = np.fromiter((per_query_b.get(q, 0.0) for q in queries), np.float64, len(queries))
    return Paired(queries, a, b, only_a, only_b)


def paired_deltas(
    per_query_a: Mapping[QueryId, float],
    per_query_b: Mapping[QueryId, float],
    *,
    min_queries: int = MIN_QUERIES,
    missing: str = "drop",
) -> tuple[tuple[QueryId, ...], Deltas]:
    """Queries measured in both runs, sorted, and their per-query differences ``b - a``.

    A paired test needs pairs, so a query present in only one run is handled as ``missing``
    says: ``"drop"`` (default) leaves it out and warns with the counts and a few ids of each
    side; ``"zero"`` scores it 0 in the run that lacks it (trec_eval -c); ``"error"`` raises
    ValueError. NaN or infinite values raise ValueError naming the queries. With no query to
    compare at all there is nothing to compare — that is `InsufficientSampleError`. With
    fewer than ``min_queries`` the numbers are computable but unreliable, so they are
    produced with a `SmallSampleWarning`.
    """
    paired = pair(per_query_a, per_query_b, missing=missing, min_queries=min_queries)
    return paired.queries, paired.deltas


def as_deltas(deltas: object) -> Deltas:
    """Validated one-dimensional, finite, non-empty float64 array of differences."""
    values = np.asarray(deltas, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"deltas must be one-dimensional, got shape {values.shape}")
    if values.size == 0:
        raise ValueError("deltas must not be empty")
    finite = np.isfinite(values)
    if not finite.all():
        positions = np.flatnonzero(~finite)
        raise ValueError(
            f"deltas must be finite: {positions.size} NaN or infinite values, at positions "
            f"{positions[:5].tolist()}"
        )
    return values


def sample_sd(values: Deltas) -> float:
    """Sample standard deviation (ddof 1); exactly 0 when every value is the same.

    numpy's two-pass formula leaves a residue of a few ulps for identical values whose
    mean does not round back to them; a test statistic divided by it would be huge, not
    the "no spread" case it is.
    """
    if values.size < 2 or bool(np.all(values == values[0])):
        return 0.0
    return float(values.std(ddof=1))
