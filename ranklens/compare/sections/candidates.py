"""The tables of several candidates against one baseline, written once for every face.

Answers "how does each candidate do on this metric against the baseline" (`candidates_table`:
the baseline's row first, its name marked, then the candidates by mean, best first) and "what
does every pair say" (`pairs_block`, when the family is all pairs). Text and Markdown draw
their narrow columns, the HTML export their wide ones
(``ranklens.document.html.wide_table_html``). The records are
``ranklens.compare.report_tables``'; nothing here computes a number.
"""

from __future__ import annotations

from typing import Any

from ranklens.compare import columns, report_tables
from ranklens.compare.report import Report
from ranklens.document.blocks import Table
from ranklens.formats import level_number
from ranklens.health.check_words import with_health_column

BASELINE_KEYS = ("run", "n_queries", "mean", "finding", "health", "baseline")
"""What the baseline's row says: its name, queries, mean, finding and health (no difference:
its other cells are empty in text, dashes in the wide faces)."""


def candidates_table(report: Report, metric: str) -> Table:
    """The leaderboard of ``metric`` (key ``leaderboard``, the baseline's row set apart); the
    health column, before the mark, only when some run's checks did not all pass."""
    frame = report_tables.leaderboard_table(report, metric)
    keys = with_health_column([c.key for c in columns.LEADERBOARD_COLUMNS
                               if c.key != "health"], frame)
    records = tuple(_baseline(record) if record["baseline"] else record
                    for record in report_tables.frame_records(frame))
    return Table("leaderboard", columns.pick(columns.LEADERBOARD_COLUMNS, keys), records,
                 _names(report, metric),
                 set_apart=tuple(i for i, r in enumerate(records) if r["baseline"]))


def pairs_block(report: Report, metric: str) -> Table | None:
    """Every pair of the family (key ``pairs``) when it is all pairs; None otherwise."""
    family = report.family(metric)
    if family is None or family.family != "all-pairs":
        return None
    pairs = report_tables.pairs_table(report, metric)
    return Table("pairs", columns.PAIR_COLUMNS, report_tables.frame_records(pairs),
                 _names(report, metric))


def _baseline(record: dict[str, Any]) -> dict[str, Any]:
    kept = {key: record[key] for key in BASELINE_KEYS if key in record}
    return {**kept, "run": f"{record['run']} (A, baseline)"}


def _names(report: Report, metric: str) -> dict[str, object]:
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    return {"level": level_number(1 - alpha)}


__all__ = ["BASELINE_KEYS", "candidates_table", "pairs_block"]
