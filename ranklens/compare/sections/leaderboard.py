"""The sections of a leaderboard of many runs (issue 49), written once for every face.

Per metric: how the board was made (runs, queries, every pair by step-down max-t), the
rank intervals beside the means (a chart: the faces that draw pictures), then the table of
runs from the highest mean down: rank interval, mean, run and tiers. Two runs share a tier
exactly when they are not told apart; a rank interval holds the run's true rank with all
the others at once at the board's level. With baselines, a second section: each candidate
against each baseline (a mark, B − baseline and the family's adjusted p). Text, Markdown,
HTML and the page draw the same blocks; LaTeX prints its own booktabs table
(``ranklens.compare.leaderboard_latex``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ranklens.compare.leaderboard import BaselineRow, LeaderboardReport, RankRow
from ranklens.document.blocks import Chart, Paragraph, Section, Table
from ranklens.document.columns import Column, literal_header
from ranklens.formats import format_delta, format_level, format_p

ABOVE, BELOW, LEVEL = "▲", "▼", "="
BOARD_COLUMNS = (
    Column("rank", "Rank", "label", "Rank interval"),
    Column("mean", "{metric}", "value", "Mean {metric}"),
    Column("run", "Run", "label"),
    Column("tier", "Tiers", "text"),
)
"""The board's table: the rank interval, the mean, the run and its tiers (last: on a board of
hundreds of runs a run's tiers can be a long list)."""


def rank_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def board_key(metric: str) -> str:
    """The key of ``metric``'s board section (`leaderboard_sections`)."""
    return f"leaderboard-{metric}"


def board_records(rows: Sequence[RankRow]) -> tuple[dict[str, Any], ...]:
    """One record of `BOARD_COLUMNS` per run, in the board's order."""
    return tuple({"rank": rank_text(r.rank_low, r.rank_high), "mean": r.mean, "run": r.run,
                  "tier": r.tier} for r in rows)


def leaderboard_sections(report: LeaderboardReport) -> list[Section]:
    """Per metric, the board's section (key `board_key`), then, with baselines, the section
    of the candidates against them."""
    params = report.params
    level = format_level(1 - float(params["alpha"]))
    out = []
    for metric, rows in report.ranks.items():
        n_runs = len(rows)
        pairs = n_runs * (n_runs - 1) // 2
        lead = (f"{n_runs} runs on {params['queries'][metric]:,} queries scored by every run; "
                f"all {pairs:,} pairs tested at once (step-down max-t over "
                f"{params['n_permutations']:,} sign flips of whole queries, seed "
                f"{params['seed']}), so every rank interval and tier holds together at "
                f"{level}. Rank 1 is the highest mean; runs that share a tier are not told "
                "apart.")
        if any("–" in r.tier for r in rows):
            lead += " A range such as a–d stands for the tiers a, b, c and d."
        out.append(Section(board_key(metric), f"Leaderboard: {metric}", (
            Paragraph(lead, literal=True),
            Chart("leaderboard-ranks", partial(_rank_chart, rows, metric),
                  f"Rank interval and mean of each of {n_runs} runs on {metric}"),
            Table("leaderboard", BOARD_COLUMNS, board_records(rows), {"metric": metric}))))
        rows_against = report.against.get(metric, ())
        if rows_against:
            out.append(against_section(metric, rows_against, float(params["alpha"]),
                                       int(params["n_permutations"])))
    return out


def _rank_chart(rows: Sequence[RankRow], metric: str) -> Any:
    from ranklens.compare.leaderboard_chart import rank_interval_chart  # Altair where drawn

    return rank_interval_chart(rows, metric)



def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def mark(row: BaselineRow, alpha: float) -> str:
    """▲ found above the baseline, ▼ found below, = not told apart (at ``alpha``, family-wise)."""
    if row.p_adjusted > alpha:
        return LEVEL
    return ABOVE if row.delta > 0 else BELOW


def against_section(metric: str, rows: Sequence[BaselineRow], alpha: float,
                    n_permutations: int) -> Section:
    """Each candidate against each baseline: one row per candidate, a column per baseline
    with its mark, B − baseline and the family's adjusted p."""
    baselines = list(dict.fromkeys(r.baseline for r in rows))
    candidates = list(dict.fromkeys(r.run for r in rows))
    lead = (f"{_count(len(candidates), 'candidate')} against "
            f"{_count(len(baselines), 'baseline')} "
            f"({', '.join(baselines)}): all {len(rows):,} differences tested as one family "
            f"(step-down max-t over {n_permutations:,} sign flips of whole queries) at "
            f"{format_level(1 - alpha)}. {ABOVE} found above the baseline, {BELOW} found "
            f"below, {LEVEL} not told apart; p adjusted over the family.")
    records: dict[str, dict[str, Any]] = {run: {"run": run} for run in candidates}
    for row in rows:
        records[row.run][f"vs {row.baseline}"] = (
            f"{mark(row, alpha)} {format_delta(row.delta)} (p {format_p(row.p_adjusted)})")
    table_columns = (Column("run", "Candidate", "label"),
                     *(Column(f"vs {b}", literal_header(f"vs {b}"), "text") for b in baselines))
    return Section(f"{board_key(metric)}-baselines",
                   f"Against the baselines: {metric} (B − baseline)",
                   (Paragraph(lead, literal=True),
                    Table("leaderboard-baselines", table_columns, tuple(records.values()))))


__all__ = ["BOARD_COLUMNS", "against_section", "board_key", "board_records",
           "leaderboard_sections", "mark", "rank_text"]
