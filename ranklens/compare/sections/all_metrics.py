"""Every run on every metric in one table: the table a paper prints (issue 51).

Answers "how does each run do on each metric, and which differences from the baseline hold":
one row per run (the baseline first), per metric the run's mean and, for a candidate, B − A
with its relative lift and a mark when the difference holds at alpha after the report's own
adjustment (two runs: the q-value across the report's metrics; several candidates: the
family's adjusted p for that metric). The lift is B − A over the baseline's mean on the same
queries; it is not shown where that mean is near 0 (under 0.01), where a ratio means little.
No section for a report of one metric (its verdict or leaderboard says it all). It reads
numbers from the Report and computes none but the ratio; it knows no face.
"""

from __future__ import annotations

import math
from typing import Any

from ranklens.compare.report import Report
from ranklens.document.blocks import Paragraph, Section, Table
from ranklens.document.columns import MARK, Column, literal_header
from ranklens.formats import format_delta, format_level, format_lift
from ranklens.stats.lift import NEAR_ZERO

TITLE = "Every metric"


def relative_lift(delta: float, baseline_mean: float) -> float | None:
    """B − A as a share of A's mean, or None where A's mean is under `NEAR_ZERO`."""
    if not math.isfinite(baseline_mean) or abs(baseline_mean) < NEAR_ZERO:
        return None
    return delta / baseline_mean


def lift_text(lift: float | None) -> str:
    """``+4.8%`` (a real minus sign below 0), ``—`` without a lift."""
    return "\u2014" if lift is None else format_lift(lift)


def all_metrics_section(report: Report) -> Section | None:
    """The table of every run on every metric (see the module), or None for one metric."""
    metrics = report.metrics
    if len(metrics) < 2 or report.seeds is not None:
        return None
    alpha = float(report.params.get("alpha", 0.05))
    names = report.run_names
    records: list[dict[str, Any]] = [{"run": f"{names[0]} (baseline)"}]
    for candidate in report.candidates:
        records.append({"run": names[candidate]})
    for metric in metrics:
        first = report.comparison(metric, report.candidates[0]).overall
        records[0][metric] = f"{first.mean_a:.4f}"
        for row, candidate in zip(records[1:], report.candidates, strict=True):
            result = report.comparison(metric, candidate).overall
            delta = result.mean_b - result.mean_a
            adjusted = result.q_value if result.q_value is not None else result.p_value
            mark = f" {MARK}" if adjusted <= alpha else ""
            row[metric] = (f"{result.mean_b:.4f} {format_delta(delta)} "
                           f"({lift_text(relative_lift(delta, result.mean_a))}){mark}")
    adjusted_by = ("the family's adjusted p for each metric (every candidate against the "
                   "baseline)" if report.several else
                   "the q-value across the report's metrics (Benjamini\u2013Hochberg)")
    lead = (f"Each run's mean on every metric; for a candidate, then B \u2212 A and, in "
            f"brackets, its relative lift (B \u2212 A over the baseline's mean). {MARK}: the "
            f"difference holds at {format_level(1 - alpha)} after {adjusted_by}. The lift is "
            f"not given where the baseline's mean is under {NEAR_ZERO}.")
    columns = (Column("run", "Run", "label"),
               *(Column(metric, literal_header(metric), "text") for metric in metrics))
    return Section("all-metrics", TITLE, (Paragraph(lead, literal=True),
                                          Table("all-metrics", columns, tuple(records))))



__all__ = ["TITLE", "all_metrics_section", "lift_text", "relative_lift"]
