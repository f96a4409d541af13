"""Errors and warnings of ranklens.stats: nothing to compare vs. computable but unreliable.

Also the one check of a probability-valued argument (alpha, power, a quantile) that every
stats function taking one makes.
"""

from __future__ import annotations

from ranklens.errors import RanklensError, RanklensWarning


class InsufficientSampleError(RanklensError, ValueError):
    """There is nothing to compare: fewer units than the method needs at all.

    ``n`` is how many were there, ``needed`` the least that the method can work with and
    ``unit`` what was counted ("paired queries", "gold queries").
    """

    def __init__(self, n: int, needed: int, unit: str = "paired queries") -> None:
        self.n = n
        self.needed = needed
        self.unit = unit
        super().__init__(
            f"{n} {unit}: at least {needed} are needed to compare anything; "
            f"check that both sides were measured on the same query ids"
        )

    def __reduce__(self) -> tuple[type[InsufficientSampleError], tuple[int, int, str]]:
        return (type(self), (self.n, self.needed, self.unit))


class SmallSampleWarning(RanklensWarning):
    """The numbers are computable but too unstable to rely on (too few queries)."""


def check_probability(name: str, value: float) -> None:
    """Raise ValueError unless ``0 < value < 1`` (NaN fails too); ``name`` is the argument's."""
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be in (0, 1), got {value}")
