"""The Warnings section of a compare report: what the reader must not miss below the numbers.

Answers "what went wrong or was left out on the way to these numbers": the report's warnings
(dropped queries, unscorable runs, tie notes ...) and every group of rows a reader set aside
(`ranklens.compare.sections.inputs.set_aside_lines`), as one warning list. No section when
there is nothing to say. Every face draws this one section (text, Markdown, HTML, the page).
"""

from __future__ import annotations

from ranklens.compare.report import Report
from ranklens.compare.sections.inputs import set_aside_lines
from ranklens.document.blocks import Items, Section, section

TITLE = "Warnings"


def warnings_section(report: Report) -> Section | None:
    """The report's warnings and the rows its readers set aside; None when there are none."""
    return section("warnings", TITLE,
                   [Items((*report.warnings, *set_aside_lines(report.inputs)), "warning")])
