"""The "Where B differs most" section of a compare report (issue 48), written once.

Answers "which groups of queries have a B - A unlike the rest's", as found by
``--discover`` (``ranklens.compare.discovery``): how the search was done (how many slices, on
which half), then each slice with its held-out B - A, interval, p and q, confirmed or not. No
section when the report has no search. Every face draws it (text, Markdown, HTML).
"""

from __future__ import annotations

from ranklens.compare.report import Report
from ranklens.document.blocks import Block, Items, Paragraph, Section, section
from ranklens.formats import format_delta, format_interval, format_level, format_p

TITLE = "Where B differs most"


def discovered_section(report: Report) -> Section | None:
    """The slices found, or None when the report has no search (``--discover``)."""
    how = report.params.get("discover")
    if not how:
        return None
    alpha = float(report.params.get("alpha", 0.05))
    level = format_level(1 - alpha)
    names = report.run_names
    lead = (f"{how['searched']:,} candidate slices of at least {how['min_size']} queries "
            f"(each value of {', '.join(how['features'])}, and pairs of them) were searched on "
            f"{how['search_queries']:,} queries drawn at random (seed {how['seed']}) for a "
            f"{how['metric']} B \u2212 A ({names[1]} \u2212 {names[0]}) unlike the rest's; the "
            f"{len(report.discovered)} strongest are estimated on the other "
            f"{how['confirm_queries']:,} queries, which the search never saw, with q-values "
            "over them.")
    confirmed = [s for s in report.discovered if s.confirmed]
    verdict = (f"{len(confirmed)} confirmed at q <= {alpha:g}." if confirmed else
               f"None is confirmed at q <= {alpha:g}: no group of queries was found whose "
               "B \u2212 A differs from the rest's beyond chance.")
    chosen = report.params.get("segment_column")
    lines = tuple(
        f"{s.label(chosen)}: B \u2212 A {format_delta(s.delta)} ({level} CI "
        f"{format_interval(s.ci_low, s.ci_high)}) on {s.n_queries} held-out queries, the rest "
        f"{format_delta(s.rest_delta)}; p {_p(s.p_value)}, q {_p(s.q_value)}"
        f"{' (confirmed)' if s.confirmed else ''}"
        for s in report.discovered)
    blocks: list[Block] = [Paragraph(lead), Paragraph(verdict), Items(lines)]
    if any(k == "baseline score" for s in report.discovered for k in s.columns):
        blocks.append(Paragraph(f"Note: {how['caveat']}."))
    return section("discovered", TITLE, blocks)


def _p(value: float) -> str:
    """p or q as every table writes it, with "=" before a number (``p = 0.031``)."""
    written = format_p(value)
    return written if written.startswith("<") else f"= {written}"


__all__ = ["discovered_section"]
