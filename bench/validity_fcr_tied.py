"""Issue 45: guards for FCR intervals with tie-heavy, skewed segments (candidates' study).

The design of `bench/validity_fcr_candidates.py` (40 segments, the first 4 with true delta
0.04, BH at .05, every candidate's interval its test inverted), with segment sizes drawn once
from LOW-150 (seed [32, 45]); the candidates added here guard the library's test, max(sign-flip
p, Hall's p on the changed queries), with a third p:

- bounded (betting): the hedged capital process of Waudby-Smith and Ramdas (JRSS B 2023,
  "Estimating means of bounded random variables by betting") for differences in [-1, 1],
  predictable plug-in bets tuned for level .005, p = 1 / max capital (Ville): valid at every n
  and level for any distribution on [-1, 1];
- bounded (empirical Bernstein): Maurer and Pontil's (2009) bound inverted, range 2;
- either only where `ranklens.stats.shape` notes the sample (skewed or tied for its size), or
  everywhere;
- Hall with the bias-corrected skewness G1 = g sqrt(k (k - 1)) / (k - 2);
- Hall counting the zeros (on all n differences) beside Hall on the changed;
- a minimum of changed queries: p = 1 below K changed (no test told apart from its level).

    nice -n 10 .venv/bin/python bench/validity_fcr_tied.py 1000 tied70 12

prints per candidate: false coverage rate (+- Monte Carlo error), mean R, share of the 4 real
effects selected, null selections per report.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy import stats
from validity_fcr_candidates import (
    ALPHA,
    EFFECT,
    N_ALT,
    PATTERNS,
    M,
    bh,
    draw,
    hall_changed_p,
    hall_p,
    shape_note,
    sign_flip_p,
)

BET_LEVEL = 0.005  # the level the betting process's bets are tuned for (BH's levels, m = 40)


def betting_p(x: np.ndarray, mu: float) -> np.ndarray:
    """Hedged betting p-value of "mean = mu" for rows of x in [-1, 1] (WSR 2023, section 4)."""
    y, m = (x + 1.0) / 2.0, (mu + 1.0) / 2.0
    n = x.shape[1]
    rows = x.shape[0]
    log_up, log_down = np.zeros(rows), np.zeros(rows)
    best = np.zeros(rows)
    total, squares = np.full(rows, 0.5), np.full(rows, 0.25)
    mean_prev = np.full(rows, 0.5)
    for t in range(n):
        variance = squares / (t + 1)
        lam = np.sqrt(2.0 * math.log(2.0 / BET_LEVEL) / (n * variance))
        step = y[:, t] - m
        log_up += np.log1p(np.minimum(lam, 0.5 / m) * step)
        log_down += np.log1p(-np.minimum(lam, 0.5 / (1.0 - m)) * step)
        capital = 0.5 * np.exp(log_up) + 0.5 * np.exp(log_down)
        best = np.maximum(best, capital)
        total += y[:, t]
        mean_now = total / (t + 2)
        squares += (y[:, t] - mean_prev) ** 2
        mean_prev = mean_now
    return np.minimum(1.0, 1.0 / np.maximum(best, 1e-300))


def bernstein_p(x: np.ndarray, mu: float) -> np.ndarray:
    """Maurer-Pontil empirical Bernstein p: |mean - mu| >= sqrt(2 V L / n) + 7 R L / (3 (n-1)),
    L = log(4 / p), R = 2."""
    n = x.shape[1]
    d = np.abs(x.mean(1) - mu)
    a, b = 14.0 / (3.0 * (n - 1)), np.sqrt(2.0 * x.var(1, ddof=1) / n)
    root = (-b + np.sqrt(b * b + 4 * a * d)) / (2 * a)
    return np.minimum(1.0, 4.0 * np.exp(-(root**2)))


def hall_g1_changed_p(x: np.ndarray, mu: float) -> np.ndarray:
    """Hall's test on the changed queries with the bias-corrected skewness G1."""
    n, out = x.shape[1], np.ones(len(x))
    for i, row in enumerate(x):
        changed = row[row != 0.0]
        k = changed.size
        if k >= 3 and changed.std(ddof=1) > 0:
            sd = changed.std(ddof=1)
            c = changed - changed.mean()
            g = (c**3).mean() / (c**2).mean() ** 1.5 * math.sqrt(k * (k - 1)) / (k - 2)
            w = (changed.mean() - mu * n / k) / sd
            t = math.sqrt(k) * (w + g / (6 * k) + g * w * w / 3 + g * g * w**3 / 27)
            out[i] = 2 * stats.t.sf(abs(t), k - 1)
        elif k >= 1:
            out[i] = 1.0 if changed.mean() == mu * n / k else 0.0
    return out


def study(reps: int, dist: str, low: int) -> None:
    rng = np.random.default_rng(7)
    sizes = np.random.default_rng([32, 45]).integers(low, 151, M)
    truth = np.array([EFFECT] * N_ALT + [0.0] * (M - N_ALT))
    parts = ("sf", "hall_changed", "hall", "g1", "bet", "eb", "note", "k")
    at: dict[float, dict[str, np.ndarray]] = {}
    p0 = {name: np.empty((reps, M)) for name in parts}
    pt = {name: np.empty((reps, M)) for name in parts}
    for j, n in enumerate(sizes):
        x = draw(rng, dist, (reps, int(n)), float(truth[j]))
        signs = rng.choice([-1.0, 1.0], (PATTERNS, int(n)))
        for mu, into in ((0.0, p0), (float(truth[j]), pt)):
            into["sf"][:, j] = sign_flip_p(x, mu, signs)
            into["hall_changed"][:, j] = hall_changed_p(x, mu)
            into["hall"][:, j] = hall_p(x, mu)
            into["g1"][:, j] = hall_g1_changed_p(x, mu)
            into["bet"][:, j] = betting_p(np.clip(x, -1, 1), mu)
            into["eb"][:, j] = bernstein_p(x, mu)
            into["note"][:, j] = shape_note(x)
            into["k"][:, j] = (x != 0).sum(1)
    del at
    base0 = np.maximum(p0["sf"], p0["hall_changed"])
    baset = np.maximum(pt["sf"], pt["hall_changed"])
    note = p0["note"] > 0  # the note reads the sample, the same at any mu

    def guarded(name: str, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (np.where(where, np.maximum(base0, p0[name]), base0),
                np.where(where, np.maximum(baset, pt[name]), baset))

    everywhere = np.ones_like(note)
    rows = {
        "sign-flip alone": (p0["sf"], pt["sf"]),
        "max(sf, Hall changed) [main]": (base0, baset),
        "+ betting where noted": guarded("bet", note),
        "+ betting everywhere": guarded("bet", everywhere),
        "+ emp. Bernstein where noted": guarded("eb", note),
        "+ Hall counting zeros": guarded("hall", everywhere),
        "max(sf, Hall G1 changed)": (np.maximum(p0["sf"], p0["g1"]),
                                     np.maximum(pt["sf"], pt["g1"])),
    }
    g10, gt1 = np.maximum(p0["sf"], p0["g1"]), np.maximum(pt["sf"], pt["g1"])
    rows["max(sf, Hall G1 changed, Hall zeros)"] = (np.maximum(g10, p0["hall"]),
                                                   np.maximum(gt1, pt["hall"]))
    for minimum in (10, 15):
        few = p0["k"] < minimum
        rows[f"G1 + p = 1 below {minimum} changed"] = (np.where(few, 1.0, g10),
                                                        np.where(few, 1.0, gt1))
    zeros0, zerost = np.maximum(base0, p0["hall"]), np.maximum(baset, pt["hall"])
    tied = (p0["k"] < 50) & (p0["k"] <= 0.5 * sizes[None, :])
    for q in (0.632, 0.69):
        floor = q ** p0["k"]
        rows[f"zeros + floor {q}^k where tied"] = (
            np.where(tied, np.maximum(zeros0, floor), zeros0),
            np.where(tied, np.maximum(zerost, floor), zerost))
        rows[f"zeros + floor {q}^k"] = (np.maximum(zeros0, floor), np.maximum(zerost, floor))
        rows[f"G1 zeros + floor {q}^k"] = (np.maximum(np.maximum(g10, p0["hall"]), floor),
                                           np.maximum(np.maximum(gt1, pt["hall"]), floor))
    for minimum in (12, 15):
        few = tied & (p0["k"] < minimum)
        rows[f"zeros + p = 1 below {minimum} changed where tied"] = (
            np.where(few, 1.0, zeros0), np.where(few, 1.0, zerost))
    for minimum in (10, 15, 20):
        few = p0["k"] < minimum
        rows[f"+ p = 1 below {minimum} changed"] = (np.where(few, 1.0, base0),
                                                     np.where(few, 1.0, baset))
    for label, (null_p, true_p) in rows.items():
        r, selected = bh(null_p, ALPHA)
        shown = np.maximum(r, 1) * ALPHA / M
        missed = selected & (true_p <= shown[:, None])
        share = missed.sum(1) / np.maximum(r, 1)
        from_nulls = (selected[:, N_ALT:].sum(1) / np.maximum(r, 1)).mean()
        print(f"{dist:8s} {low:3d}-150 {label:32s} FCR {share.mean():.4f} +- "
              f"{share.std() / math.sqrt(reps):.4f}  mean R {r.mean():.2f}  real effects "
              f"selected {selected[:, :N_ALT].mean():.3f}  null selections/report "
              f"{selected[:, N_ALT:].sum() / reps:.4f} FCR from nulls {from_nulls:.4f}", flush=True)


if __name__ == "__main__":
    study(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
