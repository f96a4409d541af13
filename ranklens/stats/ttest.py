"""Paired t-test and t-interval of the mean per-query difference."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ranklens.stats.distributions import t_ends, t_two_sided
from ranklens.stats.errors import InsufficientSampleError, check_probability
from ranklens.stats.pairing import Deltas, as_deltas, sample_sd
from ranklens.stats.results import TTest


def paired_t_test(deltas: Sequence[float] | Deltas, *, alpha: float = 0.05) -> TTest:
    """Two-sided paired t-test of H0 "mean difference is 0", and the t-interval.

    Reported beside the permutation p-value and the bootstrap interval: with tens of queries
    or more the t-test holds its nominal level on IR metrics as well as the permutation test
    (Urbano et al., SIGIR 2019). When every difference is the same there is no spread to
    measure: if it is 0 the p-value is 1 and the interval is [0, 0] (nothing differs); else the
    t statistic is undefined, and the statistic, p-value and interval are NaN (since 0.3; 0.2
    said p = 0 and a zero-width interval: three queries each 0.1 better is not proof, the
    sign-flip p-value of that is .25). The differences are taken as given (`compare` sets
    float noise to 0 first, see `ranklens.stats.tolerance`).
    """
    values = as_deltas(deltas)
    check_probability("alpha", alpha)
    n = values.size
    if n < 2:
        raise InsufficientSampleError(n, 2)
    delta = float(values.mean())
    standard_error = sample_sd(values) / math.sqrt(n)
    df = n - 1
    if standard_error == 0.0:
        if delta == 0.0:
            return TTest(delta, 0.0, df, 1.0, delta, delta, alpha)
        return TTest(delta, math.nan, df, math.nan, math.nan, math.nan, alpha)
    statistic = delta / standard_error
    low, high = t_ends(delta, standard_error, df, alpha)
    return TTest(
        delta=delta,
        statistic=statistic,
        df=df,
        p_value=t_two_sided(statistic, df),
        low=low,
        high=high,
        alpha=alpha,
    )
