"""Which queries to label, and a valid interval from the labels a plan drew (active PPI).

A gold sample drawn uniformly spends as many labels on queries whose B - A cannot move (the
two runs return the same top documents in the same order) as on the queries that decide the
comparison. Active statistical inference (Zrnic & Candès, ICML 2024) draws each query with a
probability that grows with how unsure its proxy B - A is, and weights the correction of the
labelled ones by the inverse of that probability, so the estimate stays unbiased and the
interval valid whatever the probabilities; they only change its width.

For N queries with proxy differences p_i (from cheap judgements, known for all) and gold
differences g_i (known where a query was drawn, with probability pi_i, independently: Poisson
sampling), the estimate of the gold mean difference over all N queries is

    theta = (1/N) sum_i [ lam p_i + (drawn_i / pi_i) (g_i - lam p_i) ],

where a query with pi_i = 0 must be certain (g_i = p_i: its B - A cannot move) and counts as
p_i. Its variance, (1/N^2) sum_i (1 - pi_i) / pi_i (g_i - lam p_i)^2, is estimated from the
drawn queries by inverse-probability weighting (Horvitz-Thompson); ``lam`` is tuned to make
it smallest (PPI++'s power tuning, clipped to [0, 1]) or fixed. The interval is a t interval
with one degree of freedom less than the queries drawn by chance (those with pi < 1; the
ones drawn for sure carry no sampling error).

Rounds (`combine_rounds`): round k draws, with probabilities set from what the gold labels of
the earlier rounds taught, among the queries not labelled yet; its estimate T_k of the mean
over all N queries counts the earlier labelled queries exactly (probability 1) and weights
its own draws by 1 / pi. Given the earlier rounds T_k is unbiased, so T_k - theta are
martingale differences; the rounds are combined as sum a_k T_k / sum a_k with weights a_k fixed
before round k is drawn (inverse planned variances), and the interval is the self-normalised
sum: theta is inside when |sum a_k (T_k - theta)| <= t sqrt(sum a_k^2 se_k^2), t with the
Welch-Satterthwaite degrees of freedom of the rounds' variances.

It answers for the mean gold B - A over this set of queries, the population the plan was
drawn from; it does not say which documents to judge (the plan's business, which knows the
metric) and does not hold if the drawn queries were not drawn by the stated probabilities.
numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import purpose_generator, seed_sequence
from ranklens.stats.distributions import t_quantile
from ranklens.stats.results import Seed

Vector = npt.NDArray[np.float64]
_DESIGN_STREAM = 13  # purpose tag of the plan's draw


@dataclass(frozen=True)
class DesignEstimate:
    """The gold mean B - A over all queries, from a plan's labels: ``estimate`` with its
    interval at ``level``, its standard error, the ``lam`` used, and how many queries were
    labelled (``n_drawn``) of ``n_queries`` (``n_certain`` needed none)."""

    estimate: float
    ci_low: float
    ci_high: float
    standard_error: float
    lam: float
    n_drawn: int
    n_queries: int
    n_certain: int
    level: float
    df: int = 1


UNIFORM_SHARE = 0.8
"""The share of a plan's budget spread evenly over the queries whose B - A can move.

An uncertainty score says how far a query's gold B - A may lie from its proxy's only roughly:
in make_data's worlds, where the runs differ on almost every query, it correlates with the
realised gap at .14-.23 (a judge's own confidence included), so probabilities that follow it
closely vary without cause and widen the interval (4% wider than a uniform sample of the same
number of judged documents at a share of .2 with a run-dependent proxy; 1% at .6, two to three
Monte Carlo errors). At .8 the plan was never wider than that uniform sample beyond Monte
Carlo error there (.98-1.00), kept its gain where queries cannot move (.34-.61 with a 20%
reranker) and most of it where the score is informative (the stats worlds of
docs/validity.md). `bench/validity_labels_library.py` prints the comparison."""


def inclusion_probabilities(uncertainty: npt.ArrayLike, budget: float, *,
                            uniform_share: float = UNIFORM_SHARE) -> Vector:
    """Each query's chance of being drawn, summing to ``budget`` (expected labelled queries).

    Proportional to ``uncertainty`` (how far the gold B - A may lie from the proxy's: the
    square-root-variance-optimal rule), mixed with a uniform share over the uncertain
    queries (``uniform_share`` of the budget, `UNIFORM_SHARE`) so that a query the uncertainty
    score underrates is still drawn often enough and weights that vary without cause do not
    widen the interval; capped at 1, the excess spread over the others.
    A query of uncertainty 0 (its B - A cannot move) gets 0.
    """
    u = np.asarray(uncertainty, dtype=np.float64)
    if (u < 0).any() or not np.isfinite(u).all():
        raise ValueError("uncertainty must be finite and >= 0")
    if not 0.0 <= uniform_share <= 1.0:
        raise ValueError(f"uniform_share must be in [0, 1], got {uniform_share}")
    open_ = u > 0
    n_open = int(open_.sum())
    if budget <= 0 or n_open == 0:
        return np.zeros_like(u)
    if budget >= n_open:
        return open_.astype(np.float64)
    shape = np.where(open_, (1 - uniform_share) * u / u[open_].mean() + uniform_share, 0.0)
    probabilities = np.zeros_like(u)
    capped = np.zeros(len(u), dtype=bool)
    for _ in range(len(u)):  # water-filling: cap at 1, spread the rest over the others
        free = open_ & ~capped
        left = budget - capped.sum()
        probabilities[free] = left * shape[free] / shape[free].sum()
        over = free & (probabilities > 1.0)
        if not over.any():
            break
        capped |= over
        probabilities[capped] = 1.0
    return probabilities


def draw(probabilities: npt.ArrayLike, seed: Seed = 0, round_: int = 1) -> npt.NDArray[np.bool_]:
    """Which queries are drawn: each independently with its probability (Poisson sampling).
    Round k > 1 draws from its own stream of ``seed``, so that a round's draws do not reuse
    the random numbers an earlier round's draws were decided by (round 1: the plain stream)."""
    pi = np.asarray(probabilities, dtype=np.float64)
    if round_ > 1:
        root = seed_sequence(seed)
        seed = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, 1000 + round_),
                                      pool_size=root.pool_size)
    rng = purpose_generator(seed, _DESIGN_STREAM)
    return rng.random(len(pi)) < pi


def design_estimate(proxy: npt.ArrayLike, gold: npt.ArrayLike, drawn: npt.ArrayLike,
                    probabilities: npt.ArrayLike, *, alpha: float = 0.05,
                    lam: float | None = None) -> DesignEstimate:
    """The gold mean B - A over all queries from the drawn queries' gold differences (see the
    module's text). ``gold`` is read only where ``drawn``; ``lam=None`` tunes it."""
    p = np.asarray(proxy, dtype=np.float64)
    g = np.asarray(gold, dtype=np.float64)
    d = np.asarray(drawn, dtype=bool)
    pi = np.asarray(probabilities, dtype=np.float64)
    n = len(p)
    if not (len(g) == len(d) == len(pi) == n):
        raise ValueError("proxy, gold, drawn and probabilities must have one value per query")
    if (d & (pi <= 0)).any():
        raise ValueError("a query was drawn that the plan gave probability 0")
    if not np.isfinite(g[d]).all():
        raise ValueError("every drawn query needs its gold difference")
    certain = pi <= 0
    weight = np.zeros(n)
    weight[d] = 1.0 / pi[d]
    spread = np.where(certain, 0.0, (1.0 - pi) / np.where(certain, 1.0, pi))
    if lam is None:
        lam = _tuned(p, g, d, pi, spread)
    gd = np.where(d, g, 0.0)
    terms = np.where(certain, p, lam * p + weight * (gd - lam * p))
    estimate = float(terms.mean())
    residual = np.where(d, gd - lam * p, 0.0)
    variance = float(np.sum(np.where(d, (1.0 - pi) / np.where(d, pi, 1.0) ** 2, 0.0)
                            * residual**2)) / n**2
    se = math.sqrt(max(variance, 0.0))
    n_drawn = int(d.sum())
    # the degrees of freedom of the drawn queries that were left to chance (pi < 1): with
    # few of them the variance estimate is rough, and the t quantile says so
    df = max(int((d & (pi < 1.0)).sum()) - 1, 1)
    half = t_quantile(1 - alpha / 2, df) * se
    return DesignEstimate(estimate, estimate - half, estimate + half, se, float(lam), n_drawn,
                          n, int(certain.sum()), 1 - alpha, df)


def combine_rounds(rounds: Sequence[DesignEstimate], weights: npt.ArrayLike, *,
                   alpha: float = 0.05) -> DesignEstimate:
    """The rounds' estimates T_k (each of the mean over all queries, the queries labelled in
    earlier rounds counted exactly) as one: sum a_k T_k / sum a_k with its interval at
    1 - ``alpha`` (see the module's text). ``weights`` must have been fixed before each
    round was drawn (a round's weight may depend on the earlier rounds' labels, not on its
    own); an infinite weight (a round that left nothing to chance) takes that round alone.
    It does not correct for looking after each round: pass alpha / looks for that."""
    a = np.asarray(weights, dtype=np.float64)
    if len(rounds) == 0 or len(a) != len(rounds) or (a <= 0).any() or np.isnan(a).any():
        raise ValueError("one positive weight per round, and at least one round")
    if np.isinf(a).any():
        last = int(np.flatnonzero(np.isinf(a))[-1])
        rounds, a = rounds[last:last + 1], np.ones(1)
    a = a / a.sum()
    estimate = float(sum(w * r.estimate for w, r in zip(a, rounds, strict=True)))
    parts = [w * w * r.standard_error**2 for w, r in zip(a, rounds, strict=True)]
    se = math.sqrt(sum(parts))
    # Welch-Satterthwaite: a round that carries most of the variance lends the interval its
    # own (few) degrees of freedom, not the sum of all rounds'
    spread = sum(part**2 / r.df for part, r in zip(parts, rounds, strict=True))
    df = max(round(sum(parts) ** 2 / spread), 1) if spread > 0 else rounds[-1].df
    half = t_quantile(1 - alpha / 2, df) * se
    last_round = rounds[-1]
    return DesignEstimate(estimate, estimate - half, estimate + half, se, last_round.lam,
                          last_round.n_drawn, last_round.n_queries, last_round.n_certain,
                          1 - alpha, df)


def round_weight(previous_weight: float, uncertainty: npt.ArrayLike,
                 previous_probabilities: npt.ArrayLike, probabilities: npt.ArrayLike) -> float:
    """A round's weight for `combine_rounds`, fixed before its draw: the previous round's
    weight times the ratio of the two rounds' `planned_variance`, both under this round's
    ``uncertainty`` (round 1's weight: 1). Infinite when this round leaves nothing to
    chance (or the previous one did)."""
    mine = planned_variance(uncertainty, probabilities)
    previous = planned_variance(uncertainty, previous_probabilities)
    if mine <= 0 or previous <= 0 or math.isinf(previous_weight):
        return math.inf
    return previous_weight * previous / mine


def planned_variance(uncertainty: npt.ArrayLike, probabilities: npt.ArrayLike) -> float:
    """A round's planned variance, up to the factor 1 / N^2: sum over the queries it may draw
    of (1 - pi) / pi u^2 (`expected_width`'s, squared); what `combine_rounds`' weights are
    made of."""
    u = np.asarray(uncertainty, dtype=np.float64)
    pi = np.asarray(probabilities, dtype=np.float64)
    live = pi > 0
    return float(np.sum((1 - pi[live]) / pi[live] * u[live] ** 2))


def expected_width(uncertainty: npt.ArrayLike, probabilities: npt.ArrayLike, *,
                   alpha: float = 0.05) -> float:
    """The interval's expected width when each query's gold-minus-proxy difference has the
    scale ``uncertainty`` (lam = 1): 2 z sqrt((1/N^2) sum (1 - pi)/pi u^2). For comparing
    plans of one cost, not a promise about one draw."""
    u = np.asarray(uncertainty, dtype=np.float64)
    pi = np.asarray(probabilities, dtype=np.float64)
    if ((u > 0) & (pi <= 0)).any():
        return math.inf
    live = u > 0
    variance = float(np.sum((1 - pi[live]) / pi[live] * u[live] ** 2)) / len(u) ** 2
    return 2 * t_quantile(1 - alpha / 2, 1e6) * math.sqrt(variance)


def budget_for_width(uncertainty: npt.ArrayLike, width: float, *, alpha: float = 0.05,
                     uniform_share: float = UNIFORM_SHARE) -> int:
    """The fewest expected labelled queries whose plan's `expected_width` is at most
    ``width`` (bisection on the budget); the number of uncertain queries when even labelling
    all of them is needed."""
    u = np.asarray(uncertainty, dtype=np.float64)
    n_open = int((u > 0).sum())
    low, high = 0, n_open
    while low < high:
        middle = (low + high) // 2
        pi = inclusion_probabilities(u, middle, uniform_share=uniform_share)
        if middle > 0 and expected_width(u, pi, alpha=alpha) <= width:
            high = middle
        else:
            low = middle + 1
    return low


def _tuned(p: Vector, g: Vector, d: npt.NDArray[np.bool_], pi: Vector,
           spread: Vector) -> float:
    """The lam in [0, 1] that makes the estimated variance smallest: sum w g p / sum w p^2,
    with w = (1 - pi) / pi, the numerator estimated from the drawn queries (weighted by
    1 / pi) and the denominator known for all."""
    denominator = float(np.sum(spread * p * p))
    if denominator <= 0.0 or not d.any():
        return 1.0
    numerator = float(np.sum(np.where(d, spread * np.where(d, g, 0.0) * p
                                      / np.where(d, pi, 1.0), 0.0)))
    return float(np.clip(numerator / denominator, 0.0, 1.0))


__all__ = ["UNIFORM_SHARE", "DesignEstimate", "budget_for_width", "combine_rounds",
           "design_estimate", "draw", "expected_width", "inclusion_probabilities",
           "planned_variance", "round_weight"]
