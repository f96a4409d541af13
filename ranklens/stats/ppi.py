"""PPI++: a difference measured on cheap proxy judgements, corrected on a small gold sample."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from ranklens.data import MetricResult, QueryId
from ranklens.stats.distributions import normal_quantile, normal_two_sided
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.pairing import check_finite
from ranklens.stats.results import PPIComparison

MIN_GOLD = 30
"""Fewer gold queries give a correction too noisy to rely on; a warning is emitted."""

Array = npt.NDArray[np.float64]


def optimal_lambda(
    gold: Array, proxy_gold: Array, proxy_only: Array, *, clip: bool = True
) -> Array:
    """Variance-minimising weight of the proxy part: c / ((1 + n / N) * var_p).

    ``c`` is the covariance of gold and proxy differences on the gold queries, ``var_p`` the
    variance of all proxy differences; n gold and N proxy-only queries. Works along the last
    axis, so a stack of simulated samples is handled at once. A proxy without spread carries
    no information: weight 0. ``clip`` keeps the weight in [0, 1] (a negative weight would
    mean the proxy moves against gold; a weight above 1 over-trusts a noisy covariance).
    Needs N >= 1 proxy-only and n >= 2 gold queries; `ppi_compare` decides the zero weight
    for smaller samples before calling this.
    """
    n, big_n = gold.shape[-1], proxy_only.shape[-1]
    centered_gold = gold - gold.mean(axis=-1, keepdims=True)
    centered_proxy = proxy_gold - proxy_gold.mean(axis=-1, keepdims=True)
    covariance = (centered_gold * centered_proxy).sum(axis=-1) / (n - 1)
    proxy_all = np.concatenate((proxy_gold, proxy_only), axis=-1)
    variance = proxy_all.var(axis=-1, ddof=1)
    safe = np.where(variance > 0, variance, 1.0)
    weight = np.where(variance > 0, covariance / ((1.0 + n / big_n) * safe), 0.0)
    return np.clip(weight, 0.0, 1.0) if clip else weight


def estimate(
    gold: Array, proxy_gold: Array, proxy_only: Array, weight: float | Array
) -> tuple[Array, Array]:
    """PPI estimate of the mean and its variance for a given proxy weight, along the last axis.

    estimate = w * mean(proxy_only) + mean(gold - w * proxy_gold);
    variance = w^2 var(proxy_only) / N + var(gold - w * proxy_gold) / n (the two query sets
    are disjoint, so the parts are independent). With fewer than two proxy-only queries only
    ``weight = 0`` is meaningful.
    """
    w = np.asarray(weight, dtype=np.float64)
    w_last = w[..., None] if w.ndim else w
    rectifier = gold - w_last * proxy_gold
    n = gold.shape[-1]
    value = rectifier.mean(axis=-1)
    variance = rectifier.var(axis=-1, ddof=1) / n
    if proxy_only.shape[-1] >= 2:
        value = value + w * proxy_only.mean(axis=-1)
        variance = variance + w * w * proxy_only.var(axis=-1, ddof=1) / proxy_only.shape[-1]
    return value, variance


def _deltas(
    per_query_a: Mapping[QueryId, float], per_query_b: Mapping[QueryId, float]
) -> dict[QueryId, float]:
    return {q: per_query_b[q] - per_query_a[q] for q in per_query_a.keys() & per_query_b.keys()}


def _array(values: Mapping[QueryId, float], queries: list[QueryId]) -> Array:
    return np.fromiter((values[q] for q in queries), dtype=np.float64, count=len(queries))


def ppi_compare(
    proxy_a: MetricResult,
    proxy_b: MetricResult,
    gold_a: MetricResult,
    gold_b: MetricResult,
    *,
    lam: float | None = None,
    alpha: float = 0.05,
    clip: bool = True,
) -> PPIComparison:
    """Difference B - A of one metric, measured on proxy judgements and corrected on gold.

    ``proxy_*`` are the metric of each run under proxy judgements (all queries),
    ``gold_*`` under gold judgements (a random sample of queries). Every gold query
    must also be measured under proxy judgements. ``lam`` fixes the weight of the
    proxy part: 0 is gold only, 1 is classic PPI; None estimates it (PPI++), clipped to
    [0, 1] unless ``clip=False``.

    With fewer than two proxy-only queries the spread of the proxy part cannot be
    measured, so the weight is 0 whatever ``lam`` says (a warning says so when ``lam`` was
    given): an interval that ignores that spread would be too narrow. Queries measured
    under proxy judgements in only one of the runs are not used. The interval and the
    p-value, 2 * Phi(-|z|), are normal approximations. The estimate is unbiased only if the
    gold queries are a random sample of all queries.
    """
    check_probability("alpha", alpha)
    if lam is not None and not math.isfinite(lam):
        raise ValueError(f"lam must be a finite number or None, got {lam}")
    metrics = {proxy_a.metric, proxy_b.metric, gold_a.metric, gold_b.metric}
    if len(metrics) != 1:
        raise ValueError(f"all four results must be of one metric, got {sorted(metrics)}")
    for result, side in (
        (proxy_a, "proxy A"),
        (proxy_b, "proxy B"),
        (gold_a, "gold A"),
        (gold_b, "gold B"),
    ):
        check_finite(result.per_query, side)

    proxy = _deltas(proxy_a.per_query, proxy_b.per_query)
    gold = _deltas(gold_a.per_query, gold_b.per_query)
    missing = gold.keys() - proxy.keys()
    if missing:
        raise ValueError(
            f"{len(missing)} gold queries have no proxy measurement, e.g. {min(missing)!r}: "
            "the correction needs both judgements on the same query"
        )
    if len(gold) < 2:
        raise InsufficientSampleError(len(gold), 2, unit="gold queries")
    if len(gold) < MIN_GOLD:
        warnings.warn(
            f"{len(gold)} gold queries: the correction is too noisy to rely on; "
            f"{MIN_GOLD} or more are recommended",
            SmallSampleWarning,
            stacklevel=2,
        )

    queries_g = sorted(gold)
    queries_u = sorted(proxy.keys() - gold.keys())
    g, p_g = _array(gold, queries_g), _array(proxy, queries_g)
    p_u = _array(proxy, queries_u)
    if len(queries_u) < 2:  # no proxy-only spread to weigh against the gold one
        if lam is not None and lam != 0.0:
            warnings.warn(
                f"lam={lam} ignored: with {len(queries_u)} proxy-only queries the proxy part has "
                "no measurable spread, so the weight is 0 (gold only)",
                UserWarning,
                stacklevel=2,
            )
        weight = 0.0
    elif lam is None:
        weight = float(optimal_lambda(g, p_g, p_u, clip=clip))
    else:
        weight = float(lam)

    delta_array, variance_array = estimate(g, p_g, p_u, weight)
    delta, variance = float(delta_array), float(variance_array)
    sd = math.sqrt(variance)
    half = normal_quantile(1.0 - alpha / 2.0) * sd
    # with no spread at all the difference is exactly what was measured
    no_spread_p = 1.0 if delta == 0 else 0.0
    p_value = normal_two_sided(delta / sd) if sd > 0 else no_spread_p
    mean_a = float(
        estimate(
            _array(gold_a.per_query, queries_g),
            _array(proxy_a.per_query, queries_g),
            _array(proxy_a.per_query, queries_u),
            weight,
        )[0]
    )
    return PPIComparison(
        metric=proxy_a.metric,
        mean_a=mean_a,
        mean_b=mean_a + delta,
        delta=delta,
        ci_low=delta - half,
        ci_high=delta + half,
        alpha=alpha,
        p_value=min(1.0, p_value),
        lam=weight,
        n_proxy=len(queries_u),
        n_gold=len(queries_g),
    )
