"""The look every chart shares: colours, fitted width and log-axis ticks (Altair).

Feature charts live with their feature (``ranklens.compare.charts``, ``ranklens.plan.charts``,
``ranklens.ppi.charts``); this module holds only what they have in common. No Streamlit here.
"""

from __future__ import annotations

import math

import altair as alt

FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")
CURVE = "#0969da"
CHOSEN = "#cf222e"
MUTED = "#8c959f"
TARGET = "#9a6700"

BASELINE_COLOUR = "#57606a"
RUN_COLOURS = ("#0969da", "#bf3989", "#1a7f37", "#bc4c00", "#8250df", "#1b7c83", "#9a6700",
               "#cf222e", "#4d2d00", "#0550ae")
"""Candidates' colours, by position among the runs (1 = the first candidate); the baseline is
grey. A run keeps its colour on every chart and in every list of runs."""


def run_colour(position: int) -> str:
    """The colour of run ``position`` (0 the baseline), the same wherever the run is shown."""
    if position == 0:
        return BASELINE_COLOUR
    return RUN_COLOURS[(position - 1) % len(RUN_COLOURS)]


def log_ticks(low: float, high: float, steps: tuple[int, ...] = (1, 2, 5)) -> list[float]:
    """Tick values between ``low`` and ``high`` at ``steps`` times each power of ten.

    A log axis gets a grid line at every unit otherwise (2, 3, ..., 9, 20, 30 ...).
    """
    ticks = []
    decade = 10.0 ** math.floor(math.log10(low))
    while decade <= high:
        ticks += [m * decade for m in steps if low <= m * decade <= high]
        decade *= 10
    return ticks


def width_ticks(bounds: list[float]) -> list[float]:
    """Ticks for an axis of interval widths: 1, 2, 3 and 5 times each power of ten."""
    return log_ticks(bounds[0], bounds[1], steps=(1, 2, 3, 5))
