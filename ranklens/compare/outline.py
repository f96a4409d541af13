"""The order of a comparison report's sections, written once for every face.

Answers "what does a compare report say, in which order": the health checks, the warnings (a
reader must see them early), the several collections (one section per candidate), the
leaderboard of each metric (several candidates), every run on every metric in one table (two
metrics or more), the metrics (each candidate's, when there are several), what differs
(discovered slices), the inputs and the parameters.

A part is a `Section` of blocks where the section is written once
(``ranklens.compare.sections``, ``ranklens.health.section``), or a `Slot` that each face still
draws on its own until that section is blocks too (docs/architecture.md, "Still on the old
path"). Text, Markdown and the HTML export draw `outline` in its order; a face leaves out
what it has no form for (text and Markdown print no parameters: they name the settings where
they use them). It computes nothing, draws
nothing and knows no face; the page keeps its own layout of interactive parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ranklens.compare.report import Report
from ranklens.compare.sections.all_metrics import all_metrics_section
from ranklens.compare.sections.collections import collections_section, macro_parts
from ranklens.compare.sections.discovered import discovered_section
from ranklens.compare.sections.inputs import inputs_section, parameters_section
from ranklens.compare.sections.warnings import warnings_section
from ranklens.document.blocks import Section
from ranklens.health.section import health_section

SlotKey = Literal["leaderboard", "metrics"]
SLOTS: tuple[SlotKey, ...] = ("leaderboard", "metrics")
"""The sections each face still draws itself: the leaderboard of one metric (several
candidates) and the metric sections (two runs: each metric's; several: each candidate's)."""


@dataclass(frozen=True)
class Slot:
    """A section a face draws itself: its ``key`` (one of `SLOTS`) and, for a leaderboard,
    its ``metric``."""

    key: SlotKey
    metric: str = ""


Part = Section | Slot
"""A part of the outline: a section written once, or a slot a face draws itself."""


def outline(report: Report) -> list[Part]:
    """The parts of ``report`` in the order every face shows them; a section with nothing to
    say (no health checks, no warnings, no collections, nothing discovered) is left out."""
    parts: list[Part | None] = [
        health_section(report.health), warnings_section(report),
        *(collections_section(sections, names) for names, sections in macro_parts(report))]
    if report.several:
        parts += [Slot("leaderboard", metric) for metric in report.metrics]
    parts += [all_metrics_section(report), Slot("metrics"), discovered_section(report),
              inputs_section(report.inputs), parameters_section(report.params, report.version)]
    return [part for part in parts if part is not None]


__all__ = ["SLOTS", "Part", "Slot", "SlotKey", "outline"]
