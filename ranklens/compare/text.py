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

from ranklens.compare import columns, coverage_words, query_lines, seed_views
from ranklens.compare.columns import MARK, Column
from ranklens.compare.csv_report import render_csv
from ranklens.compare.fcr_words import disagreement_sentence, fcr_caption, level_text
from ranklens.compare.outline import Part, outline
from ranklens.compare.report import Report, result_row
from ranklens.compare.report_tables import (
    interval_levels,
    leaderboard_table,
    pairs_table,
    plot_order,
)
from ranklens.compare.sections.coverage_banner import coverage_banner
from ranklens.compare.sections.inputs import input_lines, inputs_text
from ranklens.compare.sections.inputs import read_as as read_as  # their old home
from ranklens.compare.sections.inputs import set_aside_lines as set_aside_lines
from ranklens.compare.sections.ties import tie_banner
from ranklens.compare.sections.ties import tie_note as tie_note  # its old home
from ranklens.compare.segments import MetricComparison
from ranklens.compare.verdict_words import (
    caveat,
    effect_size_note,
    family_sentence,
    headline,
    interval_note,
    leaderboard_summary,
    pairing_sentence,
    q_family_words,
    segments_summary,
)
from ranklens.document import markdown as markdown_writer
from ranklens.document import text as text_writer
from ranklens.document.blocks import Section
from ranklens.document.markdown import markdown_table
from ranklens.formats import level_number, plain_table
from ranklens.health import check_words as health_words
from ranklens.stats import interval_label

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


_NO_RESULT = {key: None for key in ("mean_a", "mean_b", "delta", "ci_low", "ci_high",
                                      "p_value", "q_value")}


def segment_records(comparison: MetricComparison, *,
                    withheld: bool = False) -> list[dict[str, object]]:
    """The rows of one metric in the forest plot's order (`report_tables.plot_order`: overall
    first, then the segments by difference) as records of
    `ranklens.compare.columns.SEGMENT_COLUMNS`; a too-small segment has its size, its note and
    None numbers (dashes). With ``withheld`` (no verdict drawn) no row is significant: the
    numbers stay, the marks go."""
    return [{**(_NO_RESULT if row.result is None else result_row(row.result)),
             "segment": row.segment, "n_queries": row.n_queries, "note": row.note,
             **interval_levels(row), **({"significant": False} if withheld else {})}
            for row in plot_order(comparison)]


def segment_cells(comparison: MetricComparison, run_names: tuple[str, str], *,
                  markdown: bool = False, withheld: bool = False
                  ) -> tuple[list[Column], list[str], list[list[str]]]:
    """The columns, headers and display rows of one metric's table (text and Markdown).

    Plain text leaves out the mark and note columns when no row has one; Markdown keeps them
    and heads the mark column "sig.". ``withheld``: no row is marked (`segment_records`).
    """
    has_fcr = any(row.fcr is not None for row in comparison.segments)
    shown = [c for c in columns.pick(columns.SEGMENT_COLUMNS, columns.SEGMENT_TEXT)
             if has_fcr or c.key != "fcr"]
    rows = columns.cells(shown, segment_records(comparison, withheld=withheld))
    if not markdown:
        kept = [i for i, c in enumerate(shown)
                if c.kind not in ("mark", "text") or any(r[i] for r in rows)]
        shown = [shown[i] for i in kept]
        rows = [[r[i] for i in kept] for r in rows]
    header = columns.headers(shown, _names(comparison, run_names))
    return shown, _sig(shown, header) if markdown else header, rows


def _names(comparison: MetricComparison, run_names: tuple[str, str]) -> dict[str, object]:
    fcr = "" if comparison.fcr is None else level_text(comparison.fcr.level)
    return {"a": run_names[0], "b": run_names[1], "segment": comparison.segment_column or "segment",
            "level": level_number(1 - comparison.overall.alpha), "fcr_level": fcr}


def _interval_notes(comparison: MetricComparison) -> list[str]:
    """Which segment intervals the table shows, and where one reads differently from its q."""
    return [t for t in (fcr_caption(comparison), disagreement_sentence(comparison)) if t]


def _sig(shown: list[Column], header: list[str]) -> list[str]:
    return ["sig." if c.kind == "mark" else h for c, h in zip(shown, header, strict=True)]


def aligned_table(comparison: MetricComparison, run_names: tuple[str, str], *,
                  withheld: bool = False) -> list[str]:
    """The rows of one metric as aligned plain-text lines (header and rule first)."""
    shown, header, rows = segment_cells(comparison, run_names, withheld=withheld)
    return plain_table(header, rows, columns.right(shown))


def _settings_line(comparison: MetricComparison, n_candidates: int = 1) -> str:
    result = comparison.overall
    adjusted = {"bh": "Benjamini-Hochberg", "by": "Benjamini-Yekutieli", "holm": "Holm"}.get(
        comparison.adjust_method, comparison.adjust_method)
    family = q_family_words(comparison.family if comparison.segments else "metrics",
                            n_candidates)
    decided = (f"{MARK} = q, overall: adjusted p {comparison.overall_family}"
               if comparison.overall_family else f"{MARK} = q (else p)")
    method = result.interval.method
    resamples = ("" if method in ("sign-flip", "skew-guarded")
                 else f" ({result.n_resamples:,} resamples)")
    tested = ("skew-guarded p (sign-flip permutation p or skew-corrected t p, the larger; "
              if method == "skew-guarded" else "sign-flip permutation p (")
    return (f"{interval_label(method)}{resamples}, "
            f"{tested}{result.n_permutations:,} permutations), "
            f"q: {adjusted} {family}; {decided} \u2264 {result.alpha:g}")


def _verdict(comparison: MetricComparison, run_names: tuple[str, str],
             report: Report | None = None) -> list[str]:
    if report is not None and health_words.withholds(report.health):
        return [*health_words.verdict_or_withheld(report.health, []),
                *filter(None, [segments_summary(comparison, run_names, withheld=True)])]
    sentences = [headline(comparison, run_names)]
    summary = segments_summary(comparison, run_names)
    if summary:
        sentences.append(summary)
    sentences.append(interval_note(comparison))
    infinite = effect_size_note(comparison)
    if infinite:
        sentences.append(infinite)
    sentences.append(caveat(comparison.metric))
    return sentences


def _coverage_sentences(report: Report, comparison: MetricComparison) -> list[str]:
    """The coverage line, why there is no banner (or which segments are flagged)."""
    coverage = None if report.coverage is None else report.coverage.metric(comparison.metric)
    if coverage is None:
        return []
    withheld = health_words.withholds(report.health)
    sentences = [coverage_words.coverage_line(coverage, report.pair_names),
                 coverage_words.coverage_note(coverage, comparison.overall, report.pair_names,
                                              withheld=withheld),
                 coverage_words.segments_flagged(coverage, withheld=withheld)]
    return [s for s in sentences if s]


def _robustness_lines(report: Report, metric: str) -> list[str]:
    """The robustness view as an aligned table, and whether the treatments agree."""
    if report.coverage is None:
        return []
    withheld = health_words.withholds(report.health)
    rows = coverage_words.treatment_rows(report.coverage, metric, report.pair_names,
                                         withheld=withheld)
    if not rows:
        return list(report.coverage.notes)
    keys = ("treatment", "mean_a", "mean_b", "delta", "interval", "p", "reads")
    header = {"treatment": "unjudged documents", "mean_a": "A", "mean_b": "B",
              "delta": "B \u2212 A", "interval": "interval", "p": "p", "reads": "reads"}
    table = [header, *rows]
    widths = {k: max(len(r[k]) for r in table) for k in keys}
    lines = [f"{coverage_words.ROBUSTNESS_TITLE} ({metric}):"]
    for r in table:
        lines.append("  " + "  ".join(r[k].rjust(widths[k]) if k in ("mean_a", "mean_b",
                                                                      "delta", "p")
                                      else r[k].ljust(widths[k]) for k in keys).rstrip())
    notes = [r["note"] for r in rows if r["note"]]
    lines += [f"  note: {note}" for note in notes]
    summary = coverage_words.robustness_summary(report.coverage, metric, report.pair_names,
                                                withheld=withheld)
    if summary:
        lines.append(f"  {summary}")
    return lines


def render_text(report: Report, width: int = 100) -> str:
    """What ``ranklens compare`` prints: the parts of `ranklens.compare.outline.outline` in
    its order (health checks, warnings, collections, leaderboards, per metric a table and the
    verdict, what differs, the inputs)."""
    out: list[str] = []
    for part in outline(report):
        out += _text_part(report, part, width)
    return "\n".join(out) + "\n"


def _text_part(report: Report, part: Part, width: int) -> list[str]:
    """One part of the outline as text lines: a section of subsections as a body of the
    report (the collections), any other section as a listing; a slot drawn here."""
    if isinstance(part, Section):
        if any(isinstance(block, Section) for block in part.blocks):
            return text_writer.body_lines(part, width)
        return [*text_writer.section_lines(part, width), ""]
    if part.key == "leaderboard":
        return [*_leaderboard_text(report, part.metric, width),
                *seed_views.leaderboard_lines(report, part.metric)]
    if part.key == "inputs":
        return inputs_text(report.inputs)
    if part.key == "parameters":  # the HTML export's: the text names its settings per metric
        return []
    if not report.several:
        return _metric_sections(report, width)
    out: list[str] = []
    for j in report.candidates:
        out += [f"== {report.run_names[j]} against {report.run_names[0]} ==", ""]
        out += _metric_sections(report.candidate_report(j), width, len(report.candidates))
    return out


def _metric_sections(report: Report, width: int, n_candidates: int = 1) -> list[str]:
    out: list[str] = []
    for comparison in report.comparisons:
        out.append(f"{comparison.metric}")
        out.append("")
        banner = coverage_banner(report, comparison.metric)
        if banner is not None:
            out += [*text_writer.banner_lines(banner, width), ""]
        withheld = health_words.withholds(report.health)
        out.extend(aligned_table(comparison, report.pair_names, withheld=withheld))
        out.append("")
        out.append(_settings_line(comparison, n_candidates))
        if withheld:
            out.append(health_words.NO_MARKS)
        for note in _interval_notes(comparison):
            out.extend(textwrap.wrap(note, width))
        out.append("")
        for sentence in _verdict(comparison, report.pair_names, report):
            out.extend(textwrap.wrap(sentence, width) or [""])
            out.append("")
        ties = tie_banner(report, comparison.metric)
        if ties is not None:
            out += [*text_writer.banner_lines(ties, width), ""]
        out.extend(seed_views.text_lines(report, comparison.metric, width))
        coverage = _coverage_sentences(report, comparison)
        for sentence in coverage:
            out.extend(textwrap.wrap(sentence, width) or [""])
        if coverage:
            out.append("")
        robustness = _robustness_lines(report, comparison.metric)
        if robustness:
            out.extend(robustness)
            out.append("")
        out.extend(query_lines.text_lines(report, comparison.metric, width))
    return out


def leaderboard_cells(report: Report, metric: str, *, markdown: bool = False,
                      ) -> tuple[list[Column], list[str], list[list[str]]]:
    """The leaderboard of ``metric`` as display strings: columns, header and rows (baseline
    first, its name marked and its other cells empty)."""
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    table = leaderboard_table(report, metric)
    keys = health_words.with_health_column(columns.LEADERBOARD_TEXT, table)
    shown = list(columns.pick(columns.LEADERBOARD_COLUMNS, keys))
    records = [{"run": f"{r['run']} (A, baseline)", "mean": r["mean"],
                "health": r.get("health", "")} if r["baseline"] else r
               for r in table.to_dict("records")]
    header = columns.headers(shown, {"level": level_number(1 - alpha)})
    return shown, _sig(shown, header) if markdown else header, columns.cells(shown, records)


def pairs_cells(report: Report, metric: str, *, markdown: bool = False,
                ) -> tuple[list[Column], list[str], list[list[str]]]:
    """Every pair of the family as display strings (all-pairs reports); no rows otherwise."""
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    shown = list(columns.pick(columns.PAIR_COLUMNS, columns.PAIR_TEXT))
    header = columns.headers(shown, {"level": level_number(1 - alpha)})
    rows = columns.cells(shown, pairs_table(report, metric).to_dict("records"))
    return shown, _sig(shown, header) if markdown else header, rows


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
    return "\n".join(out) + "\n"


def _markdown_part(report: Report, part: Part) -> list[str]:
    """One part of the outline as Markdown lines (a slot drawn here)."""
    if isinstance(part, Section):
        return _markdown(part)
    if part.key == "leaderboard":
        return _leaderboard_markdown(report, part.metric)
    if part.key == "inputs":
        return ["## Inputs", ""] + [f"- {line}" for line in input_lines(report.inputs)]
    if part.key == "parameters":  # the HTML export's: the Markdown names them per metric
        return []
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
    return out + seed_views.leaderboard_lines(report, metric, markdown=True)


def _markdown(section: Section | None) -> list[str]:
    """``section`` in Markdown and the blank line after it (nothing for None)."""
    return [] if section is None else [*markdown_writer.section_lines(section), ""]


def _markdown_sections(report: Report, level: str, n_candidates: int = 1) -> list[str]:
    out: list[str] = []
    for comparison in report.comparisons:
        out += [f"{level} {comparison.metric}", ""]
        banner = coverage_banner(report, comparison.metric)
        if banner is not None:
            out += [*markdown_writer.block_lines(banner), ""]
        withheld = health_words.withholds(report.health)
        _, header, cells = segment_cells(comparison, report.pair_names, markdown=True,
                                         withheld=withheld)
        out += markdown_table(header, cells)
        out += ["", f"_{_settings_line(comparison, n_candidates)}_", ""]
        if withheld:
            out += [health_words.NO_MARKS, ""]
        for note in _interval_notes(comparison):
            out += [note, ""]
        for sentence in _verdict(comparison, report.pair_names, report):
            out += [sentence, ""]
        ties = tie_banner(report, comparison.metric)
        if ties is not None:
            out += [*markdown_writer.block_lines(ties), ""]
        out += seed_views.markdown_lines(report, comparison.metric, f"{level}#")
        for sentence in _coverage_sentences(report, comparison):
            out += [sentence, ""]
        if report.coverage is not None:
            rows = coverage_words.treatment_rows(report.coverage, comparison.metric,
                                                 report.pair_names, withheld=withheld)
            if rows:  # a list, so that each metric keeps one Markdown table
                out += [f"{level}# {coverage_words.ROBUSTNESS_TITLE}", ""]
                out += [f"- **{r['treatment']}**: A {r['mean_a']}, B {r['mean_b']}, "
                        f"B \u2212 A {r['delta']} ({r['interval']}), p {r['p']}: {r['reads']}"
                        + (f" ({r['note']})" if r["note"] else "") for r in rows]
                summary = coverage_words.robustness_summary(report.coverage, comparison.metric,
                                                            report.pair_names, withheld=withheld)
                out += ["", summary, ""] if summary else [""]
    return out
