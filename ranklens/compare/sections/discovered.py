"""The "Where B differs most" section of a compare report (issue 48), written once.

Answers "which groups of queries have a B - A unlike the rest's", as found by
``--discover`` (``ranklens.compare.discovery``): how the search was done (how many slices, on
which queries), then each slice with its held-out B - A, interval, p and family-wise p,
confirmed or not. No section when the report has no search. Every face draws it (text,
Markdown, HTML).
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
    tests = int(how.get("tests", 0))  # 0 in reports written before the cross-fitted search
    ci_level = format_level(1 - alpha / tests) if tests else format_level(1 - alpha)
    adjusted = "family-wise p" if tests else "q"
    names = report.run_names
    lead = _how_searched(how, len(report.discovered), names)
    confirmed = [s for s in report.discovered if s.confirmed]
    verdict = (f"{len(confirmed)} confirmed at {adjusted} <= {alpha:g}." if confirmed else
               f"None is confirmed at {adjusted} <= {alpha:g}: no group of queries was "
               "found whose B \u2212 A differs from the rest's beyond chance.")
    chosen = report.params.get("segment_column")
    lines = tuple(
        f"{s.label(chosen)}: B \u2212 A {format_delta(s.delta)} ({ci_level} CI "
        f"{format_interval(s.ci_low, s.ci_high)}) on {s.n_queries} held-out queries, "
        f"{_gap(s.delta - s.rest_delta)} the rest's {format_delta(s.rest_delta)}; "
        f"p {_p(s.p_value)}, {adjusted} {_p(s.q_value)}"
        f"{' (confirmed: unlike the rest)' if s.confirmed else ''}"
        for s in report.discovered)
    blocks: list[Block] = [Paragraph(lead), Paragraph(verdict), Items(lines)]
    if any(k == "baseline score" for s in report.discovered for k in s.columns):
        blocks.append(Paragraph(f"Note: {how['caveat']}."))
    return section("discovered", TITLE, blocks)


def _how_searched(how: dict, reported: int, names: tuple[str, ...] | list[str]) -> str:
    """How the search was done: a cross-fitted one (issue 48's second form), or the one split
    of reports written before it (they open with their own words)."""
    searched = (f"{how['searched']:,} candidate slices of at least {how['min_size']} queries "
                f"(each value of {', '.join(how['features'])}, and pairs of them) were searched "
                f"for a {how['metric']} B \u2212 A ({names[1]} \u2212 {names[0]}) unlike the "
                "rest's")
    if how.get("method") != "cross-fitted":
        return (f"{searched}, on {how['search_queries']:,} queries drawn at random (seed "
                f"{how['seed']}); the {reported} strongest are estimated on the other "
                f"{how['confirm_queries']:,} queries, which the search never saw, with q-values "
                "over them.")
    return (f"{searched}, on each half of a random split of the queries ({how['search_queries']:,}"
            f" and {how['confirm_queries']:,}, seed {how['seed']}). Each half's strongest "
            f"slices are tested on the other half, which their search never saw, on the side "
            f"the search saw (one-sided p): "
            f"{how['tests']} tests, one Holm family (the family-wise p), and each interval at "
            f"the family's level, so that it holds for a slice picked because it was confirmed.")


def _gap(gap: float) -> str:
    """How far a slice's B - A lies from the rest's: what its p tests (its interval is of its
    own B - A, which may hold 0 while the gap is clear)."""
    return f"{format_delta(abs(gap)).lstrip('+')} {'below' if gap < 0 else 'above'}"


def _p(value: float) -> str:
    """p or q as every table writes it, with "=" before a number (``p = 0.031``)."""
    written = format_p(value)
    return written if written.startswith("<") else f"= {written}"


__all__ = ["discovered_section"]
