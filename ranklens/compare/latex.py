"""A Report as a LaTeX table, as papers print them: ``Report.to_latex()``.

Answers "the comparison for my paper": a ``booktabs`` table per report (``\\toprule``,
``\\midrule``, ``\\bottomrule``), one row per candidate x metric x segment (from
``Report.to_frame()``), the means of both runs, the difference with its interval, p and q, and
a dagger on the difference that is significant (q when the row has one, else p, at the
report's alpha). Numbers are written by ``ranklens.formats``; names are escaped for LaTeX.
It does not add ``\\usepackage{booktabs}`` to your preamble.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ranklens.compare.macro import MacroSection
from ranklens.compare.sections.collections import macro_parts, macro_records
from ranklens.document.latex import MARK, booktabs, escape, math_text
from ranklens.formats import format_delta, format_interval, format_p, format_value, level_number
from ranklens.stats.interval import p_label

if TYPE_CHECKING:
    from ranklens.compare.report import Report


def report_latex(report: Report, *, caption: str | None = None, label: str = "") -> str:
    """The report as one LaTeX table (see the module docstring); ``caption`` replaces the
    one written from the report, ``label`` adds ``\\label``. With collections
    (``report.macro``) a BEIR-style table follows per metric: one row per collection, the
    macro average last."""
    frame = report.to_frame()
    several = report.several
    alphas = frame["alpha"].dropna()
    alpha = float(alphas.iloc[0]) if len(alphas) else 0.05
    level = level_number(1 - alpha)
    header = [*(["Candidate"] if several else []), "Metric", "Segment", "$n$",
              escape(report.run_names[0]),
              "Candidate" if several else escape(report.pair_names[1]),
              r"$\Delta$", f"{level}\\% CI", "$p$", "$q$"]
    rows = [_row(record, several) for record in frame.to_dict("records")]
    align = ("l" if several else "") + "llrrrrlrr"
    candidates = ", ".join(escape(name) for name in report.run_names[1:])
    text = caption if caption is not None else (
        f"{candidates} against {escape(report.run_names[0])}: mean per query, the difference "
        f"with its {level}\\% interval, its {p_label(_method(report))}, and $q$ ({MARK}: "
        f"significant at "
        f"$\\alpha = {alpha:g}$).")
    table = booktabs(header, rows, align=align, caption=text, label=label)
    return table + "".join(macro_latex(sections, names) for names, sections in
                           macro_parts(report))


def _row(record: Mapping[Hashable, Any], several: bool) -> list[str]:
    segment = str(record["segment"])
    answer = record.get("answer")
    if isinstance(answer, str) and answer.startswith("seed run"):  # each seed against A
        segment = f"{segment} ({answer})"
    cells = [*([escape(record["candidate"])] if several else []), escape(record["metric"]),
             escape(segment), _count(record["n_queries"])]
    if _missing(record["delta"]):  # a segment too small to compare: its note says so
        return [*cells, _number(record["mean_a"]), _number(record["mean_b"]), "",
                escape(record["note"] or "too small"), "", ""]
    marked = math_text(format_delta(record["delta"])) + (MARK if record["significant"] is True
                                                      else "")
    interval = format_interval(record["ci_low"], record["ci_high"]).replace(" to ", ", ")
    return [*cells, _number(record["mean_a"]), _number(record["mean_b"]), marked,
            "$[" + math_text(interval)[1:-1] + "]$", math_text(format_p(record["p_value"])),
            "" if _missing(record["q_value"]) else math_text(format_p(record["q_value"]))]


def _number(value: Any) -> str:
    return "" if _missing(value) else math_text(format_value(float(value)))


def _count(value: Any) -> str:
    return "" if _missing(value) else f"{int(value):,}".replace(",", "{,}")


def _missing(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, float) and value != value)


def macro_latex(sections: Sequence[MacroSection], run_names: tuple[str, str]) -> str:
    """A booktabs table per section: one row per collection, the macro average last."""
    out = []
    for section in sections:
        records = macro_records(section)
        level = level_number(1 - section.collections.overall.alpha)
        header = [escape(section.column), "$n$", escape(run_names[0]), escape(run_names[1]),
                  r"$\Delta$", f"{level}\\% CI", "$p$", "$q$"]
        rows = [_latex_row(record) for record in records]
        caption = (f"{escape(run_names[1])} against {escape(run_names[0])} on "
                   f"{escape(section.metric)}, per collection and their macro average (last "
                   f"row: stratified bootstrap interval, stratified permutation $p$; {MARK}: "
                   "significant, $q$ across collections).")
        out.append(booktabs(header, rows[:-1], align="lrrrrlrr", caption=caption,
                            footer=rows[-1:]))
    return "".join(out)


def _latex_row(record: dict[str, Any]) -> list[str]:
    def number(key: str) -> str:
        value = record.get(key)
        return "" if value is None else math_text(f"{value:.4f}")

    delta = record.get("delta")
    cells = [escape(record["collection"]), f"{int(record['n_queries']):,}".replace(",", "{,}"),
             number("mean_a"), number("mean_b")]
    if delta is None:
        return [*cells, "", "", "", ""]
    interval = format_interval(record["ci_low"], record["ci_high"]).replace(" to ", ", ")
    marked = math_text(format_delta(delta)) + (MARK if record.get("significant") else "")
    q = record.get("q_value")
    return [*cells, marked, "$[" + math_text(interval)[1:-1] + "]$",
            math_text(format_p(record["p_value"])),
            "" if q is None else math_text(format_p(q))]


def _method(report: Report) -> str:
    """The overall interval's method of the report's first comparison (every comparison of one
    report is computed with the same settings)."""
    return report.comparisons[0].overall.interval.method if report.comparisons else "auto"
