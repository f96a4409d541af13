"""The new-run interval by generalized pivotal quantities: one t-like interval for a variance
that sums components with very different degrees of freedom.

The variance of the new-run estimate D (`ranklens.stats.random_effects`) is

    V = (s_d^2 - sum_j MS_res_j / K_j) / n  +  sum_j col_var_j / K_j

over the systems j with K_j >= 2 seeds: s_d^2 (n - 1 df) the variance of the per-query
differences of seed means, MS_res_j ((n - 1)(K_j - 1) df) system j's query x seed mean square,
col_var_j (K_j - 1 df) the variance of its run means. Under normal effects these mean squares
are independent scaled chi-squares. Satterthwaite's t (0.2) estimates one df for the sum from the
same noisy mean squares; when one system carries the seed variance with 3 seeds, its 2-df term
decides both the variance and the df, a small draw shrinks both, and the interval covered .92
(issue 45). The generalized pivotal quantity (Weerahandi, JASA 88, 1993, 899-905;
Krishnamoorthy and Mathew, J. Stat. Plan. Inference 2004) replaces each mean square by its
pivot ``S^2 df / U`` with ``U`` chi-square(df), so

    R = D - Z sqrt(V*),    V* = max(pivot of the query part, 0) / n + sum_j pivot_j / K_j,

and the interval is R's alpha/2 and 1 - alpha/2 quantiles. The distribution of R given V* is
normal, so its cdf is the mean of Phi((r - D) / sqrt(V*)) over the ``n_draws`` draws of V*; the
ends are found by Newton's method on it (inside a bisection bracket) and the p-value is
2 * mean(Phi(-|D| / sqrt(V*))) from the
same draws: the interval excludes 0 exactly when p <= alpha. The draws come from ``seed``, so
the same inputs give the same numbers.

It answers what the Satterthwaite interval answers (a new training run of each recipe on a new
query), with the seed-variance uncertainty carried by its own degrees of freedom instead of a
df estimated from it. It assumes normal seed and query effects; it says nothing about seeds
that fail outright (a bimodal seed distribution).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import purpose_generator
from ranklens.stats.distributions import _special
from ranklens.stats.errors import InsufficientSampleError, check_probability
from ranklens.stats.results import Seed

Array = npt.NDArray[np.float64]
GPQ_DRAWS = 4000
"""Draws of V*: the Monte Carlo error of a 95% end is about 0.3% of the half-width."""
_STREAM = 45  # purpose tag of the pivots' random stream
_NEWTON_STEPS = 40


def mean_squares(values_a: Array, values_b: Array
                 ) -> tuple[Array, Array, list[tuple[Array, int, Array, int, int]], int]:
    """For stacks (..., n, K_a) and (..., n, K_b) of per-query values (queries x seeds): the
    estimate D, s_d^2, and per system with two or more seeds (col_var, K - 1, MS_res,
    (n - 1)(K - 1), K), and n."""
    n = values_a.shape[-2]
    if values_b.shape[-2] != n:
        raise ValueError(f"both systems need the same queries, got {n} and {values_b.shape[-2]}")
    if n < 2:
        raise InsufficientSampleError(n, 2)
    rows = []
    systems = []
    for values in (values_a, values_b):
        k = values.shape[-1]
        row_means = values.mean(axis=-1)
        rows.append(row_means)
        if k >= 2:
            cols = values.mean(axis=-2)
            grand = row_means.mean(axis=-1)
            residual = values - row_means[..., :, None] - cols[..., None, :] + grand[..., None,
                                                                                    None]
            ms_res = (residual**2).sum(axis=(-2, -1)) / ((n - 1) * (k - 1))
            systems.append((cols.var(axis=-1, ddof=1), k - 1, ms_res, (n - 1) * (k - 1), k))
    differences = rows[1] - rows[0]
    return differences.mean(axis=-1), differences.var(axis=-1, ddof=1), systems, n


def variance_draws(values_a: Array, values_b: Array, *, n_draws: int = GPQ_DRAWS,
                   seed: Seed = 0) -> tuple[Array, Array]:
    """The estimate D (shape ...) and ``n_draws`` draws of the variance pivot V* (shape
    (..., n_draws)) for stacks of matrices (module docstring)."""
    estimate, s2d, systems, n = mean_squares(values_a, values_b)
    rng = purpose_generator(seed, _STREAM)
    shape = (*np.shape(estimate), n_draws)
    query = np.asarray(s2d)[..., None] * (n - 1) / rng.chisquare(n - 1, shape)
    seed_part = np.zeros(shape)
    for col_var, col_df, ms_res, res_df, k in systems:
        query = query - np.asarray(ms_res)[..., None] * res_df / rng.chisquare(res_df, shape) / k
        seed_part += np.asarray(col_var)[..., None] * col_df / rng.chisquare(col_df, shape) / k
    return np.asarray(estimate), np.maximum(query, 0.0) / n + seed_part


def _cdf_and_density(r: Array, estimate: Array, sd: Array) -> tuple[Array, Array]:
    """P(R <= r) and its density at ``r``, R = D - Z sqrt(V*), averaged over the last axis of
    ``sd`` (the draws)."""
    gap = (r - estimate)[..., None]
    positive = sd > 0
    scale = np.where(positive, sd, 1.0)
    z = np.where(positive, gap / scale, np.where(gap >= 0, np.inf, -np.inf))
    density = np.where(positive, np.exp(-0.5 * np.minimum(z * z, 1e300)) / (
        np.sqrt(2.0 * np.pi) * scale), 0.0)
    return np.asarray(_special().ndtr(z).mean(axis=-1)), np.asarray(density.mean(axis=-1))


def generalized_intervals(values_a: Array, values_b: Array, *, alpha: float = 0.05,
                          n_draws: int = GPQ_DRAWS, seed: Seed = 0
                          ) -> tuple[Array, Array, Array]:
    """(low, high, p-value) arrays of the new-run difference by generalized pivots for stacks
    (..., n, K) of matrices (module docstring); each interval excludes 0 exactly when its
    p <= alpha (to the root finder's precision)."""
    check_probability("alpha", alpha)
    estimate, variance = variance_draws(values_a, values_b, n_draws=n_draws, seed=seed)
    sd = np.sqrt(variance)
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.where(sd > 0, _special().ndtr(-np.abs(estimate)[..., None]
                                                / np.where(sd > 0, sd, 1.0)),
                        np.where(estimate[..., None] == 0, 0.5, 0.0))
    p_value = np.minimum(1.0, 2.0 * tail.mean(axis=-1))
    span = sd.max(axis=-1) * 40.0
    ends = []
    for target in (alpha / 2.0, 1.0 - alpha / 2.0):
        # Newton on the smooth, increasing cdf, kept inside a shrinking bisection bracket
        low, high = estimate - span, estimate + span
        guess = estimate + _special().ndtri(target) * np.sqrt(variance.mean(axis=-1))
        for _ in range(_NEWTON_STEPS):
            value, slope = _cdf_and_density(guess, estimate, sd)
            below = value < target
            low = np.where(below, guess, low)
            high = np.where(below, high, guess)
            with np.errstate(divide="ignore", invalid="ignore"):
                step = guess - (value - target) / slope
            inside = np.isfinite(step) & (step > low) & (step < high)
            new = np.where(inside, step, 0.5 * (low + high))
            done = np.all(np.abs(new - guess) <= 1e-13 * span)
            guess = new
            if done:
                break
        ends.append(guess)
    # P(R <= 0) is p / 2 when D > 0 (1 - p / 2 when D < 0): an end passes 0 where p = alpha
    return ends[0], ends[1], p_value


def generalized_interval(values_a: Array, values_b: Array, *, alpha: float = 0.05,
                         n_draws: int = GPQ_DRAWS, seed: Seed = 0
                         ) -> tuple[float, float, float]:
    """(low, high, p-value) for two (n, K) matrices: `generalized_intervals` of one."""
    low, high, p_value = generalized_intervals(values_a, values_b, alpha=alpha,
                                               n_draws=n_draws, seed=seed)
    return float(low), float(high), float(p_value)
