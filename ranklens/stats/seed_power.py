"""How many seeds and how many queries: the MDE of a new-run comparison (`compare_seeds`).

From measured variance components (`VarianceComponents`, a pilot's ``.components``), the
variance of the new-run estimate with S seeds per system and n queries is

    V(S, n) = difference / n + sum over seeded systems of (seed + query_seed / n) / S

(`ranklens.stats.random_effects`). A system measured with one run is taken as deterministic,
as the comparison itself does: it adds nothing, whatever S. ``method="z"`` (default) is the
normal approximation of `ranklens.stats.power`: MDE = (z(1 - alpha/2) + z(power)) sqrt(V).
``method="t"`` puts the t quantiles at the planned design's Satterthwaite degrees of freedom
in place of z, which matters at 2 to 5 seeds, where the interval itself uses t.

Extra seeds only shrink the seed part: however many, the MDE stays above the query part's
``(z(1 - alpha/2) + z(power)) sqrt(difference / n)``, and `seeds_needed` says so instead of
returning a number that cannot be reached.
"""

from __future__ import annotations

import math

from ranklens.stats.distributions import normal_quantile, t_quantile
from ranklens.stats.errors import check_probability
from ranklens.stats.power import POWER_METHODS
from ranklens.stats.random_effects import VarianceComponents

MIN_SEEDS = 2
"""The fewest seeds per system that measure a seed variance at all."""


def _seed_terms(components: VarianceComponents, n_seeds: int, n_queries: int) -> list[float]:
    """Each seeded system's share of V(S, n): (seed + query_seed / n) / S."""
    terms = []
    for system in (components.a, components.b):
        if system.seed is not None:
            terms.append((system.seed + (system.query_seed or 0.0) / n_queries) / n_seeds)
    return terms


def _parts(components: VarianceComponents, n_seeds: int, n_queries: int) -> tuple[float, float]:
    return (components.difference / n_queries,
            sum(_seed_terms(components, n_seeds, n_queries)))


def new_run_variance(components: VarianceComponents, n_seeds: int, n_queries: int) -> float:
    """Variance of the new-run estimate with ``n_seeds`` runs per system on ``n_queries``."""
    _check_design(n_seeds, n_queries)
    return sum(_parts(components, n_seeds, n_queries))


def _check_design(n_seeds: int, n_queries: int) -> None:
    if n_seeds < MIN_SEEDS:
        raise ValueError(f"n_seeds must be >= {MIN_SEEDS}, got {n_seeds}")
    if n_queries < 2:
        raise ValueError(f"n_queries must be >= 2, got {n_queries}")


def _design_df(components: VarianceComponents, n_seeds: int, n_queries: int) -> float:
    query, seed = _parts(components, n_seeds, n_queries)
    per_system = _seed_terms(components, n_seeds, n_queries)
    denominator = query**2 / (n_queries - 1) + sum(t**2 / (n_seeds - 1) for t in per_system)
    if denominator == 0.0:
        return n_queries - 1.0
    return (query + seed) ** 2 / denominator


def _factor(alpha: float, power: float, method: str, df: float) -> float:
    if method == "z":
        return normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)
    return t_quantile(1.0 - alpha / 2.0, df) + t_quantile(power, df)


def new_run_mde(
    components: VarianceComponents, n_seeds: int, n_queries: int, *, alpha: float = 0.05,
    power: float = 0.8, method: str = "z",
) -> float:
    """Smallest new-run difference detected with probability ``power`` (module docstring).

    ``n_seeds`` runs per system (at least 2), ``n_queries`` queries. A difference below it is
    not "absent": this many seeds and queries cannot resolve it.
    """
    check_probability("alpha", alpha)
    check_probability("power", power)
    if method not in POWER_METHODS:
        raise ValueError(f"method must be one of {POWER_METHODS}, got {method!r}")
    variance = new_run_variance(components, n_seeds, n_queries)
    df = _design_df(components, n_seeds, n_queries)
    return _factor(alpha, power, method, df) * math.sqrt(variance)


def seeds_needed(
    components: VarianceComponents, delta: float, n_queries: int, *, alpha: float = 0.05,
    power: float = 0.8, method: str = "z", max_seeds: int = 1000,
) -> int:
    """Fewest seeds per system whose new-run MDE at ``n_queries`` is at most ``delta``.

    Raises ValueError when no number of seeds reaches it (the query part alone is larger:
    more queries are needed, see `ranklens.stats.required_queries`) or more than
    ``max_seeds`` would be needed.
    """
    if delta <= 0:
        raise ValueError(f"delta must be > 0, got {delta}")
    check_probability("alpha", alpha)
    check_probability("power", power)
    floor = (normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power)) * math.sqrt(
        components.difference / n_queries)
    if floor >= delta:
        raise ValueError(
            f"no number of seeds detects {delta:g} on {n_queries} queries: the query part "
            f"alone gives an MDE of {floor:.4g}; more queries are needed"
        )
    for n_seeds in range(MIN_SEEDS, max_seeds + 1):
        if new_run_mde(components, n_seeds, n_queries, alpha=alpha, power=power,
                       method=method) <= delta:
            return n_seeds
    raise ValueError(f"more than {max_seeds} seeds per system would be needed for {delta:g}")
