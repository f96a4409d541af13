"""Issue 45: candidate segment tests for FCR intervals with small, skewed or tied segments.

Vectorised stand-in for `bench/validity.py`'s `fcr_simulation` (same design: 40 segments of
12-150 queries drawn once with seed [32, 45], the first 4 with true delta 0.04, BH at .05, the
selected shown at 1 - R alpha / m), used to choose the segments' test. Every candidate is a
p-value whose inverted interval is what a forest plot shows, so a selected null segment always
misses its true delta, and a selected real one misses it when its p at the true delta is at most
R alpha / m. Sign-flip p-values use 2,000 random patterns. The library's own numbers for the
chosen candidate are in docs/validity.md (`bench/validity.py --only fcr`).

    nice -n 5 .venv/bin/python bench/validity_fcr_candidates.py fcr 1000 exp
    nice -n 5 .venv/bin/python bench/validity_fcr_candidates.py tail 20000 exp

``fcr REPS DIST``: false coverage rate (+- Monte Carlo error), mean R, the share of the 4 real
effects selected, and null selections per report in segments below / from 19 queries, per
candidate. ``tail REPS DIST``: P(p <= level) / level under no difference at BH's levels
(.00125 ... .05) for the sign-flip p and the t-test p, n from 10 to 150. DIST: normal, exp
(centred exponential, sd 0.1), lognorm, tied70 (70% exact zeros, centred exponential rest),
tied70sym (70% zeros, normal rest).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy import stats

ALPHA, M, N_ALT, EFFECT, PATTERNS = 0.05, 40, 4, 0.04, 2000
LEVELS = np.array([0.00125, 0.0025, 0.005, 0.0125, 0.05])


def draw(rng: np.random.Generator, dist: str, shape: tuple[int, int], truth: float) -> np.ndarray:
    """Per-query differences with mean ``truth``."""
    if dist.startswith("tied70"):
        rest = (rng.exponential(0.1, shape) - 0.1 if dist == "tied70"
                else rng.normal(0.0, 0.1, shape))
        return np.where(rng.random(shape) < 0.7, 0.0, truth / 0.3 + rest)
    if dist == "exp":
        return truth + rng.exponential(0.1, shape) - 0.1
    if dist == "lognorm":
        return truth + 0.1 * (rng.lognormal(0.0, 1.0, shape) - math.exp(0.5))
    return truth + rng.normal(0.0, 0.1, shape)


def sign_flip_p(x: np.ndarray, mu: float, signs: np.ndarray) -> np.ndarray:
    y = x - mu
    observed = np.abs(y.sum(1))
    tau = 1e-9 * np.abs(y).sum(1)
    return (1 + (np.abs(y @ signs.T) >= (observed - tau)[:, None]).sum(1)) / (len(signs) + 1)


def skewness(x: np.ndarray) -> np.ndarray:
    centred = x - x.mean(1, keepdims=True)
    m2 = (centred**2).mean(1)
    with np.errstate(all="ignore"):
        return np.where(m2 > 0, (centred**3).mean(1) / m2**1.5, 0.0)


def hall_p(x: np.ndarray, mu: float) -> np.ndarray:
    """Hall's skewness-corrected t (ranklens.stats.skew_guard) on all the differences."""
    n = x.shape[1]
    sd, g = x.std(1, ddof=1), skewness(x)
    with np.errstate(all="ignore"):
        w = (x.mean(1) - mu) / sd
        t = np.sqrt(n) * (w + g / (6 * n) + g * w**2 / 3 + g**2 * w**3 / 27)
        return np.where(sd > 0, 2 * stats.t.sf(np.abs(t), n - 1), 1.0)


def hall_changed_p(x: np.ndarray, mu: float) -> np.ndarray:
    """Hall's test on the changed queries: mean(all) = mu <=> mean(changed) = mu n / k."""
    n, out = x.shape[1], np.ones(len(x))
    for i, row in enumerate(x):
        changed = row[row != 0.0][None, :]
        k = changed.shape[1]
        if k >= 2 and changed.std(ddof=1) > 0:
            out[i] = hall_p(changed, mu * n / k)[0]
        elif k >= 1:
            out[i] = 1.0 if changed.mean() == mu * n / k else 0.0
    return out


def bootstrap_t_p(x: np.ndarray, mu: float, counts: np.ndarray) -> np.ndarray:
    """Equal-tailed bootstrap-t p (the resample counts shared by all rows)."""
    n = x.shape[1]
    mean, se = x.mean(1), x.std(1, ddof=1) / np.sqrt(n)
    m1, m2 = x @ counts.T / n, (x**2) @ counts.T / n
    with np.errstate(all="ignore"):
        se_b = np.sqrt(np.maximum(m2 - m1**2, 0) / (n - 1))
        t_b = np.nan_to_num((m1 - mean[:, None]) / se_b, nan=0.0, posinf=0.0, neginf=0.0)
        t = ((mean - mu) / se)[:, None]
    below = (1 + (t_b <= t).sum(1)) / (len(counts) + 1)
    above = (1 + (t_b >= t).sum(1)) / (len(counts) + 1)
    return np.minimum(1.0, 2 * np.minimum(below, above))


def shape_note(x: np.ndarray) -> np.ndarray:
    """ranklens.stats.shape's rule: n < 25 g^2, or half tied with fewer than 50 changed."""
    n, changed = x.shape[1], (x != 0).sum(1)
    return (n < np.ceil(25 * skewness(x) ** 2)) | ((changed < 50) & (n - changed >= 0.5 * n))


def bh(p: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    m = p.shape[1]
    passed = np.sort(p, 1) <= level * np.arange(1, m + 1) / m
    r = np.where(passed.any(1), m - np.argmax(passed[:, ::-1], 1), 0)
    return r, (p <= (r[:, None] * level / m)) & (r[:, None] > 0)


def fcr(reps: int, dist: str) -> None:
    rng = np.random.default_rng(7)
    sizes = np.random.default_rng([32, 45]).integers(12, 151, M)
    truth = np.array([EFFECT] * N_ALT + [0.0] * (M - N_ALT))
    names = ("sf", "hall", "hall_changed", "boot", "note")
    at_0 = {name: np.empty((reps, M)) for name in names}
    at_truth = {name: np.empty((reps, M)) for name in names}
    for k, n in enumerate(sizes):
        x = draw(rng, dist, (reps, int(n)), float(truth[k]))
        signs = rng.choice([-1.0, 1.0], (PATTERNS, int(n)))
        counts = rng.multinomial(int(n), np.full(int(n), 1 / n), PATTERNS).astype(float)
        for mu, into in ((0.0, at_0), (float(truth[k]), at_truth)):
            into["sf"][:, k] = sign_flip_p(x, mu, signs)
            into["hall"][:, k] = hall_p(x, mu)
            into["hall_changed"][:, k] = hall_changed_p(x, mu)
            into["boot"][:, k] = bootstrap_t_p(x, mu, counts)
            into["note"][:, k] = shape_note(x)
    harmonic = sum(1 / i for i in range(1, M + 1))
    note0, note_t = at_0["note"] > 0, at_truth["note"] > 0
    candidates = {
        "sign-flip (0.3)": ("sf",), "Hall t": ("hall",), "bootstrap-t": ("boot",),
        "max(sf, Hall)": ("sf", "hall"), "max(sf, bootstrap-t)": ("sf", "boot"),
        "max(sf, boot-t, Hall)": ("sf", "boot", "hall"),
        "max(sf, Hall on changed) [chosen]": ("sf", "hall_changed"),
    }
    small = sizes < 19
    for label, parts in candidates.items():
        p0 = np.maximum.reduce([at_0[part] for part in parts])
        pt = np.maximum.reduce([at_truth[part] for part in parts])
        rows = [(label, p0, pt, ALPHA)]
        if label == "sign-flip (0.3)":
            rows += [("sign-flip, BH at alpha / H_m (BY)", p0, pt, ALPHA / harmonic),
                     ("sign-flip, p = 1 where shape note", np.where(note0, 1.0, p0),
                      np.where(note_t, 1.0, pt), ALPHA)]
            for q in (0.632, 0.69, 0.75):
                rows.append((f"sign-flip, p floored at {q}^n", np.maximum(p0, q**sizes),
                             np.maximum(pt, q**sizes), ALPHA))
        if label == "max(sf, Hall)":
            rows.append(("max(sf, Hall) at BY level", p0, pt, ALPHA / harmonic))
        for name, p_null, p_true, level in rows:
            r, selected = bh(p_null, level)
            shown = np.maximum(r, 1) * level / M
            missed = selected & (p_true <= shown[:, None])
            share = missed.sum(1) / np.maximum(r, 1)
            nulls = selected[:, N_ALT:]
            print(f"{dist:9s} {name:36s} FCR {share.mean():.4f} +- "
                  f"{share.std() / math.sqrt(reps):.4f}  mean R {r.mean():.2f}  "
                  f"real effects selected {selected[:, :N_ALT].mean():.3f}  "
                  f"null selections/report n<19 {nulls[:, small[N_ALT:]].sum() / reps:.4f} "
                  f"n>=19 {nulls[:, ~small[N_ALT:]].sum() / reps:.4f}", flush=True)


def tail(reps: int, dist: str) -> None:
    rng = np.random.default_rng(1)
    for n in (10, 12, 15, 18, 25, 40, 80, 150):
        x = draw(rng, dist, (reps, n), 0.0)
        p = sign_flip_p(x, 0.0, rng.choice([-1.0, 1.0], (PATTERNS, n)))
        with np.errstate(all="ignore"):
            t = x.mean(1) / (x.std(1, ddof=1) / np.sqrt(n))
        p_t = np.nan_to_num(2 * stats.t.sf(np.abs(t), n - 1), nan=1.0)
        ratio = [np.round((q[:, None] <= LEVELS).mean(0) / LEVELS, 2) for q in (p, p_t)]
        print(f"{dist} n={n} levels {LEVELS.tolist()} sign-flip {ratio[0].tolist()} "
              f"t-test {ratio[1].tolist()}", flush=True)


if __name__ == "__main__":
    mode, reps, dist = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    (fcr if mode == "fcr" else tail)(reps, dist)
