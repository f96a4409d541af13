"""The queries B lost and won most on one metric, as one `Table` each for every face.

Answers "which queries moved B − A most, what do they say and what moved in them": per side
(lost most, won most) a section of one table, a row per query with its id, its text, B − A and
the documents' moves that explain it (``Report.query_moves``, kept by
``ranklens.compare.query_lines.explained_moves``). Text draws the table aligned, Markdown as a
table, the HTML export wide (B − A a number cell with its exact value). Nothing for a report
without query texts or moves, or of several candidates. It computes and formats nothing.
"""

from __future__ import annotations

from ranklens.compare import report_tables
from ranklens.compare.report import Report
from ranklens.document.blocks import Section, Table
from ranklens.document.columns import Column

SHOWN = 5
"""Queries listed per side (lost most, won most)."""

QUERY_COLUMNS = (
    Column("query", "query", "label", "Query"),
    Column("text", "text", "text", "Text"),
    Column("delta", "B \u2212 A", "delta"),
    Column("moved", "what moved", "text", "What moved"),
)
"""A row of the lost and won tables: the query's id, its text, B − A, what moved."""


def queries_sections(report: Report, metric: str, n: int = SHOWN) -> list[Section]:
    """The queries B lost most and won most on ``metric`` (``n`` each), one section per side
    that has any; none without query texts or moves, or with several candidates."""
    shown = (bool(report.query_texts or report.query_moves.get(metric))
             and metric in report.per_query and not report.several)
    if not shown:
        return []
    lost, won = report_tables.biggest_changes(report_tables.per_query_table(report, metric),
                                              n=n)
    moves = report.query_moves.get(metric, {})
    name_b = report.pair_names[1]
    out = []
    for side, frame in (("lost", lost), ("won", won)):
        records = tuple({"query": str(query), "text": report.query_texts.get(str(query), ""),
                         "delta": float(delta), "moved": moves.get(str(query), "")}
                        for query, delta in zip(frame["query_id"], frame["delta"], strict=True))
        if records:
            kept = tuple(c for c in QUERY_COLUMNS
                         if c.kind != "text" or any(r[c.key] for r in records))
            out.append(Section(f"queries-{side}", f"Queries {name_b} {side} most",
                               (Table("queries", kept, records),)))
    return out


__all__ = ["QUERY_COLUMNS", "SHOWN", "queries_sections"]
