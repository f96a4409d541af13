"""Where does B differ from A, found without being told where to look, and confirmed honestly.

Looking through every segment column and every pair of columns for the group where a change
hurts most is a garden of forking paths: with 200 candidate groups, one will look striking by
chance. This module searches and confirms on different queries (sample splitting):

1. the queries are split at random (seeded) into a *search* part and a *confirm* part;
2. on the search part every candidate slice (each value of each column, each pair of values
   of two columns, with at least ``min_size`` queries) is scored by how far its mean B - A
   lies from the rest's (Welch's t); the ``report`` strongest, distinct, are kept;
3. on the confirm part, which the search never saw, each kept slice gets its B - A with a t
   interval, the p-value of "its B - A equals the rest's" (Welch), and a Benjamini-Hochberg q
   over the kept slices. A slice is *confirmed* when q <= alpha.

Because the confirm part is independent of the choice, the kept slices are a fixed family
there: under no heterogeneity at all, the chance that any slice is confirmed is at most alpha
(BH over a family of true nulls), and each interval covers its slice's B - A at its level.
The price is half the queries for each step; the report says how many candidates were
searched, so a reader knows the size of the haystack.

It answers "which groups of queries have a B - A unlike the rest, on this population of
queries"; not why, and not for groups it was not given (a column it never saw). numpy only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import purpose_generator
from ranklens.stats.distributions import t_two_sided
from ranklens.stats.multiple import benjamini_hochberg
from ranklens.stats.results import Seed
from ranklens.stats.ttest import paired_t_test

MIN_SLICE = 20
"""Fewest queries a slice needs in each part (search and confirm) to be considered."""

_SLICE_STREAM = 11  # purpose tag of the split's random stream


@dataclass(frozen=True)
class Slice:
    """One found group of queries, as confirmed on the queries the search did not see.

    ``columns`` maps each column to its value (one column, or two for a pair). ``n_queries``,
    ``delta`` (mean B - A), ``ci_low``/``ci_high`` (t interval at the discovery's level) and
    ``p_value`` ("its B - A equals the rest's", Welch) are of the confirm part (the interval
    is `paired_t_test`'s: undefined, NaN, for a slice whose differences do not vary);
    ``q_value`` is BH over the reported slices. ``search_delta`` and ``search_n`` are what the
    search saw (biased by the choice: shown for orientation only).
    """

    columns: tuple[tuple[str, str], ...]
    n_queries: int
    delta: float
    ci_low: float
    ci_high: float
    rest_delta: float
    p_value: float
    q_value: float
    search_delta: float
    search_n: int

    def confirmed(self, alpha: float) -> bool:
        return self.q_value <= alpha


@dataclass(frozen=True)
class Discovery:
    """The slices found and confirmed, and what the search was: ``n_candidates`` slices of
    at least ``min_size`` queries were scored on ``n_search`` queries; ``slices`` (strongest
    first) are estimated on the other ``n_confirm``."""

    slices: tuple[Slice, ...]
    n_candidates: int
    n_search: int
    n_confirm: int
    min_size: int
    split: float
    seed: Seed
    alpha: float
    columns: tuple[str, ...]

    @property
    def confirmed(self) -> tuple[Slice, ...]:
        return tuple(s for s in self.slices if s.confirmed(self.alpha))


def discover_slices(
    deltas: npt.ArrayLike,
    features: Mapping[str, Sequence[object] | npt.ArrayLike],
    *,
    alpha: float = 0.05,
    min_size: int = MIN_SLICE,
    report: int = 3,
    split: float = 0.5,
    pairs: bool = True,
    seed: Seed = 0,
) -> Discovery:
    """Search the queries for slices whose B - A differs from the rest's, and confirm them on
    queries the search did not see (see the module's text).

    ``deltas`` are per-query B - A; ``features`` maps a column name to one label per query
    (segment values, or numbers binned beforehand by `binned`). ``pairs`` adds the pairs of
    columns. ``split`` is the search part's share. ``report`` slices at most are confirmed.
    """
    d = np.asarray(deltas, dtype=np.float64)
    n = len(d)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if not 0.0 < split < 1.0:
        raise ValueError(f"split must be in (0, 1), got {split}")
    if report < 1 or min_size < 2:
        raise ValueError("report must be >= 1 and min_size >= 2")
    if not np.isfinite(d).all():
        raise ValueError("deltas must be finite")
    labels = {name: _labels(values, n, name) for name, values in features.items()}
    rng = purpose_generator(seed, _SLICE_STREAM)
    search = np.zeros(n, dtype=bool)
    search[rng.permutation(n)[: round(split * n)]] = True
    candidates = list(_candidates(labels, pairs))
    scored = []
    for key, members in candidates:
        in_search = members & search
        in_confirm = members & ~search
        if (in_search.sum() < min_size or in_confirm.sum() < min_size
                or (search & ~members).sum() < min_size):
            continue
        t = _welch_t(d[in_search], d[search & ~members])
        scored.append((abs(t), key, members))
    scored.sort(key=lambda item: -item[0])
    kept: list[tuple[tuple[tuple[str, str], ...], npt.NDArray[np.bool_]]] = []
    for _, key, members in scored:
        if len(kept) == report:
            break
        if any(np.array_equal(members, other) for _, other in kept):
            continue  # the same queries under another name (a pair equal to one of its values)
        kept.append((key, members))
    confirm = ~search
    found: list[Slice] = []
    for key, members in kept:
        inside, rest = d[members & confirm], d[confirm & ~members]
        t_test = paired_t_test(inside, alpha=alpha)
        found.append(Slice(columns=key, n_queries=len(inside), delta=float(inside.mean()),
                           ci_low=t_test.low, ci_high=t_test.high, rest_delta=float(rest.mean()),
                           p_value=_welch_p(inside, rest), q_value=math.nan,
                           search_delta=float(d[members & search].mean()),
                           search_n=int((members & search).sum())))
    q = benjamini_hochberg([f.p_value for f in found]) if found else ()
    slices = tuple(replace(f, q_value=float(qv)) for f, qv in zip(found, q, strict=True))
    return Discovery(slices, len(scored), int(search.sum()), int(confirm.sum()), min_size,
                     split, seed,
                     alpha, tuple(labels))


def binned(values: npt.ArrayLike, bins: int = 4) -> list[str]:
    """Numbers as labels of ``bins`` quantile bins (``"q1: 0.12-0.30"``), for `discover_slices`.

    Ties at a bin's edge stay in one bin, so a discrete feature may get fewer bins."""
    x = np.asarray(values, dtype=np.float64)
    edges = np.unique(np.quantile(x, np.linspace(0, 1, bins + 1)))
    which = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, max(len(edges) - 2, 0))
    return [f"q{w + 1}: {edges[w]:.4g}-{edges[min(w + 1, len(edges) - 1)]:.4g}"
            for w in which.tolist()]


def _labels(values: object, n: int, name: str) -> npt.NDArray[np.object_]:
    array = np.asarray(values, dtype=object)
    if array.shape != (n,):
        raise ValueError(f"feature {name!r} has {array.size} labels for {n} queries")
    return np.array([str(v) for v in array.tolist()], dtype=object)


def _candidates(labels: Mapping[str, npt.NDArray[np.object_]], pairs: bool):
    """Every (key, member mask): each value of each column, then each pair of values."""
    names = list(labels)
    codes = {}
    for name in names:
        values, inverse = np.unique(labels[name].astype(str), return_inverse=True)
        codes[name] = (values, inverse)
        for code, value in enumerate(values.tolist()):
            yield ((name, value),), inverse == code
    if not pairs:
        return
    for first, second in itertools.combinations(names, 2):
        values_a, inverse_a = codes[first]
        values_b, inverse_b = codes[second]
        combined = inverse_a * len(values_b) + inverse_b
        for code in np.unique(combined).tolist():
            a, b = divmod(code, len(values_b))
            yield ((first, str(values_a[a])), (second, str(values_b[b]))), combined == code


def _welch_t(inside: npt.NDArray[np.float64], rest: npt.NDArray[np.float64]) -> float:
    se = math.sqrt(inside.var(ddof=1) / len(inside) + rest.var(ddof=1) / len(rest))
    diff = float(inside.mean() - rest.mean())
    if se == 0.0:
        return 0.0 if diff == 0.0 else math.copysign(math.inf, diff)
    return diff / se


def _welch_p(inside: npt.NDArray[np.float64], rest: npt.NDArray[np.float64]) -> float:
    va, vb = inside.var(ddof=1) / len(inside), rest.var(ddof=1) / len(rest)
    if va + vb == 0.0:
        return 1.0 if inside.mean() == rest.mean() else 0.0
    df = (va + vb) ** 2 / (va**2 / (len(inside) - 1) + vb**2 / (len(rest) - 1))
    return float(t_two_sided(_welch_t(inside, rest), df))


__all__ = ["MIN_SLICE", "Discovery", "Slice", "binned", "discover_slices"]
