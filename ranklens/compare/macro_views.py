"""Several collections for people: the BEIR-style table, the sentences, and each export's part.

`macro_records` answers "one row per collection, the macro average last" (records of
`ranklens.compare.columns.MACRO_COLUMNS`); `macro_sentence` the headline in words. The text,
Markdown, CSV, LaTeX and HTML exports add their part with `macro_text_lines`,
`macro_markdown_lines`, `macro_csv_rows`, `macro_latex` and `macro_html`; the page draws the
same records (``ranklens.app.compare_macro``). Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ranklens.compare import columns
from ranklens.compare.macro import MacroSection
from ranklens.document.latex import MARK, booktabs, escape, math_text
from ranklens.document.markdown import markdown_table
from ranklens.formats import format_delta, format_interval, format_p, level_number, plain_table
from ranklens.stats.results import at_most

MACRO_ROW = "Macro average"
MACRO_TITLE = "Several collections: the macro average"


def macro_records(section: MacroSection) -> list[dict[str, Any]]:
    """One record per collection (in name order), then the macro average: the columns of
    `columns.MACRO_COLUMNS` plus ``macro`` (True on the last row)."""
    records = []
    for row in section.collections.segments:
        result = row.result
        record: dict[str, Any] = {"collection": row.segment, "n_queries": row.n_queries,
                                  "macro": False}
        if result is not None:
            record.update(mean_a=result.mean_a, mean_b=result.mean_b, delta=result.delta,
                          ci_low=result.interval.low, ci_high=result.interval.high,
                          p_value=result.p_value, q_value=result.q_value,
                          significant=result.significant)
        records.append(record)
    macro = section.macro
    last: dict[str, Any] = {"collection": MACRO_ROW, "macro": True,
                            "n_queries": section.collections.overall.n_queries,
                            "mean_a": section.mean_a, "mean_b": section.mean_b}
    if macro is not None:
        last.update(delta=macro.estimate, ci_low=macro.interval.low,
                    ci_high=macro.interval.high, p_value=macro.p_value, q_value=None,
                    significant=at_most(macro.p_value, 1 - macro.interval.level))
    records.append(last)
    return records


def macro_sentence(section: MacroSection, run_names: tuple[str, str]) -> str:
    """The headline: the macro average with its interval and p, the pooled mean beside it."""
    name_a, name_b = run_names
    macro = section.macro
    if macro is None:
        return section.note
    level = level_number(macro.interval.level)
    pooled = section.collections.overall
    return (f"Macro average over {section.n_collections} collections ({section.column}): "
            f"{name_b} \u2212 {name_a} = {format_delta(macro.estimate)} on {section.metric} "
            f"({level}% interval {format_interval(macro.interval.low, macro.interval.high)}, "
            f"stratified bootstrap within collections; stratified permutation p "
            f"{format_p(macro.p_value)}). Pooled over all {macro.n_queries:,} queries: "
            f"{format_delta(macro.pooled)} ({level}% interval "
            f"{format_interval(pooled.interval.low, pooled.interval.high)}); the macro "
            "average weighs every collection alike, the pooled mean every query.")


MACRO_NOTE = ("Each collection's interval and p are its own comparison; q-values are "
              "Benjamini\u2013Hochberg across the collections. The macro row's interval "
              "resamples queries within each collection (the collections are fixed).")


def _names(section: MacroSection, run_names: tuple[str, str]) -> dict[str, object]:
    level = level_number(1 - section.collections.overall.alpha)
    return {"a": run_names[0], "b": run_names[1], "collection": section.column,
            "level": level}


def macro_cells(section: MacroSection, run_names: tuple[str, str]
                ) -> tuple[list[str], list[list[str]], set[int]]:
    """Headers, display rows and right-aligned column indices of the BEIR-style table."""
    shown = columns.MACRO_COLUMNS
    header = columns.headers(shown, _names(section, run_names))
    return header, columns.cells(shown, macro_records(section)), columns.right(shown)


def macro_text_lines(sections: Sequence[MacroSection], run_names: tuple[str, str],
                     width: int = 100) -> list[str]:
    """The plain-text part: a title, then per section its sentence and table."""
    import textwrap

    if not sections:
        return []
    out = [MACRO_TITLE, ""]
    for section in sections:
        out += [section.metric, ""]
        out += textwrap.wrap(macro_sentence(section, run_names), width)
        out.append("")
        header, rows, right = macro_cells(section, run_names)
        out += plain_table(header, rows, right)
        out.append("")
        out += textwrap.wrap(MACRO_NOTE, width)
        out.append("")
    return out


def macro_markdown_lines(sections: Sequence[MacroSection], run_names: tuple[str, str],
                         level: str = "##") -> list[str]:
    """The Markdown part (the report's tables' style: pipes escaped by the caller's
    ``markdown_table``)."""
    if not sections:
        return []
    out = [f"{level} {MACRO_TITLE}", ""]
    for section in sections:
        header, rows, _ = macro_cells(section, run_names)
        out += [f"{level}# {section.metric}", "", macro_sentence(section, run_names), ""]
        out += markdown_table(["sig." if h == "" else h for h in header], rows)
        out += ["", MACRO_NOTE, ""]
    return out


MACRO_CSV_COLUMNS = ("metric", "collection_column", "collection", "n_queries", "mean_a",
                     "mean_b", "delta", "ci_low", "ci_high", "p_value", "q_value",
                     "significant", "macro")
"""The CSV of the collections: a second table after a blank line (`macro_csv_rows`)."""


def macro_csv_rows(sections: Sequence[MacroSection]) -> list[list[object]]:
    """The collections' rows for the CSV, header first (empty without sections)."""
    if not sections:
        return []
    rows: list[list[object]] = [list(MACRO_CSV_COLUMNS)]
    for section in sections:
        for record in macro_records(section):
            values = {**record, "metric": section.metric, "collection_column": section.column}
            rows.append(["" if values.get(c) is None else values.get(c, "")
                         for c in MACRO_CSV_COLUMNS])
    return rows


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


def macro_html(sections: Sequence[MacroSection], run_names: tuple[str, str],
               chart_width: int) -> str:
    """The HTML export's section: per metric the sentence, the per-collection forest plot and
    the BEIR-style table (empty without sections)."""
    from ranklens.compare import charts, report_tables
    from ranklens.document import html_shell as html_common

    if not sections:
        return ""
    parts = [f'<section id="macro"><h2>{html_common.text(MACRO_TITLE)}</h2>']
    for section in sections:
        table = report_tables.segment_table(section.collections, run_names)
        chart = charts.forest_plot(table, metric=section.metric, run_names=run_names,
                                   alpha=section.collections.overall.alpha)
        header, rows, _ = macro_cells(section, run_names)
        records = macro_records(section)
        parts += [
            f"<h3>{html_common.text(section.metric)}</h3>",
            f'<p class="conclusion">{html_common.text(macro_sentence(section, run_names))}</p>',
            html_common.figure(html_common.chart_svg(chart, chart_width),
                               f"Forest plot of {section.metric} per collection"),
            html_common.table(header, [[html_common.text_cell(cell) for cell in row]
                                       for row in rows], css_class="macro",
                              row_classes=["overall" if r["macro"] else "" for r in records]),
            f'<p class="interval-note">{html_common.text(MACRO_NOTE)}</p>',
        ]
    return "".join(parts) + "</section>"
