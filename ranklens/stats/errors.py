"""Errors and warnings of ranklens.stats: nothing to compare vs. computable but unreliable.

Also the one check of a probability-valued argument (alpha, power, a quantile) that every
stats function taking one makes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranklens.errors import RanklensError, RanklensWarning


@dataclass(eq=False, repr=False)
class InsufficientSampleError(RanklensError, ValueError):
    """There is nothing to compare: fewer units than the method needs at all.

    ``n`` is how many were there, ``needed`` the least that the method can work with and
    ``unit`` what was counted ("paired queries", "gold queries").
    """

    n: int
    needed: int
    unit: str = "paired queries"

    def __str__(self) -> str:
        return (f"{self.n} {self.unit}: at least {self.needed} are needed to compare anything; "
                "check that both sides were measured on the same query ids")


class SmallSampleWarning(RanklensWarning):
    """The numbers are computable but too unstable to rely on (too few queries)."""


def check_probability(name: str, value: float) -> None:
    """Raise ValueError unless ``0 < value < 1`` (NaN fails too); ``name`` is the argument's."""
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be in (0, 1), got {value}")
