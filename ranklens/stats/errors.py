"""Errors and warnings of ranklens.stats: nothing to compare vs. computable but unreliable."""

from __future__ import annotations


class InsufficientSampleError(ValueError):
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


class SmallSampleWarning(UserWarning):
    """The numbers are computable but too unstable to rely on (too few queries)."""
