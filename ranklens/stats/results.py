"""Result types of ranklens.stats: frozen records of what was computed and with which settings."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ranklens.data import QueryId

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
    """Confidence interval of the mean per-query difference B - A.

    ``method`` is ``"percentile"`` or ``"studentized"`` (bootstrap-t), or ``"sign-flip"``: the
    exact permutation test inverted (`ranklens.stats.sign_flip`), whose ``n_resamples`` is the
    number of sign patterns enumerated and whose ``seed`` is 0 (nothing is drawn). It says how
    precisely the mean is measured; it tests nothing. An end that cannot be bounded is
    infinite (and was warned about), never a large finite placeholder.
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
        """Discovery at ``alpha``: the q-value when set (after `adjust`), else the p-value.

        "At most alpha" (``<=``), as the textbook rules and statsmodels decide; the seeds'
        methods page writes ``q < alpha``. They differ only for a value exactly at alpha.
        """
        return at_most(self.p_value if self.q_value is None else self.q_value, self.alpha)


@dataclass(frozen=True)
class ComparisonResult(_Decided):
    """Run B against run A on one metric: means, interval, p-values and effect sizes.

    ``ci_low``/``ci_high`` is the interval of the mean difference; ``interval`` says which one
    was used ("studentized", "percentile" or "sign-flip"; `ranklens.stats.interval_description`
    says it in words). ``p_value`` is the sign-flip permutation p-value; ``t_p_value`` and
    ``t_ci_low``/``t_ci_high`` the paired t-test beside them. ``effect_size`` is the
    standardized mean difference of the per-query deltas (mean / sd, Cohen's d_z).
    ``n_only_a``/``n_only_b`` count queries measured in one run only, handled as ``missing``
    says. ``n_snapped`` counts per-query differences within float noise of 0 that were set to
    exactly 0 (`ranklens.stats.tolerance`). ``q_value`` is None until `adjust`.
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
    n_snapped: int = 0


@dataclass(frozen=True)
class PPIComparison(_Decided):
    """Difference B - A measured on proxy judgements and corrected on a gold sample (PPI++).

    ``lam`` is the weight that was used for the proxy part (0: gold only, 1: classic PPI);
    ``n_proxy`` counts proxy-only queries, ``n_gold`` gold queries. The interval and p-value
    use Student's t with ``df`` degrees of freedom (``inf``: the normal approximation);
    ``method`` says how (`ranklens.stats.ppi.PPI_METHODS`). ``unpaired_gold_a``/``_b`` are
    the gold queries measured in run A (B) only and ``unpaired_proxy_a``/``_b`` the same under
    proxy judgements: left out, and warned about. ``q_value`` is None until `adjust`.
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
    df: float = math.inf
    method: str = "asymptotic"
    unpaired_gold_a: tuple[QueryId, ...] = ()
    unpaired_gold_b: tuple[QueryId, ...] = ()
    unpaired_proxy_a: tuple[QueryId, ...] = ()
    unpaired_proxy_b: tuple[QueryId, ...] = ()

    @property
    def n_unpaired_gold(self) -> int:
        """Gold queries left out because only one of the runs was measured on them."""
        return len(self.unpaired_gold_a) + len(self.unpaired_gold_b)


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
