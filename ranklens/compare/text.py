"""A comparison Report as text a person reads: text, Markdown, CSV and JSON.

Every format shows the same rows (overall, then one per segment) and the text forms carry the
same sentences as the app (``ranklens.compare.verdict_words``). Rendering computes nothing: every
number is read from the Report, so ``--format json`` is ``Report.to_json()`` itself.

A report of several candidates opens with a leaderboard per metric (the baseline's mean, then
each candidate's mean, B − A, interval, p, adjusted p and W/T/L) and the family's sentences,
then each candidate's sections as a two-run report shows them.

HTML is ``ranklens.compare.html``; the MDE and PPI texts are ``ranklens.plan.text`` and
``ranklens.ppi.text``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from ranklens.compare import columns, coverage_words
from ranklens.compare.columns import MARK, Column
from ranklens.compare.csv_report import render_csv
from ranklens.compare.outline import Part, outline
from ranklens.compare.report import Report
from ranklens.compare.sections import metric as metric_section
from ranklens.compare.sections.candidates import candidates_table, pairs_block
from ranklens.compare.sections.inputs import read_as as read_as  # their old home
from ranklens.compare.sections.inputs import set_aside_lines as set_aside_lines
from ranklens.compare.sections.seeds import leaderboard_section
from ranklens.compare.sections.segments import segments_table
from ranklens.compare.sections.ties import tie_note as tie_note  # its old home
from ranklens.compare.segments import MetricComparison
from ranklens.compare.verdict_words import (
    family_sentence,
    leaderboard_summary,
    pairing_sentence,
)
from ranklens.document import markdown as markdown_writer
from ranklens.document import text as text_writer
from ranklens.document.blocks import Section, Table
from ranklens.document.markdown import markdown_table
from ranklens.formats import plain_table
from ranklens.health import check_words as health_words

FORMATS = ("text", "json", "csv", "markdown")
def render(report: Report, fmt: str) -> str:
    """The report in ``fmt`` (one of ``FORMATS``), ending with a newline."""
    renderers: dict[str, Callable[[Report], str]] = {
        "text": render_text, "json": render_json, "csv": render_csv,
        "markdown": render_markdown,
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return renderers[fmt](report)


def render_json(report: Report) -> str:
    """``Report.to_json()`` byte for byte, plus a final newline."""
    return report.to_json() + "\n"


def segment_cells(comparison: MetricComparison, run_names: tuple[str, str], *,
                  markdown: bool = False, withheld: bool = False
                  ) -> tuple[list[Column], list[str], list[list[str]]]:
    """The columns, headers and display rows of one metric's table in text and Markdown: the
    narrow columns of ``ranklens.compare.sections.segments.segments_table``.

    Plain text leaves out the mark and note columns when no row has one; Markdown keeps them
    and heads the mark column "sig.". ``withheld``: no row is marked.
    """
    table = segments_table(comparison, run_names, withheld=withheld)
    shown = list(columns.narrow(table.columns))
    rows = columns.cells(shown, table.records)
    if not markdown:
        kept = [i for i, c in enumerate(shown)
                if c.kind not in ("mark", "text") or any(r[i] for r in rows)]
        shown = [shown[i] for i in kept]
        rows = [[r[i] for i in kept] for r in rows]
    header = columns.headers(shown, table.names)
    return shown, _sig(shown, header) if markdown else header, rows


def _sig(shown: list[Column], header: list[str]) -> list[str]:
    return ["sig." if c.kind == "mark" else h for c, h in zip(shown, header, strict=True)]


def render_text(report: Report, width: int = 100) -> str:
    """What ``ranklens compare`` prints: the parts of `ranklens.compare.outline.outline` in
    its order (health checks, warnings, collections, leaderboards, per metric a table and the
    verdict, what differs, the inputs)."""
    out: list[str] = []
    for part in outline(report):
        out += _text_part(report, part, width)
    return "\n".join(out).rstrip("\n") + "\n"  # no blank line after the last part


def _text_part(report: Report, part: Part, width: int) -> list[str]:
    """One part of the outline as text lines: a section of subsections as a body of the
    report (the collections), any other section as a listing; a slot drawn here."""
    if isinstance(part, Section):
        if any(isinstance(block, Section) for block in part.blocks):
            return text_writer.body_lines(part, width)
        lines = text_writer.section_lines(part, width)
        return [*lines, ""] if lines else []
    if part.key == "leaderboard":
        seeds = leaderboard_section(report, part.metric)
        return [*_leaderboard_text(report, part.metric, width),
                *([] if seeds is None else text_writer.body_lines(seeds, width))]
    if not report.several:
        return _metric_sections(report, width)
    out: list[str] = []
    for j in report.candidates:
        out += [f"== {report.run_names[j]} against {report.run_names[0]} ==", ""]
        out += _metric_sections(report.candidate_report(j), width, len(report.candidates))
    return out


def _metric_sections(report: Report, width: int, n_candidates: int = 1) -> list[str]:
    """Each metric's section (`ranklens.compare.sections.metric.metric_section`) as text."""
    return [line for comparison in report.comparisons
            for line in text_writer.body_lines(
                metric_section.metric_section(report, comparison, n_candidates), width)]


def leaderboard_cells(report: Report, metric: str, *, markdown: bool = False,
                      ) -> tuple[list[Column], list[str], list[list[str]]]:
    """The leaderboard of ``metric`` as display strings: the narrow columns of
    ``ranklens.compare.sections.candidates.candidates_table``, header and rows (baseline
    first, its name marked and its other cells empty)."""
    return _narrow_cells(candidates_table(report, metric), markdown)


def pairs_cells(report: Report, metric: str, *, markdown: bool = False,
                ) -> tuple[list[Column], list[str], list[list[str]]]:
    """Every pair of the family as display strings (all-pairs reports); no rows otherwise."""
    table = pairs_block(report, metric)
    if table is None:
        return list(columns.narrow(columns.PAIR_COLUMNS)), [], []
    return _narrow_cells(table, markdown)


def _narrow_cells(table: Table, markdown: bool) -> tuple[list[Column], list[str], list[list[str]]]:
    shown = list(columns.narrow(table.columns))
    header = columns.headers(shown, table.names)
    return shown, _sig(shown, header) if markdown else header, columns.cells(shown, table.records)


def family_lines(report: Report, metric: str) -> list[str]:
    """The sentences under a leaderboard: the verdict, the family, the pairing, the mark, and
    the runs' judgement coverage (`coverage_words.leaderboard_coverage`)."""
    family = report.family(metric)
    assert family is not None  # a report of several candidates has one per metric
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    return [leaderboard_summary(report.run_names, family, alpha,
                                health_words.withheld_runs(report.health, report.candidates)),
            family_sentence(family, len(report.run_names)),
            pairing_sentence(family, report.run_names),
            f"{MARK} = adjusted p \u2264 {alpha:g}. Intervals and p are each candidate's own "
            "comparison with the baseline, not adjusted.",
            *filter(None, [coverage_words.leaderboard_coverage(report, metric)]),
            *health_words.withheld_candidates(report.health, report.candidates)]


def _leaderboard_text(report: Report, metric: str, width: int) -> list[str]:
    shown, header, rows = leaderboard_cells(report, metric)
    out = [f"{metric}: {len(report.candidates)} candidates against {report.run_names[0]}", ""]
    out += plain_table(header, rows, columns.right(shown))
    family = report.family(metric)
    if family is not None and family.family == "all-pairs":
        pair_shown, pair_header, pair_rows = pairs_cells(report, metric)
        out += ["", "Every pair:", *plain_table(pair_header, pair_rows,
                                                columns.right(pair_shown))]
    out.append("")
    for sentence in family_lines(report, metric):
        out.extend(textwrap.wrap(sentence, width) or [""])
    out.append("")
    return out


def render_markdown(report: Report) -> str:
    """The text report as Markdown: a title, then the parts of
    `ranklens.compare.outline.outline` in its order (a heading and a table per metric, then
    the verdict; several candidates: a leaderboard per metric, then a section per candidate).
    """
    names = report.run_names
    out = ([f"# {len(report.candidates)} candidates vs {names[0]}", ""] if report.several
           else [f"# {report.pair_names[1]} vs {report.pair_names[0]}", ""])
    for part in outline(report):
        out += _markdown_part(report, part)
    return "\n".join(out).rstrip("\n") + "\n"


def _markdown_part(report: Report, part: Part) -> list[str]:
    """One part of the outline as Markdown lines (a slot drawn here)."""
    if isinstance(part, Section):
        return _markdown(part)
    if part.key == "leaderboard":
        return _leaderboard_markdown(report, part.metric)
    if not report.several:
        return _markdown_sections(report, "##")
    names = report.run_names
    out: list[str] = []
    for j in report.candidates:
        out += [f"## {names[j]} vs {names[0]}", ""]
        out += _markdown_sections(report.candidate_report(j), "###", len(report.candidates))
    return out


def _leaderboard_markdown(report: Report, metric: str) -> list[str]:
    """The leaderboard of ``metric`` in Markdown: the table, every pair (all-pairs families),
    the family's sentences and the seeds' lines."""
    _, header, rows = leaderboard_cells(report, metric, markdown=True)
    out = [f"## Leaderboard: {metric}", "", *markdown_table(header, rows), ""]
    family = report.family(metric)
    if family is not None and family.family == "all-pairs":
        _, pair_header, pair_rows = pairs_cells(report, metric, markdown=True)
        out += ["Every pair:", "", *markdown_table(pair_header, pair_rows), ""]
    for sentence in family_lines(report, metric):
        out += [sentence, ""]
    return out + _markdown(leaderboard_section(report, metric))


def _markdown(section: Section | None) -> list[str]:
    """``section`` in Markdown and the blank line after it (nothing for None, or for a section
    Markdown leaves out)."""
    lines = [] if section is None else markdown_writer.section_lines(section)
    return [*lines, ""] if lines else []


def _markdown_sections(report: Report, level: str, n_candidates: int = 1) -> list[str]:
    """Each metric's section (`ranklens.compare.sections.metric.metric_section`) in Markdown,
    its heading at ``level`` (``##``)."""
    return [line for comparison in report.comparisons
            for line in (*markdown_writer.section_lines(
                metric_section.metric_section(report, comparison, n_candidates), len(level)),
                "")]
