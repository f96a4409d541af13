"""Where does B differ from A, found without being told where to look, and confirmed honestly.

Looking through every segment column and every pair of columns for the group where a change
hurts most is a garden of forking paths: with 200 candidate groups, one will look striking by
chance. This module searches and confirms on different queries, in both directions
(cross-fitting):

1. the queries are split at random (seeded) into two parts;
2. on each part every candidate slice (each value of each column, each pair of values of two
   columns, with at least ``min_size`` queries in each part) is scored by how far its mean
   B - A lies from the rest's (Welch's t); the strongest are kept, distinct: ``report - 1``
   slices of one column and the strongest pair (all ``report`` of one column without pairs),
   so that the many small pairs do not crowd out a large slice of one column;
3. each kept slice is tested on the *other* part, which its search never saw: "its B - A lies
   beyond the rest's on the side the search saw" (Welch, one-sided: the side was chosen on
   independent queries). The ``2 * report`` tests of both directions form one family, and a
   slice's family-wise p is Holm's over it; a slice is *confirmed* when that p <= alpha. A
   slice kept by both parts is reported once, with the test of smaller p.

Each test's p is valid whatever the search chose (the part it is computed on is independent of
the choice), and Holm holds the family-wise error under any dependence between the two
directions: under no heterogeneity the chance that any slice is confirmed is at most alpha.
Each reported slice's B - A and t interval are of the part its search did not see, at level
1 - alpha / (number of tests): simultaneous over every slice tested (Bonferroni), so the
interval of a slice chosen because it was confirmed still covers its B - A at 1 - alpha.
Cross-fitting is the sample split used twice: each query confirms once and searches once, which
gives a real slice two chances to be found and confirmed (docs/validity.md measures the power
against one split). The report says how many candidates were
searched, so a reader knows the size of the haystack.

It answers "which groups of queries have a B - A unlike the rest, on this population of
queries"; not why, and not for groups it was not given (a column it never saw). numpy only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import purpose_generator
from ranklens.stats.distributions import t_ends, t_sf
from ranklens.stats.multiple import holm
from ranklens.stats.results import Seed

MIN_SLICE = 20
"""Fewest queries a slice needs in each part (search and confirm) to be considered."""

_SLICE_STREAM = 11  # purpose tag of the split's random stream

Key = tuple[tuple[str, str], ...]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class HeldOutTest:
    """What a found slice measured on the part of the queries its search did not see: the
    numbers `Slice` holds and a report keeps (`ranklens.compare.slice_result.DiscoveredSlice`).

    ``n_queries``, ``delta`` (mean B - A), ``ci_low``/``ci_high`` (t interval at level
    1 - alpha / the number of tests: simultaneous over the family) and ``p_value`` ("its
    B - A lies beyond the rest's on the side the search saw", Welch, one-sided) are of that
    held-out part (the interval is NaN for a slice whose differences do not vary);
    ``rest_delta`` is the mean B - A of the held-out queries outside the slice; ``q_value``
    is its family-wise p (Holm over every test of both directions). It says nothing of the
    slice's columns: each holder keys them its own way.
    """

    n_queries: int
    delta: float
    ci_low: float
    ci_high: float
    rest_delta: float
    p_value: float
    q_value: float

    def held_out(self) -> dict[str, Any]:
        """These numbers by field name, to build another holder of them with (keywords)."""
        return {f.name: getattr(self, f.name) for f in fields(HeldOutTest)}


@dataclass(frozen=True)
class Slice(HeldOutTest):
    """One found group of queries, as tested on the part of the queries its search did not see
    (`HeldOutTest`).

    ``columns`` maps each column to its value (one column, or two for a pair).
    ``search_delta`` and ``search_n`` are what the search saw (biased by the choice: shown for
    orientation only).
    """

    columns: Key
    search_delta: float
    search_n: int

    def confirmed(self, alpha: float) -> bool:
        return self.q_value <= alpha


@dataclass(frozen=True)
class Discovery:
    """The slices found and confirmed, and what the search was: ``n_candidates`` slices of
    at least ``min_size`` queries in each part were scored on each part (``n_search`` queries
    in the first, ``n_confirm`` in the second; each part searches for the other);
    ``n_tests`` slices were tested on held-out queries; ``slices`` are the distinct ones,
    smallest family-wise p first."""

    slices: tuple[Slice, ...]
    n_candidates: int
    n_search: int
    n_confirm: int
    min_size: int
    split: float
    seed: Seed
    alpha: float
    columns: tuple[str, ...]
    n_tests: int = 0

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
    """Search the queries for slices whose B - A differs from the rest's, each part of a random
    split searching for the other, which confirms (see the module's text).

    ``deltas`` are per-query B - A; ``features`` maps a column name to one label per query
    (segment values, or numbers binned beforehand by `binned`). ``pairs`` adds the pairs of
    columns. ``split`` is the first part's share. Each part keeps ``report`` slices.
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
    first = np.zeros(n, dtype=bool)
    first[rng.permutation(n)[: round(split * n)]] = True
    candidates = [(key, members) for key, members in _candidates(labels, pairs)
                  if all(_fits(members, part, min_size) for part in (first, ~first))]
    kept = [(key, members, search) for search in (first, ~first)
            for key, members in _strongest(d, candidates, search, report, pairs)]
    level = 1.0 - alpha / max(len(kept), 1)
    tested = [_held_out(d, key, members, search, level) for key, members, search in kept]
    family = holm([s.p_value for s in tested]) if tested else ()
    best: dict[Key, Slice] = {}
    for found, fwer in zip(tested, family, strict=True):
        if found.columns not in best or fwer < best[found.columns].q_value:
            best[found.columns] = _with_q(found, fwer)
    slices = tuple(sorted(best.values(), key=lambda s: (s.q_value, s.p_value)))
    return Discovery(slices, len(candidates), int(first.sum()), int((~first).sum()), min_size,
                     split, seed, alpha, tuple(labels), len(tested))


def _fits(members: Mask, part: Mask, min_size: int) -> bool:
    """Whether a slice has ``min_size`` queries in ``part``, and the rest there has as many."""
    inside = int((members & part).sum())
    return inside >= min_size and int(part.sum()) - inside >= min_size


def _strongest(d: npt.NDArray[np.float64], candidates: list[tuple[Key, Mask]], search: Mask,
               report: int, pairs: bool) -> list[tuple[Key, Mask]]:
    """The ``report`` strongest distinct slices on ``search`` by |Welch t| against the rest:
    ``report - 1`` of one column and the strongest pair (with ``pairs`` and ``report`` > 1),
    else ``report`` of one column."""
    if not candidates:
        return []
    strength = np.abs(_welch_t_all(np.stack([m[search] for _, m in candidates]), d[search]))
    with_pair = pairs and report > 1
    quota = {1: report - 1 if with_pair else report, 2: 1 if with_pair else 0}
    kept: list[tuple[Key, Mask]] = []
    for i in np.argsort(-strength, kind="stable").tolist():
        key, members = candidates[i]
        if quota.get(len(key), 0) == 0:
            continue
        if any(np.array_equal(members, other) for _, other in kept):
            continue  # the same queries under another name (a pair equal to one of its values)
        quota[len(key)] -= 1
        kept.append((key, members))
    return kept


def _welch_t_all(members: npt.NDArray[np.bool_], d: npt.NDArray[np.float64]
                 ) -> npt.NDArray[np.float64]:
    """Welch's t of each row's slice of ``d`` against the rest (one row a slice); 0 where
    nothing varies and the means are equal, +-inf where only the means differ."""
    inside = members.astype(np.float64)
    n_in = inside.sum(axis=1)
    n_out = len(d) - n_in
    sums, squares = inside @ d, inside @ (d * d)
    mean_in, mean_out = sums / n_in, (d.sum() - sums) / n_out
    var_in = np.maximum(squares - n_in * mean_in**2, 0.0) / (n_in - 1)
    var_out = np.maximum((d @ d - squares) - n_out * mean_out**2, 0.0) / (n_out - 1)
    se = np.sqrt(var_in / n_in + var_out / n_out)
    diff = mean_in - mean_out
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(se > 0.0, diff / np.where(se > 0.0, se, 1.0),
                        np.where(diff == 0.0, 0.0, np.copysign(np.inf, diff)))


def _held_out(d: npt.NDArray[np.float64], key: Key, members: Mask, search: Mask,
              level: float) -> Slice:
    """The slice tested on the queries its search did not see."""
    confirm = ~search
    inside, rest = d[members & confirm], d[confirm & ~members]
    side = math.copysign(1.0, _welch_t(d[members & search], d[search & ~members]))
    low, high = _t_interval(inside, level)
    return Slice(columns=key, n_queries=len(inside), delta=float(inside.mean()), ci_low=low,
                 ci_high=high, rest_delta=float(rest.mean()),
                 p_value=_welch_one_sided(inside, rest, side), q_value=math.nan,
                 search_delta=float(d[members & search].mean()),
                 search_n=int((members & search).sum()))


def _with_q(found: Slice, fwer: float) -> Slice:
    return replace(found, q_value=float(fwer))


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


def _candidates(labels: Mapping[str, npt.NDArray[np.object_]], pairs: bool
                ) -> Iterator[tuple[Key, Mask]]:
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


def _welch_one_sided(inside: npt.NDArray[np.float64], rest: npt.NDArray[np.float64],
                     side: float) -> float:
    """P-value of "the slice's mean lies beyond the rest's on ``side`` (+1 above, -1 below)"
    (Welch's t with Satterthwaite's degrees of freedom)."""
    va, vb = inside.var(ddof=1) / len(inside), rest.var(ddof=1) / len(rest)
    if va + vb == 0.0:
        return 0.0 if side * (inside.mean() - rest.mean()) > 0 else 1.0
    df = (va + vb) ** 2 / (va**2 / (len(inside) - 1) + vb**2 / (len(rest) - 1))
    return t_sf(side * _welch_t(inside, rest), df)


def _t_interval(values: npt.NDArray[np.float64], level: float) -> tuple[float, float]:
    """The t interval of the mean at ``level``; NaN when the values do not vary (no spread:
    nothing to say how far the mean could be)."""
    se = float(values.std(ddof=1)) / math.sqrt(len(values))
    if se == 0.0:
        return math.nan, math.nan
    return t_ends(float(values.mean()), se, len(values) - 1, 1.0 - level)


__all__ = ["MIN_SLICE", "Discovery", "HeldOutTest", "Slice", "binned", "discover_slices"]
