"""One metric's table of segments, written once for every face.

Answers "what does each row of this metric say": the overall row, then the segments in the
forest plot's order (``ranklens.compare.report_tables.plot_order``), under
``ranklens.compare.columns.SEGMENT_COLUMNS`` (the FCR-adjusted interval only when a segment
has one). Text and Markdown draw its narrow columns (``ranklens.document.columns.narrow``),
the HTML export its wide ones (``ranklens.document.html.wide_table_html``). The records are
``report_tables.segment_table``'s rows, with a segment's shape note (too skewed or tied for
its size, ``ranklens.stats.shape``) in brief in its note cell; nothing here computes a number.
"""

from __future__ import annotations

from typing import Any

from ranklens.compare import report_tables
from ranklens.compare.columns import SEGMENT_COLUMNS
from ranklens.compare.fcr_words import level_text
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.document.blocks import Table
from ranklens.formats import level_number
from ranklens.stats.shape import shape_brief


def segments_table(comparison: MetricComparison, run_names: tuple[str, str], *,
                   withheld: bool = False, frame: Any = None) -> Table:
    """The table of ``comparison`` (key ``segments``, the overall row set apart). ``frame``:
    its ``report_tables.segment_table`` when the caller has it already (the HTML export draws
    its forest plot from it); ``withheld``: no row is significant, no finding (no verdict)."""
    if frame is None:
        frame = report_tables.segment_table(comparison, run_names, withheld=withheld)
    has_fcr = any(row.fcr is not None for row in comparison.segments)
    shown = tuple(c for c in SEGMENT_COLUMNS if has_fcr or c.key != "fcr")
    records = _with_shape_notes(report_tables.frame_records(frame),
                                report_tables.plot_order(comparison))
    column = comparison.segment_column
    names = {"a": run_names[0], "b": run_names[1], "segment": column or "segment",
             "rows": column or "Rows", "level": level_number(1 - comparison.overall.alpha),
             "fcr_level": "" if comparison.fcr is None else level_text(comparison.fcr.level)}
    return Table("segments", shown, records, names,
                 set_apart=tuple(i for i, r in enumerate(records) if r["overall"]))


def _with_shape_notes(records: tuple[dict[str, Any], ...], rows: list[SegmentRow]
                      ) -> tuple[dict[str, Any], ...]:
    """``records`` (in `report_tables.plot_order`) with each segment's shape note
    (`SegmentRow.shape_note`, `ranklens.stats.shape`) in brief beside its own note: the
    interval of a segment too skewed or tied for its size is approximate."""
    out = []
    for record, row in zip(records, rows, strict=True):
        brief = shape_brief(row.shape_note)
        if brief:
            own = record.get("note")
            record = {**record, "note": f"{own}; {brief}" if isinstance(own, str) and own
                      else brief}
        out.append(record)
    return tuple(out)


__all__ = ["segments_table"]
