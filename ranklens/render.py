"""Results as text a person reads: a comparison Report (text, Markdown, CSV, JSON), a query
plan (``ranklens mde``) and a PPI++ analysis (``ranklens ppi``).

Every format shows the same rows (overall, then one per segment) and the text forms carry the
same sentences as the app (``ranklens.verdict``). Rendering computes nothing: every number is
read from the Report, so ``--format json`` is ``Report.to_json()`` itself.

HTML is not here (``ranklens.html_report``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ranklens.aggregate import INTERVALS_NOTE, MetricComparison, SegmentRow
from ranklens.report import Report
from ranklens.stats import ComparisonResult, PPIComparison
from ranklens.verdict import (
    caveat,
    format_delta,
    format_interval,
    format_p,
    headline,
    segments_summary,
)

if TYPE_CHECKING:  # they import pandas; `ranklens compare` starts faster without it
    from ranklens.planning import QueryPlan
    from ranklens.ppi_analysis import PPIAnalysis

FORMATS = ("text", "json", "csv", "markdown")
DASH = "\u2014"
MARK = "*"

CSV_COLUMNS = (
    "metric", "segment_column", "segment", "n_queries", "mean_a", "mean_b", "delta",
    "ci_low", "ci_high", "p_value", "q_value", "significant", "t_p_value", "t_ci_low",
    "t_ci_high", "wins", "ties", "losses", "effect_size", "alpha", "interval", "note",
)


@dataclass(frozen=True)
class Cells:
    """One table row as display strings (the same for text and Markdown)."""

    segment: str
    n: str
    mean_a: str
    mean_b: str
    delta: str
    interval: str
    p: str
    q: str
    mark: str
    note: str


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


def cells(row: SegmentRow) -> Cells:
    """Display strings of one row; a too-small segment shows its size and dashes."""
    result = row.result
    if result is None:
        return Cells(row.segment, f"{row.n_queries:,}", DASH, DASH, DASH, DASH, DASH, DASH,
                     "", row.note)
    q = DASH if result.q_value is None else format_p(result.q_value)
    return Cells(
        row.segment, f"{row.n_queries:,}", f"{result.mean_a:.4f}", f"{result.mean_b:.4f}",
        format_delta(result.delta),
        f"[{format_delta(result.ci_low)}, {format_delta(result.ci_high)}]",
        format_p(result.p_value), q, MARK if result.significant else "", row.note)


def _headers(comparison: MetricComparison, run_names: tuple[str, str]) -> Cells:
    level = round(100 * (1 - comparison.overall.alpha))
    label = comparison.segment_column or "segment"
    return Cells(label, "n", f"A: {run_names[0]}", f"B: {run_names[1]}", "B \u2212 A",
                 f"{level}% CI", "p", "q", "", "note")


def _columns(values: Cells) -> list[str]:
    return [values.segment, values.n, values.mean_a, values.mean_b, values.delta,
            values.interval, values.p, values.q, values.mark, values.note]


_RIGHT = {1, 2, 3, 4, 6, 7}  # numbers align right; names, interval, mark and note left


def aligned_table(comparison: MetricComparison, run_names: tuple[str, str]) -> list[str]:
    """The rows of one metric as aligned plain-text lines (header first)."""
    rows = [_columns(_headers(comparison, run_names))]
    rows += [_columns(cells(row)) for row in comparison.rows]
    used = [i for i in range(len(rows[0])) if any(r[i] for r in rows[1:]) or i < 8]
    widths = {i: max(len(r[i]) for r in rows) for i in used}
    lines = []
    for r in rows:
        parts = [r[i].rjust(widths[i]) if i in _RIGHT else r[i].ljust(widths[i]) for i in used]
        lines.append("  ".join(parts).rstrip())
    lines.insert(1, "  ".join("-" * widths[i] for i in used))
    return lines


def _settings_line(comparison: MetricComparison) -> str:
    result = comparison.overall
    adjusted = {"bh": "Benjamini-Hochberg", "by": "Benjamini-Yekutieli", "holm": "Holm"}.get(
        comparison.adjust_method, comparison.adjust_method)
    family = "segments" if comparison.family == "segments" else "metrics"
    return (f"{result.interval} bootstrap interval ({result.n_resamples:,} resamples), "
            f"sign-flip permutation p ({result.n_permutations:,} permutations), "
            f"q: {adjusted} across {family}; {MARK} = q (else p) \u2264 {result.alpha:g}")


def _verdict(comparison: MetricComparison, run_names: tuple[str, str]) -> list[str]:
    sentences = [headline(comparison, run_names)]
    summary = segments_summary(comparison, run_names)
    if summary:
        sentences.append(summary)
    sentences.append(caveat(comparison.metric))
    return sentences


def _input_lines(report: Report) -> list[str]:
    return [str(record.summary.get("description") or f"{record.name}: {record.size:,} bytes")
            for record in report.inputs]


def render_text(report: Report, width: int = 100) -> str:
    """What ``ranklens compare`` prints: per metric a table and the verdict; warnings last."""
    import textwrap

    out: list[str] = []
    for comparison in report.comparisons:
        out.append(f"{comparison.metric}")
        out.append("")
        out.extend(aligned_table(comparison, report.run_names))
        out.append("")
        out.append(_settings_line(comparison))
        if comparison.segments:
            out.append(INTERVALS_NOTE)
        out.append("")
        for sentence in _verdict(comparison, report.run_names):
            out.extend(textwrap.wrap(sentence, width) or [""])
            out.append("")
    out.append("Inputs:")
    out.extend(f"  {line}" for line in _input_lines(report))
    if report.warnings:
        out.append("")
        out.append("Warnings:")
        for message in report.warnings:
            out.extend(textwrap.wrap(message, width, initial_indent="  - ",
                                     subsequent_indent="    "))
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: Report) -> str:
    """The text report as Markdown: a heading and a table per metric, then the verdict."""
    name_a, name_b = report.run_names
    out = [f"# {name_b} vs {name_a}", ""]
    for comparison in report.comparisons:
        out += [f"## {comparison.metric}", ""]
        header = _columns(_headers(comparison, report.run_names))
        header[8] = "sig."
        out += markdown_table(header, [_columns(cells(row)) for row in comparison.rows])
        out += ["", f"_{_settings_line(comparison)}_", ""]
        if comparison.segments:
            out += [INTERVALS_NOTE, ""]
        for sentence in _verdict(comparison, report.run_names):
            out += [sentence, ""]
    out += ["## Inputs", ""] + [f"- {line}" for line in _input_lines(report)]
    if report.warnings:
        out += ["", "## Warnings", ""] + [f"- {message}" for message in report.warnings]
    return "\n".join(out) + "\n"


def _csv_values(comparison: MetricComparison, row: SegmentRow) -> list[object]:
    result: ComparisonResult | None = row.result
    head: list[object] = [comparison.metric, comparison.segment_column or "", row.segment,
                          row.n_queries]
    if result is None:
        return head + [""] * (len(CSV_COLUMNS) - len(head) - 1) + [row.note]
    return [
        *head, result.mean_a, result.mean_b, result.delta, result.ci_low, result.ci_high,
        result.p_value, "" if result.q_value is None else result.q_value,
        result.significant, result.t_p_value, result.t_ci_low, result.t_ci_high,
        result.wins, result.ties, result.losses, result.effect_size, result.alpha,
        result.interval, row.note,
    ]


def render_csv(report: Report) -> str:
    """One row per metric and segment (overall first), full-precision numbers, a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for comparison in report.comparisons:
        for row in comparison.rows:
            writer.writerow(_csv_values(comparison, row))
    return buffer.getvalue()


def _plain_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                 right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def render_plan(plan: QueryPlan, width: int = 100) -> str:
    """What ``ranklens mde`` prints: the spread used, the MDE, and the queries per difference."""
    approximation = "normal approximation" if plan.method == "z" else "paired t-test"
    settings = (f"alpha {plan.alpha:g}, power {plan.power:.0%}, two-sided, {approximation}")
    out = []
    if plan.pilot is not None:
        p = plan.pilot
        out.append(f"Pilot: {p.metric} on {p.n_queries:,} paired queries; mean difference "
                   f"{format_delta(p.mean_delta)}, sd of per-query differences {p.sd:.4f}.")
    else:
        out.append(f"sd of per-query differences: {plan.sd:g}.")
    if plan.mde is not None and plan.n_queries is not None:
        out.append(f"Minimum detectable effect with {plan.n_queries:,} queries: "
                   f"{plan.mde:.4f} ({settings}).")
        out.append(f"A true difference below {plan.mde:.4f} is under what {plan.n_queries:,} "
                   "queries resolve: a non-significant result there is not evidence of no "
                   "effect.")
    else:
        out.append(f"Queries needed ({settings}):")
    header = ["difference", "queries needed"]
    if plan.n_queries is not None:
        header.append(f"power with {plan.n_queries:,} queries")
    rows = []
    for row in plan.rows:
        cells_ = [format_delta(row.delta), str(row.queries_needed)]
        if plan.n_queries is not None:
            cells_.append(DASH if row.power_at_n is None else f"{row.power_at_n:.1%}")
        rows.append(cells_)
    import textwrap

    out = [line for sentence in out for line in textwrap.wrap(sentence, width)]
    out += ["", *_plain_table(header, rows, {0, 1, 2})]
    return "\n".join(out) + "\n"


def _ppi_queries(result: PPIComparison) -> str:
    if result.n_gold == 0:
        return f"{result.n_proxy:,} proxy"
    if result.lam == 0.0:
        return f"{result.n_gold:,} gold"
    return f"{result.n_gold:,} gold + {result.n_proxy:,} proxy-only"


def render_ppi(analysis: PPIAnalysis, width: int = 100) -> str:
    """What ``ranklens ppi`` prints: the four estimates, then what they say, warnings last."""
    import textwrap

    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    level = round(100 * (1 - best.alpha))
    header = ["estimate", "B \u2212 A", f"{level}% CI", "p", "proxy weight", "queries"]
    rows = []
    for item in analysis.estimates:
        r = item.result
        weight = DASH if item.key == "proxy" else f"{r.lam:.2f}"
        rows.append([item.label, format_delta(r.delta),
                     f"[{format_delta(r.ci_low)}, {format_delta(r.ci_high)}]",
                     format_p(r.p_value), weight, _ppi_queries(r)])
    out = [f"{analysis.metric}: B = {name_b}, A = {name_a}; proxy judgements corrected on a "
           "gold sample (PPI++)", ""]
    out += _plain_table(header, rows, {1, 3, 4})
    out += ["", "Intervals and p-values are normal approximations.", ""]
    for sentence in ppi_sentences(analysis):
        out.extend(textwrap.wrap(sentence, width))
        out.append("")
    if analysis.warnings:
        out.append("Warnings:")
        for message in analysis.warnings:
            out.extend(textwrap.wrap(message, width, initial_indent="  - ",
                                     subsequent_indent="    "))
    return "\n".join(out).rstrip("\n") + "\n"


def ppi_sentences(analysis: PPIAnalysis) -> list[str]:
    """The PPI verdict in words: the corrected difference, the proxy's bias, the gain."""
    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    gold = analysis.estimate("gold").result
    proxy = analysis.estimate("proxy").result
    level = round(100 * (1 - best.alpha))
    measured = (f"{format_delta(best.delta)} ({level}% CI "
                f"{format_interval(best.ci_low, best.ci_high)}, p {format_p(best.p_value)}, "
                f"proxy weight {best.lam:.2f})")
    if best.significant:
        better, worse = (name_b, name_a) if best.delta > 0 else (name_a, name_b)
        first = (f"{better} is better than {worse} on {analysis.metric} after correcting the "
                 f"proxy on {best.n_gold:,} gold queries: {name_b} \u2212 {name_a} = "
                 f"{measured}.")
    else:
        first = (f"No reliable difference between {name_a} and {name_b} on {analysis.metric} "
                 f"after correcting the proxy on {best.n_gold:,} gold queries: "
                 f"{name_b} \u2212 {name_a} = {measured}.")
    bias = proxy.delta - best.delta
    second = (f"The proxy alone says {format_delta(proxy.delta)}: on this difference it is off "
              f"by about {format_delta(bias)} (proxy \u2212 PPI++), an error its own interval "
              "cannot show.")
    sentences = [first, second]
    width_best, width_gold = best.ci_high - best.ci_low, gold.ci_high - gold.ci_low
    if width_best > 0 and width_gold > 0:
        equivalent = best.n_gold * (width_gold / width_best) ** 2
        sentences.append(
            f"The PPI++ interval is {width_best:.4f} wide against {width_gold:.4f} for the gold "
            f"queries alone: as precise as about {equivalent:,.0f} gold queries.")
    return sentences
