"""A Report as tables for people: the rows behind the forest plot and the per-query deltas.

``segment_table`` answers "what does each row of the forest plot say" (overall first, then the
segments sorted by difference), with plain column names fit for a CSV or JSON download;
``per_query_table`` answers "which queries moved, and by how much" on the queries the comparison
paired; ``leaderboard_table`` "how does each candidate do against the baseline, with the
family's adjusted p" and ``pairs_table`` every comparison of the family (all pairs when asked).
They reshape what the Report holds; they compute no statistics (no interval, no test).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ranklens.compare.columns import win_tie_loss as win_tie_loss  # the page reads it here
from ranklens.compare.family import FamilyComparison
from ranklens.compare.report import Report, result_row
from ranklens.compare.segments import OVERALL, MetricComparison, SegmentRow
from ranklens.formats import format_interval, format_p
from ranklens.health.check_words import NO_VERDICT, run_status, withholds
from ranklens.stats import ComparisonResult
from ranklens.stats.lift import Lift
from ranklens.stats.pairing import pair_quietly
from ranklens.stats.results import at_most

SEGMENT_COLUMNS = (  # where the row is, what it says, and columns of `result_row`
    "segment", "overall", "n_queries", "mean_a", "mean_b", "delta", "ci_low", "ci_high",
    "p_value", "t_p_value", "q_value", "significant", "finding", "wins", "ties", "losses",
    "effect_size", "note", "ci_level", "fcr_low", "fcr_high", "fcr_level", "lift", "lift_low",
    "lift_high",
)
"""``ci_low``/``ci_high`` are the marginal interval at ``ci_level``; ``fcr_low``/``fcr_high``
the FCR-adjusted one at ``fcr_level`` (`ranklens.compare.fcr`; NaN where there is none: the
overall row, a too-small segment, a report without them); ``lift``/``lift_low``/``lift_high``
B's relative lift over A and its interval at ``ci_level`` (NaN where A's mean is near 0)."""

# What a row says, in words: the legend of the forest plot and a column of the table.
BETTER = "{b} better"
WORSE = "{b} worse"
NO_DIFFERENCE = "no reliable difference"
TOO_SMALL = "too small to compare"


def frame_records(frame: pd.DataFrame) -> tuple[dict[str, Any], ...]:
    """The rows of one of these tables as records (column name -> value), in order: what a
    document ``Table`` holds (``ranklens.compare.sections``)."""
    return tuple({str(key): value for key, value in record.items()}
                 for record in frame.to_dict("records"))


def finding(result: ComparisonResult | None, run_names: tuple[str, str]) -> str:
    """``"<B> better"``, ``"<B> worse"``, ``"no reliable difference"`` or ``"too small..."``.

    Decided by ``result.significant`` (the q-value when the result was adjusted, else p).
    """
    if result is None:
        return TOO_SMALL
    if not result.significant or result.delta == 0:
        return NO_DIFFERENCE
    return (BETTER if result.delta > 0 else WORSE).format(b=run_names[1])


def finding_labels(run_names: tuple[str, str]) -> tuple[str, str, str, str, str]:
    """Every value a row's finding can take for these run names, in legend order (the last,
    `NO_VERDICT`, where the report withholds its verdict)."""
    b = run_names[1]
    return BETTER.format(b=b), NO_DIFFERENCE, WORSE.format(b=b), TOO_SMALL, NO_VERDICT


def short_finding(text: str, who: str) -> str:
    """A table cell for a finding (`finding` or `candidate_finding`'s words): "<who>better",
    "<who>worse", "no difference" or "too small"; any other finding ("baseline") as it is."""
    short = {NO_DIFFERENCE: "no difference", TOO_SMALL: "too small"}
    if text in short:
        return short[text]
    for word in ("better", "worse"):
        if text.endswith(f" {word}"):
            return f"{who}{word}"
    return text


def segment_table(comparison: MetricComparison, run_names: tuple[str, str], *,
                  withheld: bool = False) -> pd.DataFrame:
    """One row per forest-plot row: the overall row first, then segments by difference.

    Segments are sorted by mean difference B - A, largest first; segments too small to compare
    (no result) come last with their note. ``significant`` is the decision of the row (q for
    segments, the overall row's own p or cross-metric q); ``q_value`` is NaN where there is none.
    With ``withheld`` (the report draws no verdict, ``ranklens.health``) every compared row's
    ``finding`` is `NO_VERDICT` and none is ``significant``: the numbers stay, no reading.
    """
    ordered = plot_order(comparison)
    records = [_record(row, i == 0, run_names) for i, row in enumerate(ordered)]
    table = pd.DataFrame.from_records(records, columns=list(SEGMENT_COLUMNS))
    if withheld:
        compared = table["finding"] != TOO_SMALL
        table.loc[compared, "finding"] = NO_VERDICT
        table["significant"] = False
    return table


def plot_order(comparison: MetricComparison) -> list[SegmentRow]:
    """The rows of ``comparison`` in the forest plot's order, the one order of every table of
    them (text, Markdown, HTML, the page, CSV): the overall row first, then the segments by
    difference B - A, largest first (ties by name), then those too small to compare."""
    rows = comparison.rows
    segments = list(rows[1:])
    scored = sorted((r for r in segments if r.result is not None),
                    key=lambda r: (-_delta(r), r.segment))
    return [rows[0], *scored, *(r for r in segments if r.result is None)]


def _delta(row: SegmentRow) -> float:
    return math.nan if row.result is None else row.result.delta


def _record(row: SegmentRow, is_overall: bool, run_names: tuple[str, str]) -> dict[str, object]:
    """The `SEGMENT_COLUMNS` of one row: the result's `result_row`, or NaN numbers, zero
    counts and not significant when the segment was too small to compare."""
    result = row.result
    values: dict[str, object] = (
        {"significant": False, "wins": 0, "ties": 0, "losses": 0} if result is None
        else result_row(result))
    values.update(segment=OVERALL if is_overall else row.segment, overall=is_overall,
                  n_queries=row.n_queries, finding=finding(result, run_names), note=row.note,
                  **lift_cells(row.lift),
                  **interval_levels(row))
    return {column: math.nan if values.get(column) is None else values[column]
            for column in SEGMENT_COLUMNS}


def lift_cells(lift: Lift | None) -> dict[str, float | None]:
    """A row's lift as the ``lift``, ``lift_low``, ``lift_high`` cells of every table and CSV
    of segments and candidates; None where there is none (as `interval_levels`)."""
    if lift is None:
        return {"lift": None, "lift_low": None, "lift_high": None}
    return {"lift": lift.estimate, "lift_low": lift.low, "lift_high": lift.high}


def interval_levels(row: SegmentRow) -> dict[str, float | None]:
    """A row's interval levels and its FCR-adjusted interval: ``ci_level`` (the marginal
    interval's), ``fcr_low``, ``fcr_high``, ``fcr_level`` (None where there is none)."""
    result, fcr = row.result, row.fcr
    return {"ci_level": None if result is None else result.interval.level,
            "fcr_low": None if fcr is None else fcr.low,
            "fcr_high": None if fcr is None else fcr.high,
            "fcr_level": None if fcr is None else fcr.level}


def shown_intervals(table: pd.DataFrame, shown: str = "fcr") -> pd.DataFrame:
    """``table`` (a `segment_table`) with ``shown_low``/``shown_high``/``shown_level``: the
    FCR-adjusted interval where the row has one and ``shown`` is "fcr", else the marginal
    one (the overall row always). What the forest plot and the page's table draw."""
    use = table["fcr_low"].notna() if shown == "fcr" else pd.Series(False, index=table.index)
    return table.assign(
        shown_low=table["fcr_low"].where(use, table["ci_low"]),
        shown_high=table["fcr_high"].where(use, table["ci_high"]),
        shown_level=table["fcr_level"].where(use, table["ci_level"]),
        shown_kind=["FCR-adjusted" if u else "marginal" for u in use])


def describe_row(record: Mapping[Any, object]) -> dict[str, str]:
    """Formatted texts of one `segment_table` row for tooltips: interval, p, q."""
    def number(key: str) -> float:
        value = record.get(key)
        return math.nan if value is None else float(value)  # type: ignore[arg-type]

    low, high = number("ci_low"), number("ci_high")
    p, q = number("p_value"), number("q_value")
    return {
        "interval": "" if math.isnan(low) else format_interval(low, high),
        "p": "" if math.isnan(p) else format_p(p),
        "q": "—" if math.isnan(q) else format_p(q),
    }


def per_query_table(
    report: Report,
    metric: str,
    segments: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """The compared queries of ``metric``: ``query_id``, ``a``, ``b``, ``delta`` = b - a,
    ``outcome`` ("B wins" / "tie" / "B loses") and, with ``segments``, ``segment``.

    The queries are those the comparison paired under the report's missing-query policy
    (``drop``: measured in both runs; ``zero``: in either, 0 where missing), sorted by id.
    """
    values = report.per_query[metric]
    # its notes are the report's already
    paired = pair_quietly(values["a"], values["b"],
                          missing=str(report.params.get("missing", "drop")), min_queries=0)
    frame = pd.DataFrame({"query_id": list(paired.queries), "a": paired.a, "b": paired.b})
    frame["delta"] = frame["b"] - frame["a"]
    frame["outcome"] = "tie"
    frame.loc[frame["delta"] > 0, "outcome"] = "B wins"
    frame.loc[frame["delta"] < 0, "outcome"] = "B loses"
    if segments is not None:
        frame["segment"] = [segments.get(q, "(no segment)") for q in frame["query_id"]]
    return frame


def biggest_changes(per_query: pd.DataFrame, n: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``n`` queries B lost most (most negative delta first) and won most (largest first).

    Ties are excluded from both; equal deltas are ordered by query id.
    """
    losses = per_query[per_query["delta"] < 0].sort_values(["delta", "query_id"])
    wins = per_query[per_query["delta"] > 0].sort_values(["delta", "query_id"],
                                                         ascending=[False, True])
    return losses.head(n).reset_index(drop=True), wins.head(n).reset_index(drop=True)


COVERAGE_COLUMNS = ("segment", "n_queries", "judged_a", "judged_b", "gap", "shift",
                    "could_change")


def coverage_table(report: Report, metric: str) -> pd.DataFrame | None:
    """Judged@k of both runs per row of ``metric``'s comparison (overall first, segments in
    the comparison's order): the gap in judged@k, the same-rate shift of B - A and whether
    unjudged documents could change that row's verdict (`MetricCoverage.at_risk`, the rule
    the banner and the card say; None in every row when the report withholds its verdict:
    there is none to change). None when the report has no coverage (per-query tables).
    """
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return None
    withheld = withholds(report.health)
    records = [{"segment": row.segment, "n_queries": row.n_queries, "judged_a": row.judged_a,
                "judged_b": row.judged_b, "gap": row.gap, "shift": row.shift,
                "could_change": None if withheld else coverage.at_risk(row)}
               for row in coverage.rows]
    return pd.DataFrame.from_records(records, columns=list(COVERAGE_COLUMNS))


def with_query_coverage(report: Report, metric: str, per_query: pd.DataFrame) -> pd.DataFrame:
    """``per_query`` (from `per_query_table`) with judged@k of A and B per query
    (``judged_a``, ``judged_b``) and, for RBP, each run's residual (``residual_a``,
    ``residual_b``); unchanged when the report has no coverage."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return per_query
    columns = {key: [values.get(q, math.nan) for q in per_query["query_id"]]
               for key, values in coverage.per_query.items()}
    return per_query.assign(**columns)
LEADERBOARD_COLUMNS = (
    "run", "position", "baseline", "n_queries", "mean", "delta", "ci_low", "ci_high",
    "p_value", "adjusted_p", "t_p_value", "significant", "finding", "wins", "ties", "losses",
    "lift", "lift_low", "lift_high",
)
PAIR_COLUMNS = (
    "run_a", "run_b", "position_a", "position_b", "n_queries", "mean_a", "mean_b", "delta",
    "ci_low", "ci_high", "p_value", "adjusted_p", "significant", "wins", "ties", "losses",
)


def candidate_finding(delta: float, significant: bool, name: str) -> str:
    """``"<name> better"``, ``"<name> worse"`` or ``"no reliable difference"``."""
    if not significant or delta == 0:
        return NO_DIFFERENCE
    return (BETTER if delta > 0 else WORSE).format(b=name)


def leaderboard_table(report: Report, metric: str) -> pd.DataFrame:
    """The baseline and every candidate on ``metric``: the baseline's row first, then the
    candidates by mean, best first (ties in input order).

    ``position`` is the run's place among the report's runs (0 the baseline; what stable
    colours key on). A candidate's ``delta``, interval, ``p_value``, ``t_p_value`` and W/T/L
    are its comparison with the baseline; ``adjusted_p`` is adjusted for the family (for a
    two-run report: its own p, a family of one) and decides ``significant`` and ``finding``.
    """
    names = report.run_names
    first = report.comparison(metric, report.candidates[0]).overall
    rows: list[dict[str, object]] = [{
        "run": names[0], "position": 0, "baseline": True, "n_queries": first.n_queries,
        "mean": first.mean_a, "finding": "baseline",
    }]
    family = report.family(metric)
    for j in report.candidates:
        comparison = report.comparison(metric, j)
        result = comparison.overall
        adjusted = (result.p_value if family is None else family.pair(0, j).adjusted_p)
        significant = at_most_alpha(adjusted, result.alpha)
        rows.append({
            "run": names[j], "position": j, "baseline": False, "n_queries": result.n_queries,
            "mean": result.mean_b, "delta": result.delta, "ci_low": result.interval.low,
            "ci_high": result.interval.high, "p_value": result.p_value, "adjusted_p": adjusted,
            "t_p_value": result.t_test.p_value, "significant": significant,
            "finding": candidate_finding(result.delta, significant, names[j]),
            "wins": result.outcomes.wins, "ties": result.outcomes.ties,
            "losses": result.outcomes.losses,
            **lift_cells(comparison.overall_lift),
        })
    baseline, candidates = rows[0], rows[1:]
    candidates.sort(key=lambda r: (-_number(r["mean"]), _number(r["position"])))
    frame = pd.DataFrame.from_records([baseline, *candidates], columns=list(LEADERBOARD_COLUMNS))
    frame["significant"] = frame["significant"].fillna(False).astype(bool)
    if report.health is not None:  # each run's health checks; no finding where withheld
        frame["health"] = [run_status(report.health, int(p)) for p in frame["position"]]
        withheld = [p != 0 and bool(report.health.withheld_for(int(p)))
                    for p in frame["position"]]
        frame.loc[withheld, "finding"] = NO_VERDICT
        frame.loc[withheld, "significant"] = False
    return frame


def pairs_table(report: Report, metric: str) -> pd.DataFrame:
    """Every comparison of ``metric``'s family, in the family's order (the baseline's pairs
    first): run B against run A, its interval, own p and adjusted p. Empty for two runs."""
    family: FamilyComparison | None = report.family(metric)
    names = report.run_names
    records = []
    for row in () if family is None else family.pairs:
        result = row.result
        significant = at_most_alpha(row.adjusted_p, result.alpha)
        records.append({
            "run_a": names[row.a], "run_b": names[row.b], "position_a": row.a,
            "position_b": row.b, "n_queries": result.n_queries, "mean_a": result.mean_a,
            "mean_b": result.mean_b, "delta": result.delta, "ci_low": result.interval.low,
            "ci_high": result.interval.high, "p_value": result.p_value,
            "adjusted_p": row.adjusted_p, "significant": significant,
            "wins": result.outcomes.wins, "ties": result.outcomes.ties,
            "losses": result.outcomes.losses,
        })
    return pd.DataFrame.from_records(records, columns=list(PAIR_COLUMNS))


def _number(value: object) -> float:
    return float(value)  # type: ignore[arg-type]


def at_most_alpha(p: float, alpha: float) -> bool:
    """The package's one decision rule (``ranklens.stats.results.at_most``)."""
    return at_most(p, alpha)
