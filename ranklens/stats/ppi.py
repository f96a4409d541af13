"""PPI++: a difference measured on cheap proxy judgements, corrected on a small gold sample.

Two ways to turn the estimate into an interval (``method`` of `ppi_compare`):

- ``"finite-sample"`` (default): lambda is the slope of gold on proxy differences within the
  gold sample, divided by (1 + n/N); when it is estimated, the spread of the corrected gold
  part is measured with n - 2 degrees of freedom (one for its mean, one for the fitted slope)
  and the interval and p-value use Student's t with n - 2 (n - 1 for a fixed lambda). This is
  the regression estimator of double sampling (Cochran, Sampling Techniques, 1977, 12.6) with
  its small-sample variance. Measured (20,000 simulated samples per setting, N = 2,000
  proxy-only queries, the methods page's good / bad / unrelated proxies;
  ``bench/validity.py --only ppi --replications 20000``): coverage of the 95% interval
  .951 / .947 / .950 at 30 gold queries, where the asymptotic one gives .936 / .933 / .936;
  mean width .950 / .985 / 1.010 times the narrower of classic PPI and gold only computed
  with the same t rule. At 200 gold queries the spreads of the estimate are those of the
  methods page's table (.0029 / .0069 / .0071 against .0029 / .0067 / .0070).
- ``"asymptotic"``: the PPI++ of Angelopoulos et al. (2023) exactly as ppi_py's ``ppi_mean_ci``
  computes it (equal to 1e-9 on the same inputs, lambda free or fixed; since 0.3, issue 45):
  lambda* = c / ((1 + n/N) var_p), c the gold-proxy covariance divided by n, var_p over all
  proxy differences divided by n + N - 1, clipped to [0, 1]; the two parts' spreads divided by
  n and N (numpy's default ``std``), and a normal quantile. 0.2 used n - 1 for all three, which
  moved the ends by about 1%. Right for hundreds of gold queries; below about 100 it
  under-covers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.data import MetricResult, QueryId
from ranklens.stats.distributions import (
    normal_quantile,
    normal_two_sided,
    t_ends,
    t_two_sided,
)
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Alignment, align, check_finite, examples
from ranklens.stats.results import PPIComparison

MIN_GOLD = 30
"""Fewer gold queries give a correction too noisy to rely on: PPI++'s weight and interval rest
on the gold-proxy covariance, estimated on the gold queries alone. Below it `ppi_compare` warns,
and the judge check's PPI++ per segment (``ranklens.ppi.judge``) is refused, in words."""

PPI_METHODS = ("finite-sample", "asymptotic")
"""How `ppi_compare` estimates lambda and turns the estimate into an interval (module docs)."""

Array = npt.NDArray[np.float64]


def optimal_lambda(
    gold: Array, proxy_gold: Array, proxy_only: Array, *, clip: bool = True,
    covariance_ddof: int = 1,
) -> Array:
    """Variance-minimising weight of the proxy part: c / ((1 + n / N) * var_p).

    ``c`` is the covariance of gold and proxy differences on the gold queries, ``var_p`` the
    variance of all proxy differences; n gold and N proxy-only queries. Works along the last
    axis, so a stack of simulated samples is handled at once. A proxy without spread carries
    no information: weight 0. ``clip`` keeps the weight in [0, 1] (a negative weight would
    mean the proxy moves against gold; a weight above 1 over-trusts a noisy covariance).
    Needs N >= 1 proxy-only and n >= 2 gold queries; `ppi_compare` decides the zero weight
    for smaller samples before calling this. ``covariance_ddof`` 0 divides the covariance by
    n, as ppi_py does (``method="asymptotic"``); 1 by n - 1.
    """
    proxy_all = np.concatenate((proxy_gold, proxy_only), axis=-1)
    return _weight(gold, proxy_gold, proxy_all.var(axis=-1, ddof=1), proxy_only.shape[-1], clip,
                   covariance_ddof)


def regression_lambda(
    gold: Array, proxy_gold: Array, proxy_only: Array, *, clip: bool = True
) -> Array:
    """Lambda of the finite-sample method: the slope of gold on proxy, / (1 + n / N).

    c / ((1 + n / N) * var_p) as in `optimal_lambda`, but with ``var_p`` measured on the gold
    queries, where ``c`` is measured. Both then move with the same sample, so their ratio (the
    least-squares slope) is far steadier on few gold queries: at 30 gold queries and the
    methods page's good proxy its spread over 2,000 samples is .055 against .245 for
    `optimal_lambda` (.053 against .159 after clipping), whose noisy weight made PPI++ wider
    than classic PPI. Same expectation, same axes, same ``clip`` and the same requirements as
    `optimal_lambda`.
    """
    variance = proxy_gold.var(axis=-1, ddof=1)
    return _weight(gold, proxy_gold, variance, proxy_only.shape[-1], clip)


def _weight(gold: Array, proxy_gold: Array, variance: Array, big_n: int, clip: bool,
            covariance_ddof: int = 1) -> Array:
    n = gold.shape[-1]
    centered_gold = gold - gold.mean(axis=-1, keepdims=True)
    centered_proxy = proxy_gold - proxy_gold.mean(axis=-1, keepdims=True)
    covariance = (centered_gold * centered_proxy).sum(axis=-1) / (n - covariance_ddof)
    safe = np.where(variance > 0, variance, 1.0)
    weight = np.where(variance > 0, covariance / ((1.0 + n / big_n) * safe), 0.0)
    return np.clip(weight, 0.0, 1.0) if clip else weight


def estimate(
    gold: Array, proxy_gold: Array, proxy_only: Array, weight: float | Array, *, ddof: int = 1,
    proxy_ddof: int = 1,
) -> tuple[Array, Array]:
    """PPI estimate of the mean and its variance for a given proxy weight, along the last axis.

    estimate = w * mean(proxy_only) + mean(gold - w * proxy_gold);
    variance = w^2 var(proxy_only) / N + var(gold - w * proxy_gold) / n (the two query sets
    are disjoint, so the parts are independent). ``ddof`` is that of the gold part's
    variance: 1, or 2 when ``weight`` was fitted on these gold queries (0: ppi_py's); and
    ``proxy_ddof`` that of the proxy part (1, or ppi_py's 0). With fewer than two proxy-only
    queries only ``weight = 0`` is meaningful.
    """
    w = np.asarray(weight, dtype=np.float64)
    w_last = w[..., None] if w.ndim else w
    rectifier = gold - w_last * proxy_gold
    n = gold.shape[-1]
    value = rectifier.mean(axis=-1)
    variance = rectifier.var(axis=-1, ddof=ddof) / n
    if proxy_only.shape[-1] >= 2:
        value = value + w * proxy_only.mean(axis=-1)
        variance = variance + w * w * proxy_only.var(axis=-1, ddof=proxy_ddof) / (
            proxy_only.shape[-1])
    return value, variance


@dataclass(frozen=True)
class GoldAndProxy:
    """The differences B - A that PPI++ weighs, on the query sets `ppi_compare` uses.

    ``gold`` and ``proxy_gold`` are the gold and proxy differences on the gold queries (those
    both runs have under gold judgements, ``gold_queries``, sorted); ``proxy_only`` the proxy
    differences on the other queries both runs have under proxy judgements
    (``proxy_queries``). ``gold_a``, ``proxy_a_gold`` and ``proxy_a_only`` are run A's own
    values on the same queries. ``unpaired_gold``/``unpaired_proxy`` are the ids measured in
    run A only and in run B only under each judgements, ``no_proxy`` the gold queries without
    a proxy difference (the correction cannot use them: `ppi_compare` refuses), and
    ``notes`` what should be said about the unpaired ones.
    """

    gold: Array
    proxy_gold: Array
    proxy_only: Array
    gold_a: Array
    proxy_a_gold: Array
    proxy_a_only: Array
    gold_queries: npt.NDArray[np.object_]
    proxy_queries: npt.NDArray[np.object_]
    unpaired_gold: tuple[tuple[QueryId, ...], tuple[QueryId, ...]]
    unpaired_proxy: tuple[tuple[QueryId, ...], tuple[QueryId, ...]]
    no_proxy: npt.NDArray[np.object_]
    notes: tuple[Note, ...]

    def check_proxy_covers_gold(self) -> None:
        """Raise ValueError when a gold query has no proxy difference."""
        if self.no_proxy.size:
            raise ValueError(
                f"{self.no_proxy.size} gold queries have no proxy measurement, e.g. "
                f"{self.no_proxy[0]!r}: the correction needs both judgements on the same query"
            )


def _paired(a: MetricResult, b: MetricResult, judgements: str
            ) -> tuple[Alignment, tuple[tuple[QueryId, ...], tuple[QueryId, ...]], list[Note]]:
    """Both runs on the queries they share under one judgements, and the one-sided ids."""
    aligned = align((a.query_ids, b.query_ids), (a.values, b.values), union=False)
    only_a, only_b = aligned.lacking[1], aligned.lacking[0]
    notes = []
    if only_a.size or only_b.size:
        notes.append(Note(
            f"dropped {only_a.size} {judgements} queries only in run A "
            f"({examples(only_a) or 'none'}) and {only_b.size} only in run B "
            f"({examples(only_b) or 'none'}): a paired difference needs both runs measured "
            f"on the query under {judgements} judgements"))
    return aligned, (tuple(only_a.tolist()), tuple(only_b.tolist())), notes


def gold_and_proxy(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult
) -> GoldAndProxy:
    """The gold and proxy differences of two runs, paired on their sorted query ids.

    Answers which numbers PPI++ combines; it checks nothing (finite values, gold queries
    without proxy: see `GoldAndProxy.check_proxy_covers_gold`) and warns nothing (``notes``).
    """
    gold, unpaired_gold, notes = _paired(gold_a, gold_b, "gold")
    proxy, unpaired_proxy, proxy_notes = _paired(proxy_a, proxy_b, "proxy")
    gold_deltas = gold.values[1] - gold.values[0]
    proxy_deltas = proxy.values[1] - proxy.values[0]
    both = align((gold.queries, proxy.queries), (gold_deltas, proxy_deltas), union=True)
    in_proxy = both.rows[1] >= 0
    on_gold = (both.rows[0] >= 0) & in_proxy
    rows_gold = both.rows[1][on_gold]
    rows_only = both.rows[1][in_proxy & ~on_gold]
    return GoldAndProxy(
        gold=gold_deltas[both.rows[0][on_gold]],
        proxy_gold=proxy_deltas[rows_gold],
        proxy_only=proxy_deltas[rows_only],
        gold_a=gold.values[0][both.rows[0][on_gold]],
        proxy_a_gold=proxy.values[0][rows_gold],
        proxy_a_only=proxy.values[0][rows_only],
        gold_queries=both.queries[on_gold],
        proxy_queries=both.queries[in_proxy & ~on_gold],
        unpaired_gold=unpaired_gold,
        unpaired_proxy=unpaired_proxy,
        no_proxy=both.lacking[1],
        notes=tuple(notes + proxy_notes),
    )


def ppi_compare(
    proxy_a: MetricResult,
    proxy_b: MetricResult,
    gold_a: MetricResult,
    gold_b: MetricResult,
    *,
    lam: float | None = None,
    alpha: float = 0.05,
    clip: bool = True,
    method: str = "finite-sample",
) -> PPIComparison:
    """Difference B - A of one metric, measured on proxy judgements and corrected on gold.

    ``proxy_*`` are the metric of each run under proxy judgements (all queries),
    ``gold_*`` under gold judgements (a random sample of queries). Every gold query
    must also be measured under proxy judgements. ``lam`` fixes the weight of the
    proxy part: 0 is gold only, 1 is classic PPI; None estimates it (PPI++), clipped to
    [0, 1] unless ``clip=False``.

    ``method="finite-sample"`` (default) estimates lambda by `regression_lambda` and uses
    Student's t with n_gold - 2 degrees of freedom (n_gold - 1 for a fixed ``lam``); it needs
    3 gold queries when lambda is estimated. ``method="asymptotic"`` is the PPI++ of the
    seeds' methods text (`optimal_lambda`, normal quantile), as ppi_py computes it. See the
    module docstring for the measured coverage of both. The p-value is two-sided, from the
    same distribution as the interval, so it is at most ``alpha`` exactly when the interval
    excludes 0.

    With fewer than two proxy-only queries the spread of the proxy part cannot be
    measured, so the weight is 0 whatever ``lam`` says (a warning says so when ``lam`` was
    given): an interval that ignores that spread would be too narrow. A query measured in one
    run only (under gold or under proxy judgements) has no difference there: a warning gives
    the count and the first ids, as `compare` does, and the result lists them
    (``unpaired_gold_a`` ...). Such a query is not a gold query; if both runs have its proxy
    value it counts as proxy-only. The estimate is unbiased only if the gold queries are a
    random sample of all queries.
    """
    return emitted(ppi_compare_with_notes(proxy_a, proxy_b, gold_a, gold_b, lam, alpha, clip,
                                          method))


def _check_arguments(results: tuple[MetricResult, ...], lam: float | None, alpha: float,
                     method: str) -> None:
    """``ValueError`` for arguments `ppi_compare` refuses: ``alpha``, ``method``, a ``lam``
    that is not finite, results (proxy A, proxy B, gold A, gold B) of different metrics or
    with values that are not finite."""
    check_probability("alpha", alpha)
    if method not in PPI_METHODS:
        raise ValueError(f"method must be one of {PPI_METHODS}, got {method!r}")
    if lam is not None and not math.isfinite(lam):
        raise ValueError(f"lam must be a finite number or None, got {lam}")
    metrics = {result.metric for result in results}
    if len(metrics) != 1:
        raise ValueError(f"all four results must be of one metric, got {sorted(metrics)}")
    for result, side in zip(results, ("proxy A", "proxy B", "gold A", "gold B"), strict=True):
        check_finite(result, side)


def ppi_compare_with_notes(proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult,
                           gold_b: MetricResult, lam: float | None, alpha: float, clip: bool,
                           method: str) -> tuple[PPIComparison, tuple[Note, ...]]:
    """`ppi_compare`, with what it would warn (unpaired queries, few gold queries, an ignored
    ``lam``) returned as notes (every argument given: the defaults are `ppi_compare`'s)."""
    _check_arguments((proxy_a, proxy_b, gold_a, gold_b), lam, alpha, method)
    split = gold_and_proxy(proxy_a, proxy_b, gold_a, gold_b)
    notes = list(split.notes)
    split.check_proxy_covers_gold()
    g, p_g, p_u = split.gold, split.proxy_gold, split.proxy_only
    finite_sample = method == "finite-sample"
    # a lambda fitted on the gold queries costs the gold part a degree of freedom
    fitted = lam is None and p_u.size >= 2
    needed = 3 if finite_sample and fitted else 2
    if g.size < needed:
        raise InsufficientSampleError(g.size, needed, unit="gold queries")
    if g.size < MIN_GOLD:
        notes.append(Note(
            f"{g.size} gold queries: the correction is too noisy to rely on; "
            f"{MIN_GOLD} or more are recommended",
            SmallSampleWarning,
        ))

    if p_u.size < 2:  # no proxy-only spread to weigh against the gold one
        if lam is not None and lam != 0.0:
            notes.append(Note(
                f"lam={lam} ignored: with {p_u.size} proxy-only queries the proxy part has "
                "no measurable spread, so the weight is 0 (gold only)",
                UserWarning,
            ))
        weight = 0.0
    elif lam is None:
        weight = float(regression_lambda(g, p_g, p_u, clip=clip) if finite_sample else
                       optimal_lambda(g, p_g, p_u, clip=clip, covariance_ddof=0))
    else:
        weight = float(lam)

    # the asymptotic method divides both spreads by their counts, as ppi_py does
    ddof = (2 if fitted else 1) if finite_sample else 0
    delta_array, variance_array = estimate(g, p_g, p_u, weight, ddof=ddof,
                                           proxy_ddof=1 if finite_sample else 0)
    delta, variance = float(delta_array), float(variance_array)
    sd = math.sqrt(variance)
    df = float(g.size - ddof) if finite_sample else math.inf
    if finite_sample:
        low, high = t_ends(delta, sd, df, alpha)
        p_value = t_two_sided(delta / sd, df) if sd > 0 else 1.0
    else:
        half = normal_quantile(1.0 - alpha / 2.0) * sd
        low, high = delta - half, delta + half
        p_value = normal_two_sided(delta / sd) if sd > 0 else 1.0
    if sd == 0:  # no spread at all: the difference is exactly what was measured
        p_value = 1.0 if delta == 0 else 0.0
    mean_a = float(
        estimate(split.gold_a, split.proxy_a_gold, split.proxy_a_only, weight)[0]
    )
    return PPIComparison(
        metric=proxy_a.metric,
        mean_a=mean_a,
        mean_b=mean_a + delta,
        delta=delta,
        ci_low=low,
        ci_high=high,
        alpha=alpha,
        p_value=min(1.0, p_value),
        lam=weight,
        n_proxy=int(p_u.size),
        n_gold=int(g.size),
        df=df,
        method=method,
        unpaired_gold_a=split.unpaired_gold[0],
        unpaired_gold_b=split.unpaired_gold[1],
        unpaired_proxy_a=split.unpaired_proxy[0],
        unpaired_proxy_b=split.unpaired_proxy[1],
    ), tuple(notes)
