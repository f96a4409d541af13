"""A new training run: the difference of expected metric over seeds and queries, with its interval.

Each system is a recipe trained with several seeds; its run k scores query i as

    Y_ik = mu + q_i + r_k + e_ik

with a query effect q_i (shared with the other system in part: that is the pairing), a seed
effect r_k (the whole run shifted by a lucky or unlucky seed, variance ``seed``) and a
query x seed effect e_ik (a seed that helps some queries and hurts others, variance
``query_seed``). The target is the difference of mu between the recipes: what B's recipe
gains over A's on a new seed and a new query.

The estimate D is the mean over queries of B's per-query mean over its seeds minus A's. Its
variance is the sum of two parts (a two-way random-effects ANOVA per system; Searle, Casella
and McCulloch, "Variance Components", Wiley 1992, ch. 4), each estimated without bias and
floored at 0:

- seed part, the variance of D given the queries: for each system with K >= 2 seeds,
  ``var_k(run means) / K`` (exactly a scaled chi-square with K - 1 degrees of freedom under
  normal effects);
- query part, the variance of D over query samples beyond the seed noise: ``(s_d^2 - sum
  MS_res / K) / n``, with ``s_d^2`` the variance of the per-query differences of the seed means
  and MS_res each system's query x seed mean square.

Since 0.3 the interval and its p-value come from generalized pivotal quantities
(`ranklens.stats.seed_interval`): each mean square carries its own degrees of freedom into the
interval. 0.2 used Student's t with Satterthwaite's degrees of freedom (Satterthwaite,
Biometrics Bulletin 2, 1946, 110-114), estimated from the same mean squares; when one system
carries the seed variance with 3 seeds (a one-run BM25 baseline against a 3-seed neural
system, the README's own shape) that interval covered .90-.93 and its test erred 6-10%
(issue 45, ``bench/sim_new_run.py``); the pivots cover .94-.98 there and err at most 6%, at the
price of a wider interval when the seed variance is small (docs/validity.md). ``df`` is still
reported: the effective degrees of freedom, those of the t whose quantile gives the same
half-width. A two-level
bootstrap (queries, then each system's seeds; Bouthillier et al., MLSys 2021) cannot: three
seeds give ten distinct resamples per system and a seed variance biased by (K - 1) / K, so it
covered .908 at 3 seeds when the seed part is twice the query part (docs/validity.md).

With zero seed variance the estimate of Var(D) is still unbiased, so the interval agrees
with the paired t-interval of the seed means up to the noise of estimating a zero. A system
with one run contributes no seed part: it is taken as deterministic (BM25), which the result
says in words. The functions here work on stacks of matrices (..., queries, seeds), so a
simulation can pass thousands at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.stats.distributions import normal_quantile, t_quantile
from ranklens.stats.errors import InsufficientSampleError, check_probability
from ranklens.stats.results import Interval, IntervalEstimate, Seed
from ranklens.stats.seed_interval import GPQ_DRAWS, generalized_interval

Array = npt.NDArray[np.float64]
RANDOM_EFFECTS_METHOD = "random-effects, generalized pivots"


@dataclass(frozen=True)
class SystemComponents:
    """Variance components of one system's runs: query, seed and query x seed.

    ``query`` is the variance of the query effects of the metric (how much queries differ in
    difficulty for this system); ``seed`` the variance of a run's mean over retrainings;
    ``query_seed`` the variance of the query x seed effects. With one run, ``seed`` and
    ``query_seed`` cannot be measured (None) and ``query`` holds both query effects and
    query x seed noise.
    """

    n_queries: int
    n_seeds: int
    query: float
    seed: float | None
    query_seed: float | None


@dataclass(frozen=True)
class VarianceComponents:
    """Where the spread comes from, per system and for the new-run estimate.

    ``query``, ``seed`` and ``query_seed`` are the two systems' components averaged (seed and
    query x seed over the systems with two or more seeds; None when neither has).
    ``difference`` is the variance of the per-query differences B - A once the query x seed
    noise of the multi-seed systems is taken out. ``query_part`` and ``seed_part`` are the
    two parts of the variance of the new-run estimate (module docstring); ``seed_part`` is 0
    when no system has two seeds.
    """

    query: float
    seed: float | None
    query_seed: float | None
    difference: float
    query_part: float
    seed_part: float
    a: SystemComponents
    b: SystemComponents


@dataclass(frozen=True)
class NewRunEstimate(IntervalEstimate):
    """The difference B - A of expected metric over seeds and queries: a new training run.

    ``interval`` is its ``1 - alpha`` interval (method: random-effects with generalized pivots,
    `ranklens.stats.seed_interval`), whose ends read as ``low``/``high`` too; ``p_value`` is
    two-sided against no difference, from the same pivots (the interval excludes 0 exactly
    when p <= alpha, so ``significant`` and the interval agree). ``df`` is the effective
    degrees of freedom: the t with that many has the interval's half-width over
    ``standard_error`` as its quantile (inf when the interval is no wider than the normal one).
    """

    standard_error: float
    df: float


def _system_moments(values: Array) -> tuple[Array, Array, Array | None, Array]:
    """For a stack (..., n, K): variance of the run means, per-query means, MS_res (None for
    one run) and the variance of the per-query means."""
    n, k = values.shape[-2:]
    rows = values.mean(axis=-1)
    if k == 1:
        return np.zeros(values.shape[:-2]), rows, None, rows.var(axis=-1, ddof=1)
    cols = values.mean(axis=-2)
    grand = rows.mean(axis=-1)
    residual = values - rows[..., :, None] - cols[..., None, :] + grand[..., None, None]
    ms_res = (residual**2).sum(axis=(-2, -1)) / ((n - 1) * (k - 1))
    return cols.var(axis=-1, ddof=1), rows, ms_res, rows.var(axis=-1, ddof=1)


def new_run_moments(values_a: Array, values_b: Array) -> tuple[Array, Array, Array, Array, Array]:
    """Estimate, standard error, df, query part and seed part for stacks (..., n, K_a/K_b).

    Vectorised over the leading axes; the two stacks share n (the same queries, in the same
    order) and may differ in seeds. See the module docstring for the formulas.
    """
    n = values_a.shape[-2]
    if values_b.shape[-2] != n:
        raise ValueError(f"both systems need the same queries, got {n} and {values_b.shape[-2]}")
    if n < 2:
        raise InsufficientSampleError(n, 2)
    query_raw: Array = np.zeros(values_a.shape[:-2])
    query_df_den: Array = np.zeros(values_a.shape[:-2])
    seed_part: Array = np.zeros(values_a.shape[:-2])
    seed_df_den: Array = np.zeros(values_a.shape[:-2])
    rows = []
    for values in (values_a, values_b):
        k = values.shape[-1]
        col_var, row_means, ms_res, _ = _system_moments(values)
        rows.append(row_means)
        if ms_res is not None:
            query_raw = query_raw - ms_res / k
            query_df_den = query_df_den + (ms_res / k) ** 2 / ((n - 1) * (k - 1))
            seed_part = seed_part + col_var / k
            seed_df_den = seed_df_den + (col_var / k) ** 2 / (k - 1)
    differences = rows[1] - rows[0]
    estimate = differences.mean(axis=-1)
    s2d = differences.var(axis=-1, ddof=1)
    query_raw = query_raw + s2d
    query_df_den = query_df_den + s2d**2 / (n - 1)
    query_part = np.maximum(query_raw, 0.0) / n
    variance = query_part + seed_part
    # Satterthwaite: df = V^2 / sum(T^2 / df_T); for the query part T = query_raw / n with
    # df_T = query_raw^2 / query_df_den, so T^2 / df_T = query_df_den / n^2
    query_df_term = np.where(query_part > 0, query_df_den / n**2, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = variance**2 / (query_df_term + seed_df_den)
    df = np.where(variance > 0, df, n - 1.0)
    return estimate, np.sqrt(variance), df, query_part, seed_part


def new_run_estimate(values_a: Array, values_b: Array, *, alpha: float = 0.05,
                     seed: Seed = 0, n_draws: int = GPQ_DRAWS) -> NewRunEstimate:
    """The new-run difference of two (n, K) matrices of per-query values (queries x seeds).

    The interval and p-value are the generalized pivots' (module docstring) from ``n_draws``
    draws of ``seed``: the same inputs and seed give the same numbers.
    """
    check_probability("alpha", alpha)
    estimate, standard_error, _, _, _ = (
        float(x) for x in new_run_moments(values_a, values_b))
    low, high, p_value = generalized_interval(values_a, values_b, alpha=alpha, n_draws=n_draws,
                                              seed=seed)
    df = effective_df((high - low) / 2.0, standard_error, alpha, values_a.shape[0] - 1.0)
    interval = Interval(low, high, 1.0 - alpha, RANDOM_EFFECTS_METHOD)
    return NewRunEstimate(estimate, interval, p_value, standard_error, df)


def effective_df(half_width: float, standard_error: float, alpha: float,
                 no_spread: float) -> float:
    """Degrees of freedom of the t whose ``1 - alpha/2`` quantile is ``half_width /
    standard_error``: inf when that is at most the normal quantile, ``no_spread`` when there
    is no standard error."""
    if standard_error <= 0.0 or not math.isfinite(half_width):
        return no_spread
    ratio = half_width / standard_error
    if ratio <= normal_quantile(1.0 - alpha / 2.0):
        return math.inf
    low, high = math.log(0.05), math.log(1e9)
    if t_quantile(1.0 - alpha / 2.0, math.exp(high)) > ratio:
        return math.inf
    for _ in range(100):  # the quantile falls as df grows
        middle = 0.5 * (low + high)
        if t_quantile(1.0 - alpha / 2.0, math.exp(middle)) > ratio:
            low = middle
        else:
            high = middle
    return math.exp(0.5 * (low + high))


def variance_components(values_a: Array, values_b: Array) -> VarianceComponents:
    """The components of two (n, K) matrices of per-query values (queries x seeds)."""
    systems = [_system_components(values) for values in (values_a, values_b)]
    _, _, _, query_part, seed_part = new_run_moments(values_a, values_b)
    n = values_a.shape[-2]
    measured = [s for s in systems if s.seed is not None]
    return VarianceComponents(
        query=float(np.mean([s.query for s in systems])),
        seed=float(np.mean([s.seed for s in measured])) if measured else None,
        query_seed=float(np.mean([s.query_seed for s in measured])) if measured else None,
        difference=float(query_part) * n, query_part=float(query_part),
        seed_part=float(seed_part), a=systems[0], b=systems[1],
    )


def _system_components(values: Array) -> SystemComponents:
    n, k = values.shape
    col_var, _, ms_res, row_var = _system_moments(values)
    if ms_res is None:
        return SystemComponents(n, k, float(row_var), None, None)
    return SystemComponents(
        n_queries=n, n_seeds=k, query=max(0.0, float(row_var - ms_res / k)),
        seed=max(0.0, float(col_var - ms_res / n)), query_seed=float(ms_res),
    )
