"""Several test collections at once: the macro average of B - A and its stratified interval.

Rankers report over several collections (BEIR's 18 datasets, TREC DL 2019 + 2020). The
headline is the macro average, the mean over collections of each collection's mean per-query
difference, so a collection of 6,980 queries does not drown one of 43. Its interval must
respect the strata: the collections are fixed (they are the benchmark), the queries within
each are the sample. So the bootstrap resamples queries **within** each collection, keeping
every collection's size (stratified bootstrap; Davison and Hinkley, "Bootstrap Methods and
their Application", 1997, section 3.7).

The interval is bootstrap-t by default (`compare`'s default until 0.2; issue 45 did not
re-examine the stratified case, whose coverage is in docs/validity.md): each resample's
macro average is studentized by its own standard error ``sqrt(sum_c s_c^2 / n_c) / C``; the
percentile interval is there by name. The p-value is the sign-flip permutation test of the
macro average: a query's difference keeps its collection weight ``1 / (C n_c)`` and its sign
is flipped at random (H0: for every query it makes no difference which run is A), which is
`permutation_test` on the weighted differences.

The pooled mean over all queries is reported beside it, as what a single-collection tool
would have printed. It answers for these collections; not for a population of collections
(with three collections there is no such thing to estimate).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ranklens.stats.bootstrap import _resample, studentized_draws, studentized_ends
from ranklens.stats.chunking import seed_sequence
from ranklens.stats.errors import InsufficientSampleError, check_probability
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.permutation import permutation_test
from ranklens.stats.results import Interval, IntervalEstimate, Seed

MACRO_INTERVALS = ("studentized", "percentile")
_MACRO_STREAM = 33  # purpose tag: the per-collection streams spawned from the caller's seed


@dataclass(frozen=True)
class CollectionMean:
    """One collection's mean per-query difference B - A, on ``n_queries`` queries."""

    name: str
    n_queries: int
    mean: float


@dataclass(frozen=True)
class MacroComparison(IntervalEstimate):
    """Macro average of B - A over collections, its interval and p-value.

    ``estimate`` is the mean of ``per_collection`` means (collections in name order);
    ``pooled`` the mean over all queries pooled. ``interval`` is the ``1 - alpha`` stratified
    bootstrap interval of ``estimate`` (its ``method`` "percentile" or "studentized");
    ``p_value`` is the stratified sign-flip permutation p-value (module docstring), which
    ``significant`` decides on (the bootstrap interval may disagree near the edge).
    """

    pooled: float
    per_collection: tuple[CollectionMean, ...]
    n_resamples: int
    n_permutations: int
    seed: Seed

    @property
    def n_queries(self) -> int:
        return sum(c.n_queries for c in self.per_collection)


def collection_seed(seed: Seed, name: str) -> np.random.SeedSequence:
    """The random stream of collection ``name`` for ``seed``: a function of the two only."""
    root = seed_sequence(seed)
    word = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "little")
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, _MACRO_STREAM, word),
                                  pool_size=root.pool_size)


def macro_compare(
    deltas: Mapping[str, Sequence[float] | Deltas],
    *,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    n_permutations: int = 10_000,
    seed: Seed = 0,
    interval: str = "studentized",
) -> MacroComparison:
    """Macro average over collections of the per-query differences ``deltas[name]`` (B - A).

    Each collection needs at least 2 queries (`InsufficientSampleError` names the one that has
    fewer). The interval resamples queries within each collection, each collection from its
    own stream of ``seed`` (`collection_seed`), so adding a collection does not change the
    draws of the others.
    """
    check_probability("alpha", alpha)
    if interval not in MACRO_INTERVALS:
        raise ValueError(f"interval must be one of {MACRO_INTERVALS}, got {interval!r}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not deltas:
        raise ValueError("no collections given")
    names = sorted(deltas)
    strata = []
    for name in names:
        values = np.asarray(deltas[name], dtype=np.float64)
        if values.ndim == 1 and values.size < 2:
            raise InsufficientSampleError(values.size, 2, unit=f"queries in collection {name!r}")
        strata.append(as_deltas(values))
    c = len(strata)
    estimate = float(np.mean([values.mean() for values in strata]))
    draws = [_resample(values, n_resamples, collection_seed(seed, name),
                       with_sd=interval == "studentized")
             for name, values in zip(names, strata, strict=True)]
    macro_draws = np.mean([means for means, _ in draws], axis=0)
    if interval == "percentile":
        low, high = (float(x) for x in np.quantile(macro_draws, [alpha / 2, 1 - alpha / 2]))
    else:
        low, high = _studentized(strata, draws, estimate, macro_draws, alpha)
    weighted = np.concatenate([values / (c * values.size) for values in strata])
    return MacroComparison(
        estimate=estimate, interval=Interval(low, high, 1.0 - alpha, interval),
        p_value=permutation_test(weighted, n_permutations=n_permutations, seed=seed),
        pooled=float(np.concatenate(strata).mean()),
        per_collection=tuple(CollectionMean(name, values.size, float(values.mean()))
                             for name, values in zip(names, strata, strict=True)),
        n_resamples=n_resamples, n_permutations=n_permutations, seed=seed,
    )


def _studentized(
    strata: list[Deltas], draws: list[tuple[Deltas, Deltas | None]], estimate: float,
    macro_draws: Deltas, alpha: float,
) -> tuple[float, float]:
    c = len(strata)
    standard_error = math.sqrt(sum(sample_sd(v) ** 2 / v.size for v in strata)) / c
    if standard_error == 0.0:
        return estimate, estimate
    resampled_variance = sum(
        sds**2 / values.size for values, (_, sds) in zip(strata, draws, strict=True)
        if sds is not None)
    resampled_se = np.sqrt(resampled_variance) / c
    t_stats = studentized_draws(macro_draws - estimate, resampled_se)
    return studentized_ends(t_stats, estimate, standard_error, alpha)
