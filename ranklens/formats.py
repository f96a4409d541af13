"""How numbers read, on every page and in every export: one format per quantity.

A difference is signed with a real minus (``+0.0483``, ``\u22120.0930``), a p- or q-value has
three significant places down to ``< 0.001``, an interval reads ``+0.0148 to +0.0447``. The
CLI, the pages and the HTML exports all format through here, so a number never reads one way
on the page and another in the file. ``Card`` is one headline number as the pages and the HTML
exports show it. Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

MINUS = "\u2212"
DASH = "\u2014"


def format_p(p: float) -> str:
    """A p- or q-value for people: ``< 0.001`` below a thousandth, else three decimals."""
    if p < 0.001:
        return "< 0.001"
    if p < 0.01:
        return f"{p:.4f}"
    return f"{p:.3f}"


def format_delta(value: float, digits: int = 4) -> str:
    """A signed difference with a real minus sign: ``+0.0483``, ``−0.0930``."""
    text = f"{value:+.{digits}f}"
    return text.replace("-", MINUS)


def format_interval(low: float, high: float, digits: int = 4) -> str:
    """An interval of differences as the pages write it: ``+0.0148 to +0.0447``."""
    return f"{format_delta(low, digits)} to {format_delta(high, digits)}"


class Card(NamedTuple):
    """One metric card: ``label``, ``value`` as shown, ``exact`` number (None for words),
    ``help`` (the card's tooltip) and ``delta`` (a change shown under the value)."""

    label: str
    value: str
    exact: float | int | None
    help: str = ""
    delta: str = ""


def card_dict(card: Card) -> dict[str, Any]:
    """A card as a JSON object: its label, the value as shown and the exact value."""
    return {"label": card.label, "shown": card.value, "value": card.exact}


def plain_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                right: set[int]) -> list[str]:
    """A fixed-width text table (header, rule, rows); columns in ``right`` align right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
