"""A PPI++ analysis as text a person reads: what ``ranklens ppi`` prints.

It lays out a ``PPIAnalysis``: the four estimates (each with how its interval is computed),
the sentences of ``ranklens.ppi.verdict_words`` (the same the page and its HTML export show), the
files read (as ``ranklens compare`` lists them), then the warnings and the random-sample
assumption. It computes nothing (that is
``ranklens.ppi.analysis``).
"""

from __future__ import annotations

import textwrap

from ranklens.compare.sections.inputs import inputs_text
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
from ranklens.ppi.analysis import RANDOM_SAMPLE_ASSUMPTION, PPIAnalysis
from ranklens.ppi.judge_views import judge_lines
from ranklens.ppi.verdict_words import ppi_sentences

__all__ = ["ppi_sentences", "render_ppi"]


def render_ppi(analysis: PPIAnalysis, width: int = 100) -> str:
    """What ``ranklens ppi`` prints: the four estimates, then what they say, warnings last."""
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
    if analysis.inputs:  # the files as ranklens compare lists them
        out += [*inputs_text(analysis.inputs), ""]
    messages = [m for m in analysis.warnings if m != RANDOM_SAMPLE_ASSUMPTION]
    if messages:
        out.append("Warnings:")
        for message in messages:
            out.extend(textwrap.wrap(message, width, initial_indent="  - ",
                                     subsequent_indent="    "))
        out.append("")
    out.extend(textwrap.wrap(f"Assumption: {RANDOM_SAMPLE_ASSUMPTION}", width))
    if analysis.judge is not None:
        out += ["", *judge_lines(analysis.judge, width)]
    return "\n".join(out).rstrip("\n") + "\n"
