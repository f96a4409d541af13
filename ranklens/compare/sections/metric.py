"""One metric's section of a two-run comparison, as blocks for text, Markdown and the HTML export.

Answers "what does the report say about this metric, in which order": the coverage guardrail,
the verdict (before the table, as the page puts it too), the tie sentence, the coverage
sentences, then the forest plot (a `Chart`: the HTML export draws it, text and Markdown leave
it out), the table of rows with its settings line and its interval notes (one paragraph each),
then the robustness view (`robustness_section`: the same comparison under each treatment of
unjudged documents, as a `Table`; what the treatments leave out and judged@k per row are
detail blocks, drawn by the HTML export only); `metric_section` puts them in one section with
the seeds (``sections.seeds``) and the queries lost and won (``sections.queries``). It computes no
statistic and formats no number: the words are ``ranklens.compare.verdict_words``',
``coverage_words``' and ``fcr_words``', the table is `segments_table`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ranklens.compare import coverage_words
from ranklens.compare.columns import JUDGED_COLUMNS, MARK, ROBUSTNESS_COLUMNS
from ranklens.compare.fcr_words import disagreement_sentence, fcr_caption
from ranklens.compare.report import Report
from ranklens.compare.sections.coverage_banner import coverage_banner
from ranklens.compare.sections.queries import queries_sections
from ranklens.compare.sections.seeds import seeds_section
from ranklens.compare.sections.segments import segments_table
from ranklens.compare.sections.ties import tie_banner
from ranklens.compare.segments import MetricComparison
from ranklens.compare.verdict_words import (
    caveat,
    effect_size_note,
    headline,
    interval_note,
    q_family_words,
    segments_summary,
)
from ranklens.document import columns
from ranklens.document.blocks import Block, Chart, Paragraph, Section, Table
from ranklens.health import check_words as health_words
from ranklens.stats import interval_label
from ranklens.stats.shape import mostly_tied

ADJUSTED = {"bh": "Benjamini-Hochberg", "by": "Benjamini-Yekutieli", "holm": "Holm"}
"""The long names of the p-value adjustments, for the settings line."""

COULD_CHANGE = {True: "yes", False: "no"}
"""Whether unjudged documents could change a row's verdict, in words (a dash: no verdict)."""


def verdict_blocks(report: Report, comparison: MetricComparison,
                   scope: str = "") -> list[Block]:
    """The guardrail, the verdict's sentences, the tie sentence and the coverage sentences of
    one metric, in that order; not its table. The first sentence is the conclusion, the
    interval note is one (their roles); ``scope``: the candidate's part of the guardrail's
    link."""
    metric = comparison.metric
    said: list[Block | None] = [coverage_banner(report, metric, scope)]
    note = interval_note(comparison)
    said += [Paragraph(s, "conclusion" if i == 0 else "interval-note" if s == note else "",
                       literal=True)
             for i, s in enumerate(verdict_sentences(report, comparison))]
    said.append(tie_banner(report, metric))
    said += [Paragraph(s, literal=True) for s in coverage_sentences(report, comparison)]
    return [block for block in said if block is not None]


def verdict_sentences(report: Report, comparison: MetricComparison) -> list[str]:
    """The verdict on one metric: the headline, where it differs by row, how to read the
    interval, an infinite effect size, the metric's caveat; under "No verdict", why not."""
    run_names = report.pair_names
    if health_words.withholds(report.health):
        return [*health_words.verdict_or_withheld(report.health, []),
                *filter(None, [segments_summary(comparison, run_names, withheld=True)])]
    sentences = [headline(comparison, run_names), segments_summary(comparison, run_names),
                 interval_note(comparison), effect_size_note(comparison),
                 caveat(comparison.metric)]
    return [s for s in sentences if s]


def coverage_sentences(report: Report, comparison: MetricComparison) -> list[str]:
    """The coverage line, why there is no banner (or which segments are flagged); nothing
    when the report measured no coverage."""
    coverage = None if report.coverage is None else report.coverage.metric(comparison.metric)
    if coverage is None:
        return []
    withheld = health_words.withholds(report.health)
    sentences = [coverage_words.coverage_line(coverage, report.pair_names),
                 coverage_words.coverage_note(coverage, comparison.overall, report.pair_names,
                                              withheld=withheld),
                 coverage_words.segments_flagged(coverage, withheld=withheld)]
    return [s for s in sentences if s]


def table_blocks(report: Report, comparison: MetricComparison,
                 n_candidates: int = 1) -> list[Block]:
    """The forest plot (a `Chart`), the table of one metric (its mark and note columns only
    when a row has one), the settings line, why no row is marked (under "No verdict") and the
    interval notes."""
    withheld = health_words.withholds(report.health)
    table = segments_table(comparison, report.pair_names, withheld=withheld)
    kept = tuple(c for c in table.columns if c.detail or c.kind not in ("mark", "text")
                 or any(columns.cell(c, r) for r in table.records))
    notes = [fcr_caption(comparison), disagreement_sentence(comparison)]
    name_a, name_b = report.pair_names
    forest = Chart("forest", partial(_forest_plot, comparison, report.pair_names, withheld),
                   f"Forest plot of {comparison.metric}: the difference {name_b} \u2212 "
                   f"{name_a} with its interval, per row of the table below")
    said: list[Block] = [forest,
                         Table(table.key, kept, table.records, table.names, table.set_apart),
                         Paragraph(settings_line(comparison, n_candidates), "interval-note",
                                   literal=True),
                         *([Paragraph(health_words.NO_MARKS, literal=True)] if withheld else []),
                         *(Paragraph(note, "interval-note", literal=True)
                           for note in notes if note)]
    return said


def _forest_plot(comparison: MetricComparison, run_names: tuple[str, str],
                 withheld: bool) -> Any:
    """The forest plot of ``comparison``'s rows (drawn only by the faces with pictures)."""
    from ranklens.compare import charts, report_tables  # Altair loads only where drawn

    frame = report_tables.segment_table(comparison, run_names, withheld=withheld)
    return charts.forest_plot(frame, metric=comparison.metric, run_names=run_names,
                              alpha=comparison.overall.alpha)


def settings_line(comparison: MetricComparison, n_candidates: int = 1) -> str:
    """How the table was computed: the interval, the permutations, the adjustment and its
    family, and what the mark means."""
    result = comparison.overall
    adjusted = ADJUSTED.get(comparison.adjust_method, comparison.adjust_method)
    family = q_family_words(comparison.family if comparison.segments else "metrics",
                            n_candidates)
    decided = (f"{MARK} = q, overall: adjusted p {comparison.overall_family}"
               if comparison.overall_family else f"{MARK} = q (else p)")
    method = result.interval.method
    resamples = ("" if method in ("sign-flip", "skew-guarded")
                 else f" ({result.n_resamples:,} resamples)")
    tested = (f"skew-guarded p (sign-flip permutation p or skew-corrected t p, the larger"
              f"{_floor_words(comparison)}; "
              if method == "skew-guarded" else "sign-flip permutation p (")
    return (f"{interval_label(method)}{resamples}, "
            f"{tested}{result.n_permutations:,} permutations), "
            f"q: {adjusted} {family}; {decided} \u2264 {result.alpha:g}")


def _floor_words(comparison: MetricComparison) -> str:
    """The skew-guarded p's tie floor in words when it applies to a row of the table (one is
    mostly tied: `ranklens.stats.shape.mostly_tied`, `ranklens.stats.skew_guard.TAIL_SHARE`);
    "" when it applies to none."""
    tied = any(row.result is not None and mostly_tied(
        row.result.outcomes.wins + row.result.outcomes.ties + row.result.outcomes.losses,
        row.result.outcomes.wins + row.result.outcomes.losses) for row in comparison.rows)
    return (", and at least (1 - 1/e)^k at k changed queries where most tie" if tied else "")


def metric_section(report: Report, comparison: MetricComparison,
                   n_candidates: int = 1, scope: str = "") -> Section:
    """One metric's whole section, titled by the metric, for text, Markdown and the HTML
    export: the verdict (`verdict_blocks`), the seeds, the forest plot, the table and its
    notes (`table_blocks`), the robustness view, the queries lost and won. ``scope`` names a
    candidate's section when there are several (the HTML ids stay unique). The page keeps its
    own layout of interactive parts."""
    metric = comparison.metric
    parts: list[Block | None] = [*verdict_blocks(report, comparison, scope),
                                 seeds_section(report, metric),
                                 *table_blocks(report, comparison, n_candidates),
                                 robustness_section(report, metric, scope),
                                 *queries_sections(report, metric)]
    return Section("metric", metric, tuple(part for part in parts if part is not None))


def robustness_section(report: Report, metric: str, scope: str = "") -> Section | None:
    """The same comparison of ``metric`` under each treatment of unjudged documents, as a
    `Table`, its notes and whether the treatments agree, then (wide faces only: detail
    blocks) what the treatments leave out and judged@k per row; the coverage notes when
    there are no rows; None when the report measured no coverage. Its anchor is where the
    guardrail links (``scope``: a candidate's)."""
    if report.coverage is None:
        return None
    anchor = coverage_words.robustness_anchor(metric, scope)
    withheld = health_words.withholds(report.health)
    rows = coverage_words.treatment_rows(report.coverage, metric, report.pair_names,
                                         withheld=withheld)
    if not rows:
        notes = tuple(Paragraph(note) for note in report.coverage.notes)
        return (Section("robustness", coverage_words.ROBUSTNESS_TITLE, notes, anchor=anchor)
                if notes else None)
    shown = tuple(c for c in ROBUSTNESS_COLUMNS if c.key != "note" or any(r["note"] for r in rows))
    name_a, name_b = report.pair_names
    summary = coverage_words.robustness_summary(report.coverage, metric, report.pair_names,
                                                withheld=withheld)
    blocks: list[Block] = [Table("robustness", shown, tuple(rows), {"a": name_a, "b": name_b})]
    if summary:
        blocks.append(Paragraph(summary))
    blocks.append(Paragraph(coverage_words.TREATMENTS_CAPTION, literal=True, detail=True))
    judged = judged_table(report, metric)
    if judged is not None:
        blocks.append(judged)
    return Section("robustness", f"{coverage_words.ROBUSTNESS_TITLE} ({metric})", tuple(blocks),
                   anchor=anchor)


def judged_table(report: Report, metric: str) -> Table | None:
    """Judged@k of both runs per row of ``metric``, the gap, the same-rate shift of B − A
    and whether the row's verdict could change (``report_tables.coverage_table``), as a detail
    `Table` (the wide faces'); None without coverage."""
    from ranklens.compare import report_tables  # pandas loads only where coverage was measured

    coverage = None if report.coverage is None else report.coverage.metric(metric)
    frame = report_tables.coverage_table(report, metric)
    if coverage is None or frame is None:
        return None
    records = tuple({**{str(k): v for k, v in r.items()},
                     "could_change": COULD_CHANGE.get(r["could_change"], "\u2014")}
                    for r in frame.to_dict("records"))
    name_a, name_b = report.pair_names
    return Table("coverage", JUDGED_COLUMNS, records,
                 {"a": name_a, "b": name_b, "judged": coverage.judged_metric}, detail=True)


__all__ = ["ADJUSTED", "COULD_CHANGE", "JUDGED_COLUMNS", "ROBUSTNESS_COLUMNS",
           "coverage_sentences", "judged_table", "metric_section", "robustness_section",
           "settings_line", "table_blocks", "verdict_blocks", "verdict_sentences"]
