"""A PPI++ analysis as text a person reads: what ``ranklens ppi`` prints.

It lays out a ``PPIAnalysis``: the four estimates (each with how its interval is computed),
the sentences of ``ranklens.ppi.verdict_words`` (the same the page and its HTML export show),
then the warnings, the random-sample assumption, the judge and the files read (as ``ranklens
compare`` lists them), in the order of ``ranklens.ppi.outline``. It computes nothing (that is
``ranklens.ppi.analysis``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from ranklens.compare.sections.inputs import inputs_text
from ranklens.document import text as text_writer
from ranklens.formats import (
    DASH,
    format_delta,
    format_interval,
    format_p,
    level_number,
    plain,
    plain_table,
)
from ranklens.ppi import verdict_words
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import RANDOM_SAMPLE_ASSUMPTION, PPIAnalysis
from ranklens.ppi.judge_views import judge_lines
from ranklens.ppi.outline import SECTIONS
from ranklens.ppi.verdict_words import ppi_sentences

__all__ = ["ppi_sentences", "render_ppi"]


def render_ppi(analysis: PPIAnalysis, width: int = 100) -> str:
    """What ``ranklens ppi`` prints: the sections of ``ranklens.ppi.outline`` in its order (the
    four estimates and what they say, the warnings, the random-sample assumption, the judge,
    the files read)."""
    drawers: dict[str, Callable[[PPIAnalysis, int], list[str]]] = {
        "verdict": _verdict_lines, "warnings": _warning_lines, "notes": _assumption_lines,
        "judge": _judge_lines, "inputs": _input_lines}
    out: list[str] = []
    for key in SECTIONS:
        lines = drawers[key](analysis, width) if key in drawers else []
        while lines and not lines[-1]:
            lines = lines[:-1]
        if lines:  # one blank line between sections
            out += [*lines, ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _verdict_lines(analysis: PPIAnalysis, width: int) -> list[str]:
    """The four estimates as a table, how their intervals are computed, what they say."""
    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    level = level_number(1 - best.alpha)
    header = ["estimate", "B \u2212 A", f"{level}% CI", "interval", "p", "proxy weight",
              "queries"]
    rows = []
    for item in analysis.estimates:
        r = item.result
        weight = DASH if item.key == "proxy" else f"{r.lam:.2f}"
        rows.append([verdict_words.estimate_label(analysis, item.key), format_delta(r.delta),
                     format_interval(r.ci_low, r.ci_high),
                     verdict_words.interval_method(r, item.key),
                     format_p(r.p_value), weight, verdict_words.measured_on(r, item.key)])
    out = [f"{analysis.metric}: B = {name_b}, A = {name_a}; proxy judgements corrected on a "
           "gold sample (PPI++)", ""]
    out += plain_table(header, rows, {1, 2, 4, 5})
    out.append("")
    out.extend(textwrap.wrap(plain(verdict_words.intervals_note(analysis)), width))
    out.append("")
    for sentence in ppi_sentences(analysis):
        out.extend(textwrap.wrap(plain(sentence), width))
        out.append("")
    return out


def _warning_lines(analysis: PPIAnalysis, width: int) -> list[str]:
    """The warnings but the random-sample assumption (a note of its own), and the rows a
    reader set aside, as the page and the HTML export list them; none: nothing."""
    found = ppi_views.warnings_section(analysis)
    return [] if found is None else text_writer.section_lines(found, width)


def _assumption_lines(analysis: PPIAnalysis, width: int) -> list[str]:
    """The random-sample assumption, which holds whatever the numbers say."""
    return textwrap.wrap(f"Assumption: {RANDOM_SAMPLE_ASSUMPTION}", width)


def _judge_lines(analysis: PPIAnalysis, width: int) -> list[str]:
    """The judge checked on the gold queries (``ranklens.ppi.judge_views``); none: nothing."""
    return [] if analysis.judge is None else judge_lines(analysis.judge, width)


def _input_lines(analysis: PPIAnalysis, width: int) -> list[str]:
    """The files read, as ``ranklens compare`` lists them."""
    return inputs_text(analysis.inputs) if analysis.inputs else []
