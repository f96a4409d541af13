"""Small skewed samples (issue 45): what a rule that reads only the data can do where no test holds.

Run from the repository root (prints Markdown; about 5 minutes on 2 shared cores):

    nice -n 5 .venv/bin/python bench/validity_small_skew.py [--replications 4000]

The default (skew-guarded) test lets lognormal differences (skewness 6) through at 10-25
queries (type-I .07-.08 at alpha .05): a small sample of them rarely shows the tail that makes
their mean 0, so it looks like a clear loss to every test (Bahadur and Savage, 1956). Two kinds
of answer were tried on the draws of `bench/sim_mean_interval.py`'s families (each cell a null
sample, no difference, and one with the family's real difference; the same sign patterns).

A wider guard: Hall's part of the guard read at every skewness within z standard errors of the
sample's (G1 +- z se(G1), se(G1) = sqrt(6 k (k - 1) / ((k - 2) (k + 1) (k + 3))), the
normal-theory standard error of the adjusted skewness at k changed queries; 11 points, on the
changed queries and on all), below 25 changed queries, the hull of the intervals (z = 0.5, 1,
1.5): its type-I error and coverage, and the width it costs where the guard already held.

Words: a caution beside the result instead of a precision it does not have. Today's note
(`ranklens.stats.shape`'s first two reasons: n < 25 g^2 or mostly tied); "every sample below 25
changed queries"; "below 25 changed queries, the changed queries' skewness points away from the
mean" (a right-skewed sample whose mean is below 0, or a left-skewed one above: the side where
an unseen tail would pull the mean back toward 0), at any skewness or beyond 0.5 or 1 standard
error; and the chosen rule, today's note or, beside a clear result (p <= .05), the skewness
beyond half a standard error (`ranklens.stats.shape`'s third reason). For each: how often it
fires on null samples and on samples with a real difference, which share of the false
rejections and of the true ones it marks, and the share of samples falsely rejected without it
(type-I unmarked).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from scipy import stats as sps
from sim_mean_interval import ALPHA, _patterns, families, hall_changed, masked_moments, sign_flip

SMALL = 25
"""Below this many changed queries the candidates act."""

FAMILIES = ("normal", "t(3)", "P@10 steps", "nDCG-like", "50% zeros, symmetric",
            "exponential +", "exponential -", "lognormal", "70% zeros, skewed")
SIZES = (10, 15, 20, 25, 50)
Z_VALUES = (0.0, 0.5, 1.0, 1.5)
CHOSEN_SE = 0.5
"""The chosen caution's threshold: |G1| above this many standard errors (`ranklens.stats.shape`)."""


def skewness_se(k):
    """Normal-theory standard error of the adjusted skewness G1 at k values."""
    k = np.maximum(np.asarray(k, float), 4.0)
    return np.sqrt(6.0 * k * (k - 1.0) / ((k - 2.0) * (k + 1.0) * (k + 3.0)))


def _hall_at(mean, sd, g, k, n):
    """Hall's p at 0 and interval ends (scaled by k / n) for given skewness g (arrays)."""
    kk = np.maximum(k, 1)
    df = np.maximum(k - 1, 1)
    c = sps.t.ppf(1 - ALPHA / 2, df)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = mean / sd
        stat = np.sqrt(kk) * (w + g / (6.0 * kk) + g * w * w / 3.0 + g * g * w**3 / 27.0)
        p = 2 * sps.t.sf(np.abs(stat), df)

        def w_at(t):
            r = t / np.sqrt(kk) - g / (6.0 * kk)
            cc = np.cbrt(1.0 + g * r)
            return 3.0 * r / (cc * cc + cc + 1.0)

        low = (mean - sd * w_at(c)) * kk / n
        high = (mean - sd * w_at(-c)) * kk / n
    bad = (k < 3) | ~(sd > 0)
    return np.where(bad, 0.0, p), np.where(bad, np.inf, low), np.where(bad, -np.inf, high)


def wide_guard(x, z):
    """Hall's part with every skewness in G1 +- z se(G1) (11 points), on the changed queries
    and on all, where fewer than SMALL changed: p at 0 (largest) and the hull of the ends."""
    n = x.shape[1]
    changed = x != 0.0
    ps, lows, highs = [], [], []
    for mask in (changed, np.ones_like(changed)):
        k, mean, sd, g = masked_moments(x, mask)
        for step in np.linspace(-z, z, 11):
            p, lo, hi = _hall_at(mean, sd, g + step * skewness_se(k), k, n)
            ps.append(p)
            lows.append(lo)
            highs.append(hi)
    small = changed.sum(axis=1) < SMALL
    return (np.where(small, np.maximum.reduce(ps), 0.0),
            np.where(small, np.minimum.reduce(lows), np.inf),
            np.where(small, np.maximum.reduce(highs), -np.inf))


def cautions(x, rejected):
    """Per row, per caution rule: does it fire (``rejected``: the default's p <= ALPHA)."""
    n = x.shape[1]
    changed = x != 0.0
    k = changed.sum(axis=1)
    mean = x.mean(axis=1)
    centred = x - mean[:, None]
    m2 = (centred**2).mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        g_all = np.where(m2 > 0, (centred**3).mean(axis=1) / m2**1.5, 0.0)
    today = ((n < np.ceil(25 * g_all**2)) | ((k < 50) & (n - k >= 0.5 * n))) & (k > 0)
    _, _, _, g = masked_moments(x, changed)
    small = (k < SMALL) & (k >= 3)
    away = small & (mean * g < 0)
    rules = {"shape note (today)": today, "below 25 changed": small,
             "below 25, skew away from estimate": away}
    for c in (0.5, 1.0):
        rules[f"below 25, skew away, abs(G1) > {c:g} se(G1)"] = away & (
            np.abs(g) > c * skewness_se(k))
    clear = away & (np.abs(g) > CHOSEN_SE * skewness_se(k))
    rules["today or (p <= .05, skew away, abs(G1) > 0.5 se) = chosen"] = today | (clear & rejected)
    return rules


def _guarded(x, mu, signs, exact):
    """The default: (p at 0, low, high), and the sign-flip p at 0."""
    _, p0, lo, hi = sign_flip(x, mu, signs, exact)
    hp, hlo, hhi = hall_changed(x)
    return np.maximum(p0, hp), np.minimum(lo, hlo), np.maximum(hi, hhi)


def cell(name, null, alt, mu, n, replications):
    """One (distribution, n) cell: the interval candidates' and the cautions' numbers."""
    rng = np.random.default_rng([45, 7, sum(map(ord, name)), n])
    signs, exact = _patterns(n, rng)
    x0, x1 = null(rng, (replications, n)), alt(rng, (replications, n))
    out = {}
    d0, d1 = _guarded(x0, 0.0, signs, exact), _guarded(x1, mu, signs, exact)
    width0 = d1[2] - d1[1]
    for z in Z_VALUES:
        (p0, lo0, hi0), (_, lo1, hi1) = d0, d1
        if z:
            wp, wl, wh = wide_guard(x0, z)
            p0, lo0, hi0 = np.maximum(p0, wp), np.minimum(lo0, wl), np.maximum(hi0, wh)
            _, wl, wh = wide_guard(x1, z)
            lo1, hi1 = np.minimum(lo1, wl), np.maximum(hi1, wh)
        finite = np.isfinite(width0) & np.isfinite(hi1 - lo1)
        out[f"guard, z = {z:g}" if z else "default (skew-guarded)"] = {
            "type-I": float(np.mean(p0 <= ALPHA)),
            "coverage": float(np.mean((lo1 <= mu) & (mu <= hi1))),
            "power": float(np.mean((lo1 > 0) | (hi1 < 0))),
            "width ratio": float(np.median((hi1 - lo1)[finite] / width0[finite]))
            if finite.any() else float("nan")}
    rejected0, rejected1 = d0[0] <= ALPHA, (d1[1] > 0) | (d1[2] < 0)
    c0, c1 = cautions(x0, rejected0), cautions(x1, rejected1)
    for rule in c0:
        out[rule] = {
            "fires (null)": float(np.mean(c0[rule])),
            "fires (real difference)": float(np.mean(c1[rule])),
            "false rejections marked": _share(c0[rule], rejected0),
            "true rejections marked": _share(c1[rule], rejected1),
            "type-I unmarked": float(np.mean(rejected0 & ~c0[rule]))}
    return out


def _share(marked, rejected):
    return float(np.mean(marked[rejected])) if rejected.any() else float("nan")


def tables(replications, sizes=SIZES, names=FAMILIES):
    """The two Markdown tables (interval candidates; cautions), one row per cell and rule."""
    fam = families()
    guard = ["| differences | n | candidate | type-I | coverage | power | median width / "
             "default's |", "|---|---:|---|---:|---:|---:|---:|"]
    words = ["| differences | n | caution | fires: null | fires: real difference | false "
             "rejections marked | true rejections marked | type-I unmarked |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for name in names:
        null, alt, mu = fam[name]
        for n in sizes:
            started = time.perf_counter()
            rows = cell(name, null, alt, mu, n, replications)
            for label, row in rows.items():
                if "type-I" in row:
                    guard.append(f"| {name} | {n} | {label} | {row['type-I']:.3f} | "
                                 f"{row['coverage']:.3f} | {row['power']:.3f} | "
                                 f"{row['width ratio']:.3f} |")
                else:
                    words.append(f"| {name} | {n} | {label} | {row['fires (null)']:.3f} | "
                                 f"{row['fires (real difference)']:.3f} | "
                                 f"{row['false rejections marked']:.2f} | "
                                 f"{row['true rejections marked']:.2f} | "
                                 f"{row['type-I unmarked']:.3f} |")
            print(f"  {name} n={n}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return "\n".join(guard), "\n".join(words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=4000)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--only", nargs="*", default=list(FAMILIES))
    args = parser.parse_args()
    guard, words = tables(args.replications, tuple(args.sizes), tuple(args.only))
    mc = np.sqrt(0.05 * 0.95 / args.replications)
    print(f"Monte Carlo error: +-{mc:.4f} near .05 or .95 ({args.replications:,} samples a "
          "cell).\n")
    print(guard + "\n")
    print(words)


if __name__ == "__main__":
    main()
