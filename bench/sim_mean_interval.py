"""Candidate intervals of the mean per-query difference, on the grid of issue 45.

Run from the repository root (prints Markdown; a few minutes on one shared core):

    nice -n 5 .venv/bin/python bench/sim_mean_interval.py [--replications 2000]

For every cell (distribution x n) each candidate sees the same draws. Two samples per cell:

- the *null* draw (true mean 0): type-I error of the candidate's own p-value (p <= .05) and of
  the decision "interval excludes 0"; the share of samples where the two disagree;
- the *alternative* draw (true mean mu, the zero-inflated, discrete and nDCG-like families move
  the non-zero part, which makes the differences asymmetric about mu): coverage of mu, median
  width, power (the interval excludes 0; for the candidates that agree with their p, the
  p-value's power).

Candidates:

- ``auto-0.6``: the 0.6 default (bootstrap-t equal-tailed from 20 queries, sign-flip inverted
  below) beside the sign-flip permutation p it is printed with;
- ``sign-flip``: the sign-flip test inverted at every n (exact below 13 queries, 999 random
  sign patterns plus the observed one above), p = the same test at 0 — agree by construction;
  studentising the sign-flip statistic gives the same test (|t| is monotone in |mean| when the
  sum of squares is fixed), so this is also the "studentized sign-flip" candidate;
- ``t``: the t-interval and t-test;
- ``boot-t sym``: the symmetric bootstrap-t interval (|t*| quantile) and its p (share of
  |t*| >= |t|); agree by construction;
- ``BCa``: bias-corrected accelerated percentile interval (no p; "type-I" is excludes-0);
- ``skew-guarded``: `ranklens.stats.skew_guard`: p = max(sign-flip p, Hall's
  skewness-corrected t p (adjusted skewness G1) on the changed queries and on all, the floor
  (1 - 1/e)^k where mostly tied), interval = the hull of the sign-flip interval and Hall's
  (changed queries scaled by k / n; all), reaching 0 where the floor is above alpha; agree by
  construction.

Bootstrap candidates use 499 resamples per sample (their Monte Carlo error averages out over
the replications). n = 1,000 cells use a quarter of the replications.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np
from scipy import stats as sps

ALPHA = 0.05
SIZES = (5, 10, 20, 50, 200, 1000)
N_BOOT = 499
N_FLIPS = 999
EXACT_UP_TO = 12
SUM_TIES = 1e-9

_DISCRETE_STEPS = np.arange(-3, 4) / 10
_DISCRETE_NULL = np.array([1, 3, 8, 20, 8, 3, 1], float)
_DISCRETE_ALT = np.array([1, 2, 6, 20, 10, 4, 2], float)


def _zero_inflated(rng, shape, share, nonzero):
    values = nonzero(rng, shape)
    return np.where(rng.random(shape) < share, 0.0, values)


def _ndcg_like(rng, shape, shift):
    """Two runs' nDCG on one query: shared difficulty, own noise, 40% of queries untouched."""
    q = rng.beta(2.0, 2.0, shape)
    a = np.clip(q + rng.normal(0.0, 0.15, shape), 0.0, 1.0)
    b = np.clip(q + shift + rng.normal(0.0, 0.15, shape), 0.0, 1.0)
    return np.where(rng.random(shape) < 0.4, 0.0, b - a)


def families():
    """name -> (null sampler, alternative sampler, true mean of the alternative)."""
    fam = {}
    shift = 0.3

    def shifted(sample):
        return sample, (lambda rng, shape: sample(rng, shape) + shift), shift

    fam["normal"] = shifted(lambda rng, s: rng.normal(0.0, 1.0, s))
    fam["exponential +"] = shifted(lambda rng, s: rng.exponential(1.0, s) - 1.0)
    fam["exponential -"] = shifted(lambda rng, s: 1.0 - rng.exponential(1.0, s))
    fam["lognormal"] = shifted(lambda rng, s: rng.lognormal(0.0, 1.0, s) - np.exp(0.5))
    fam["t(3)"] = shifted(lambda rng, s: rng.standard_t(3, s))
    for share in (0.5, 0.7, 0.9):
        fam[f"{share:.0%} zeros, symmetric"] = (
            lambda rng, s, p=share: _zero_inflated(rng, s, p, lambda r, t: r.normal(0.0, 1.0, t)),
            lambda rng, s, p=share: _zero_inflated(rng, s, p, lambda r, t: r.normal(0.5, 1.0, t)),
            (1 - share) * 0.5,
        )
        fam[f"{share:.0%} zeros, skewed"] = (
            lambda rng, s, p=share: _zero_inflated(
                rng, s, p, lambda r, t: r.exponential(1.0, t) - 1.0),
            lambda rng, s, p=share: _zero_inflated(rng, s, p, lambda r, t: r.exponential(1.0, t)),
            (1 - share) * 1.0,
        )
    fam["P@10 steps"] = (
        lambda rng, s: rng.choice(_DISCRETE_STEPS, s, p=_DISCRETE_NULL / _DISCRETE_NULL.sum()),
        lambda rng, s: rng.choice(_DISCRETE_STEPS, s, p=_DISCRETE_ALT / _DISCRETE_ALT.sum()),
        float(_DISCRETE_STEPS @ _DISCRETE_ALT / _DISCRETE_ALT.sum()),
    )
    big = _ndcg_like(np.random.default_rng(99), 4_000_000, 0.05)
    fam["nDCG-like"] = (
        lambda rng, s: _ndcg_like(rng, s, 0.0),
        lambda rng, s: _ndcg_like(rng, s, 0.05),
        float(big.mean()),
    )
    return fam


# --- sign-flip -----------------------------------------------------------------------------


def _patterns(n, rng):
    if n <= EXACT_UP_TO:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
        return signs, True
    signs = np.where(rng.random((N_FLIPS, n)) < 0.5, -1.0, 1.0)
    return signs, False


def sign_flip(x, mu, signs, exact):
    """Reject at ALPHA (p at mu <= ALPHA), p at 0, and the inverted interval's ends."""
    n = x.shape[1]
    tau = SUM_TIES * np.abs(x).sum(axis=1, keepdims=True)

    def p_at(m):
        y = x - m
        sums = y @ signs.T
        count = (np.abs(sums) >= np.abs(y.sum(axis=1, keepdims=True)) - tau).sum(axis=1)
        return count / signs.shape[0] if exact else (count + 1) / (signs.shape[0] + 1)

    a = x @ signs.T
    b = signs.sum(axis=1)[None, :]
    total = x.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.minimum((total - a - tau) / (n - b), (total + a - tau) / (n + b))
        high = np.maximum((total + a + tau) / (n + b), (total - a + tau) / (n - b))
    full = np.abs(b) == n
    low = np.where(full, -np.inf, low)
    high = np.where(full, np.inf, high)
    if not exact:  # the observed pattern counts everywhere: an extra (-inf, inf) pattern
        low = np.concatenate([low, np.full((x.shape[0], 1), -np.inf)], axis=1)
        high = np.concatenate([high, np.full((x.shape[0], 1), np.inf)], axis=1)
    patterns = low.shape[1]
    needed = int(np.floor(ALPHA * patterns)) + 1
    lo = np.partition(low, needed - 1, axis=1)[:, needed - 1]
    hi = np.partition(high, patterns - needed, axis=1)[:, patterns - needed]
    return p_at(mu), p_at(0.0), lo, hi


# --- skew-guarded (ranklens.stats.skew_guard, vectorised) ---------------------------------


def masked_moments(x, mask):
    """Per row of x, over the values where mask holds: their count k, mean, sd (ddof 1) and
    adjusted skewness G1 (0 below three values or without spread)."""
    k = mask.sum(axis=1)
    kk = np.maximum(k, 1)
    mean = np.where(mask, x, 0.0).sum(axis=1) / kk
    centred = np.where(mask, x - mean[:, None], 0.0)
    m2 = (centred**2).sum(axis=1) / kk
    m3 = (centred**3).sum(axis=1) / kk
    with np.errstate(divide="ignore", invalid="ignore"):
        sd = np.sqrt(m2 * kk / np.maximum(k - 1, 1))
        g = np.where((m2 > 0) & (k >= 3),
                     m3 / m2**1.5 * np.sqrt(kk * (kk - 1.0)) / np.maximum(kk - 2.0, 1.0), 0.0)
    return k, mean, sd, g


def _hall(x, mask):
    """Hall's p at 0 and its interval's ends for the mean of the values of each row of x where
    mask holds (k of them; adjusted skewness G1), the ends scaled back to the mean of all n."""
    n = x.shape[1]
    k, mean_k, sd, g = masked_moments(x, mask)
    kk = np.maximum(k, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = mean_k / sd
        stat = np.sqrt(kk) * (w + g / (6.0 * kk) + g * w * w / 3.0 + g * g * w**3 / 27.0)
        df = np.maximum(k - 1, 1)
        p = 2 * sps.t.sf(np.abs(stat), df)
        c = sps.t.ppf(1 - ALPHA / 2, df)

        def w_at(t):
            r = t / np.sqrt(kk) - g / (6.0 * kk)
            c = np.cbrt(1.0 + g * r)  # 3 (c - 1) / g without cancellation at tiny g
            return 3.0 * r / (c * c + c + 1.0)

        low = (mean_k - sd * w_at(c)) * kk / n
        high = (mean_k - sd * w_at(-c)) * kk / n
    degenerate = (k < 2) | (sd == 0)
    p = np.where(degenerate, np.where(mean_k == 0, 1.0, 0.0), p)
    mean = x.mean(axis=1)
    low = np.where(degenerate, mean, low)
    high = np.where(degenerate, mean, high)
    return p, low, high


def hall_changed(x):
    """The Hall part of the guard (`ranklens.stats.skew_guard.guard_p_value`, `guard_ends`):
    Hall's test on the changed queries (scaled back by k / n) and on all of them, and the
    floor (1 - 1/e)^k where the queries are mostly tied (half or more, fewer than 50 changed);
    p at 0 and the hull of the intervals (reaching 0 where the floor is above ALPHA)."""
    n = x.shape[1]
    changed = x != 0.0
    k = changed.sum(axis=1)
    p_c, lo_c, hi_c = _hall(x, changed)
    p_a, lo_a, hi_a = _hall(x, np.ones_like(changed))
    floor = np.where((k < 50) & (n - k >= 0.5 * n), (1.0 - np.exp(-1.0)) ** k, 0.0)
    floor = np.where(k == 0, 1.0, floor)
    low, high = np.minimum(lo_c, lo_a), np.maximum(hi_c, hi_a)
    wide = floor > ALPHA
    low = np.where(wide, np.minimum(low, 0.0), low)
    high = np.where(wide, np.maximum(high, 0.0), high)
    return np.maximum.reduce([p_c, p_a, floor]), low, high


# --- bootstrap ------------------------------------------------------------------------------


def _boot(x, rng):
    """Resampled means and standard errors, (R, B) each."""
    r, n = x.shape
    means = np.empty((r, N_BOOT))
    ses = np.empty((r, N_BOOT))
    step = max(1, 4_000_000 // (N_BOOT * n))
    for start in range(0, r, step):
        stop = min(r, start + step)
        idx = rng.integers(0, n, (stop - start, N_BOOT, n))
        sample = np.take_along_axis(x[start:stop, None, :], idx, axis=2)
        means[start:stop] = sample.mean(axis=2)
        ses[start:stop] = sample.std(axis=2, ddof=1) / np.sqrt(n)
    return means, ses


def _t_star(means, ses, mean):
    diff = means - mean[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = diff / ses
    t = np.where(ses == 0, np.where(diff == 0, 0.0, np.sign(diff) * 1e300), t)
    return t  # a resample without spread: a huge finite t (quantiles interpolate, no inf - inf)


def evaluate(x, mu, rng, signs, exact):
    """Per candidate: (rejects by p, excludes 0, covers mu, width) over the rows of x."""
    n = x.shape[1]
    out = {}
    mean = x.mean(axis=1)
    sd = x.std(axis=1, ddof=1)
    se = sd / np.sqrt(n)
    # sign-flip
    _, p0, lo, hi = sign_flip(x, mu, signs, exact)
    out["sign-flip"] = (p0 <= ALPHA, (lo > 0) | (hi < 0), (lo <= mu) & (mu <= hi), hi - lo)
    # skew-guarded: max of the p-values, hull of the intervals
    hp, hlo, hhi = hall_changed(x)
    glo, ghi = np.minimum(lo, hlo), np.maximum(hi, hhi)
    out["skew-guarded"] = (np.maximum(p0, hp) <= ALPHA, (glo > 0) | (ghi < 0),
                           (glo <= mu) & (mu <= ghi), ghi - glo)
    # t
    tq = sps.t.ppf(1 - ALPHA / 2, n - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tstat = mean / se
    pt = np.where(se > 0, 2 * sps.t.sf(np.abs(tstat), n - 1), np.where(mean == 0, 1.0, np.nan))
    tlo, thi = mean - tq * se, mean + tq * se
    out["t"] = (pt <= ALPHA, (tlo > 0) | (thi < 0), (tlo <= mu) & (mu <= thi), thi - tlo)
    # bootstrap
    means, ses = _boot(x, rng)
    tstar = _t_star(means, ses, mean)
    q_lo, q_hi = np.quantile(tstar, [ALPHA / 2, 1 - ALPHA / 2], axis=1)
    with np.errstate(invalid="ignore"):
        blo, bhi = mean - q_hi * se, mean - q_lo * se
    blo = np.where(se == 0, mean, blo)
    bhi = np.where(se == 0, mean, bhi)
    if n < 20:  # auto-0.6: sign-flip below 20
        alo, ahi = lo, hi
    else:
        alo, ahi = blo, bhi
    out["auto-0.6"] = (p0 <= ALPHA, (alo > 0) | (ahi < 0), (alo <= mu) & (mu <= ahi), ahi - alo)
    abs_q = np.quantile(np.abs(tstar), 1 - ALPHA, axis=1)
    with np.errstate(invalid="ignore"):
        slo, shi = mean - abs_q * se, mean + abs_q * se
    slo = np.where(se == 0, mean, slo)
    shi = np.where(se == 0, mean, shi)
    with np.errstate(divide="ignore", invalid="ignore"):
        tobs = np.abs(mean / se)
    pb = (1 + (np.abs(tstar) >= tobs[:, None] - 1e-12).sum(axis=1)) / (N_BOOT + 1)
    pb = np.where(se == 0, np.where(mean == 0, 1.0, 1 / (N_BOOT + 1)), pb)
    out["boot-t sym"] = (pb <= ALPHA, (slo > 0) | (shi < 0), (slo <= mu) & (mu <= shi), shi - slo)
    # BCa
    below = (means < mean[:, None]).mean(axis=1) + 0.5 * (means == mean[:, None]).mean(axis=1)
    z0 = sps.norm.ppf(np.clip(below, 1e-6, 1 - 1e-6))
    total = x.sum(axis=1, keepdims=True)
    loo = (total - x) / (n - 1)
    dev = loo.mean(axis=1, keepdims=True) - loo
    with np.errstate(divide="ignore", invalid="ignore"):
        acc = (dev**3).sum(axis=1) / (6 * ((dev**2).sum(axis=1)) ** 1.5)
    acc = np.nan_to_num(acc)
    z = sps.norm.ppf([ALPHA / 2, 1 - ALPHA / 2])
    levels = [sps.norm.cdf(z0 + (z0 + zz) / (1 - acc * (z0 + zz))) for zz in z]
    sorted_means = np.sort(means, axis=1)
    pick = [np.clip(np.floor(lv * N_BOOT).astype(int), 0, N_BOOT - 1) for lv in levels]
    clo = np.take_along_axis(sorted_means, pick[0][:, None], axis=1)[:, 0]
    chi = np.take_along_axis(sorted_means, pick[1][:, None], axis=1)[:, 0]
    excl = (clo > 0) | (chi < 0)
    out["BCa"] = (excl, excl, (clo <= mu) & (mu <= chi), chi - clo)
    return out


def cell(name, null, alt, mu, n, replications):
    rng = np.random.default_rng([45, sum(map(ord, name)), n])
    signs, exact = _patterns(n, rng)
    x0 = null(rng, (replications, n))
    x1 = alt(rng, (replications, n))
    e0 = evaluate(x0, 0.0, rng, signs, exact)
    e1 = evaluate(x1, mu, rng, signs, exact)
    rows = {}
    for method in e0:
        rej, excl, _, _ = e0[method]
        _, excl1, cov, width = e1[method]
        finite = np.isfinite(width)
        rows[method] = {
            "type-I p": float(np.mean(rej)),
            "type-I interval": float(np.mean(excl)),
            "disagree": float(np.mean(rej != excl)),
            "coverage": float(np.mean(cov)),
            "power": float(np.mean(excl1)),
            "width": float(np.median(width)) if finite.any() else float("inf"),
            "infinite": float(np.mean(~finite)),
            "mc": float(np.sqrt(0.95 * 0.05 / replications)),
            "reps": replications,
        }
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replications", type=int, default=2000)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    fam = families()
    print("| distribution | n | method | coverage | type-I (p) | type-I (interval) | "
          "p/interval disagree | power | median width | infinite | MC err | reps |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (null, alt, mu) in fam.items():
        if args.only and name not in args.only:
            continue
        for n in args.sizes:
            reps = args.replications if n < 1000 else max(200, args.replications // 4)
            started = time.perf_counter()
            rows = cell(name, null, alt, mu, n, reps)
            for method, row in rows.items():
                print(f"| {name} | {n} | {method} | {row['coverage']:.3f} | {row['type-I p']:.3f}"
                      f" | {row['type-I interval']:.3f} | {row['disagree']:.3f} | "
                      f"{row['power']:.3f} | {row['width']:.4g} | {row['infinite']:.3f} | "
                      f"{row['mc']:.3f} | {row['reps']} |", flush=True)
            print(f"  {name} n={n}: {time.perf_counter() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
