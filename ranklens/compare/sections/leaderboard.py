"""The sections of a leaderboard of many runs (issue 49), written once for every face.

Per metric: how the board was made (runs, queries, every pair by step-down max-t), then one
line per run from the highest mean down: its rank interval, tier letters, mean and name. Two
runs share a letter exactly when they are not told apart; a rank interval holds the run's
true rank with all the others at once at the board's level.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.compare.leaderboard import BaselineRow, LeaderboardReport
from ranklens.document.blocks import Items, Paragraph, Section, section
from ranklens.formats import format_delta, format_level, format_p

ABOVE, BELOW, LEVEL = "▲", "▼", "="


def rank_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def board_key(metric: str) -> str:
    """The key of ``metric``'s board section (`leaderboard_sections`)."""
    return f"leaderboard-{metric}"


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
                f"{level}. Rank 1 is the highest mean; runs that share a letter are not told "
                "apart.")
        if any("–" in r.tier for r in rows):
            lead += " A range such as a–d stands for the tiers a, b, c and d."
        width = max(len(rank_text(r.rank_low, r.rank_high)) for r in rows)
        names = max(len(r.run) for r in rows)
        # the tiers last: on a board of hundreds of runs a run's tiers can be a long list
        lines = tuple(
            f"{rank_text(r.rank_low, r.rank_high):>{width}}  {r.mean:.4f}  {r.run:<{names}}  "
            f"{r.tier}".rstrip() for r in rows)
        made = section(board_key(metric), f"Leaderboard: {metric} (rank interval, mean, run, "
                       "tiers)", [Paragraph(lead), Items(lines)])
        if made is not None:
            out.append(made)
        rows_against = report.against.get(metric, ())
        if rows_against:
            out.append(against_section(metric, rows_against, float(params["alpha"]),
                                       int(params["n_permutations"])))
    return out


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def mark(row: BaselineRow, alpha: float) -> str:
    """▲ found above the baseline, ▼ found below, = not told apart (at ``alpha``, family-wise)."""
    if row.p_adjusted > alpha:
        return LEVEL
    return ABOVE if row.delta > 0 else BELOW


def against_section(metric: str, rows: Sequence[BaselineRow], alpha: float,
                    n_permutations: int) -> Section:
    """Each candidate against each baseline: one line per candidate, its difference from
    each baseline with the family's adjusted p and a mark."""
    baselines = list(dict.fromkeys(r.baseline for r in rows))
    candidates = list(dict.fromkeys(r.run for r in rows))
    lead = (f"{_count(len(candidates), 'candidate')} against "
            f"{_count(len(baselines), 'baseline')} "
            f"({', '.join(baselines)}): all {len(rows):,} differences tested as one family "
            f"(step-down max-t over {n_permutations:,} sign flips of whole queries) at "
            f"{format_level(1 - alpha)}. {ABOVE} found above the baseline, {BELOW} found "
            f"below, {LEVEL} not told apart; p adjusted over the family.")
    by_run: dict[str, list[BaselineRow]] = {}
    for row in rows:
        by_run.setdefault(row.run, []).append(row)
    lines = tuple(
        f"{run}: " + "; ".join(f"{mark(r, alpha)} {format_delta(r.delta)} vs {r.baseline} "
                               f"(p {format_p(r.p_adjusted)})" for r in found)
        for run, found in by_run.items())
    return Section(f"leaderboard-{metric}-baselines",
                   f"Against the baselines: {metric} (B − baseline)",
                   (Paragraph(lead), Items(lines)))


__all__ = ["against_section", "board_key", "leaderboard_sections", "mark", "rank_text"]
