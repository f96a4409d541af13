"""Result types of ranklens.stats: frozen records of what was computed and with which settings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Seed = int | np.random.SeedSequence

# Decisions compare a p- or q-value with alpha. Values such as 0.03 * 5 / 3 land a few ulps
# either side of 0.05; a mathematically tied value must count as "at most alpha".
_DECISION_SLACK = 1e-12


def at_most(value: float, alpha: float) -> bool:
    """Whether ``value <= alpha``, forgiving floating-point noise of a few ulps.

    This is the one decision rule of the package (a p- or q-value "at or below alpha" is a
    discovery), so that ``significant`` and `ranklens.stats.multiple.rejected` agree.
    """
    return value <= alpha * (1.0 + _DECISION_SLACK)


@dataclass(frozen=True)
class BootstrapInterval:
    """Bootstrap confidence interval of the mean per-query difference B - A.

    ``method`` is ``"percentile"`` or ``"studentized"`` (bootstrap-t). It says how precisely
    the mean is measured; it tests nothing.
    """

    delta: float
    low: float
    high: float
    alpha: float
    n_queries: int
    n_resamples: int
    seed: Seed
    method: str = "percentile"

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


class _Decided:
    """What ComparisonResult and PPIComparison share: the decision from p, or q once set."""

    p_value: float
    q_value: float | None
    alpha: float

    @property
    def significant(self) -> bool:
        """Discovery at ``alpha``: the q-value when set (after `adjust`), else the p-value."""
        return at_most(self.p_value if self.q_value is None else self.q_value, self.alpha)


@dataclass(frozen=True)
class ComparisonResult(_Decided):
    """Run B against run A on one metric: means, interval, p-values and effect sizes.

    ``ci_low``/``ci_high`` is the bootstrap interval (``interval`` says which kind),
    ``p_value`` the sign-flip permutation p-value; ``t_p_value`` and ``t_ci_low``/``t_ci_high``
    the paired t-test beside them. ``effect_size`` is the standardized mean difference of the
    per-query deltas (mean / sd, Cohen's d_z). ``n_only_a``/``n_only_b`` count queries measured
    in one run only, handled as ``missing`` says. ``q_value`` is None until `adjust`.
    """

    metric: str
    mean_a: float
    mean_b: float
    delta: float
    ci_low: float
    ci_high: float
    alpha: float
    p_value: float
    t_p_value: float
    t_ci_low: float
    t_ci_high: float
    n_queries: int
    wins: int
    ties: int
    losses: int
    effect_size: float
    n_resamples: int
    n_permutations: int
    seed: Seed
    interval: str
    n_only_a: int
    n_only_b: int
    missing: str = "drop"
    q_value: float | None = None


@dataclass(frozen=True)
class PPIComparison(_Decided):
    """Difference B - A measured on proxy judgements and corrected on a gold sample (PPI++).

    ``lam`` is the weight that was used for the proxy part (0: gold only, 1: classic PPI);
    ``n_proxy`` counts proxy-only queries, ``n_gold`` gold queries. The interval and p-value
    are normal approximations. ``q_value`` is None until `adjust`.
    """

    metric: str
    mean_a: float
    mean_b: float
    delta: float
    ci_low: float
    ci_high: float
    alpha: float
    p_value: float
    lam: float
    n_proxy: int
    n_gold: int
    q_value: float | None = None


@dataclass(frozen=True)
class TTest:
    """Paired t-test of the mean per-query difference: statistic, p-value and t-interval.

    ``p_value`` is two-sided against a mean difference of 0; ``low``/``high`` the
    ``1 - alpha`` t-interval of the mean difference. Both assume the mean is near normal
    (central limit theorem), which holds well for the query counts of IR test collections.
    """

    delta: float
    statistic: float
    df: int
    p_value: float
    low: float
    high: float
    alpha: float
