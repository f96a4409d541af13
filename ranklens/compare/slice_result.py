"""A slice of queries found and confirmed by the "and where?" search: data only (issue 48).

What `ranklens.compare.discovery` adds to a Report; kept apart so that the Report, which
holds it, imports no step.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranklens import codec
from ranklens.stats.slices import HeldOutTest


@dataclass(frozen=True)
class DiscoveredSlice(HeldOutTest):
    """One slice as confirmed on the held-out queries: its numbers are those of
    `ranklens.stats.slices.Slice` (`HeldOutTest`); ``columns`` maps each column (or feature)
    to its value; ``confirmed`` whether its family-wise p is at most the report's alpha;
    ``queries`` are every query it holds (searched and held-out alike, in id order): what the
    drill-down opens."""

    columns: dict[str, str]
    confirmed: bool
    queries: tuple[str, ...] = ()

    def label(self, chosen_column: str | None = None) -> str:
        """``intent = navigational & locale = de``; a value of ``chosen_column`` (the forest
        plot's) says so."""
        named = " & ".join(f"{k} = {v}" for k, v in self.columns.items())
        return (f"{named} (a segment of the forest plot)"
                if chosen_column is not None and list(self.columns) == [chosen_column]
                else named)


codec.register(DiscoveredSlice, codec.Form(
    order=("columns", "n_queries", "delta", "ci_low", "ci_high", "rest_delta", "p_value",
           "q_value", "confirmed"), omit_default=("queries",)))


__all__ = ["DiscoveredSlice"]
