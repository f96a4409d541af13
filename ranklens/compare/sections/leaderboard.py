"""The sections of a leaderboard of many runs (issue 49), written once for every face.

Per metric: how the board was made (runs, queries, every pair by step-down max-t), then one
line per run from the highest mean down: its rank interval, tier letters, mean and name. Two
runs share a letter exactly when they are not told apart; a rank interval holds the run's
true rank with all the others at once at the board's level.
"""

from __future__ import annotations

from ranklens.compare.leaderboard import LeaderboardReport
from ranklens.document.blocks import Items, Paragraph, Section, section
from ranklens.formats import format_level


def rank_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def leaderboard_sections(report: LeaderboardReport) -> list[Section]:
    """One section per metric."""
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
        width = max(len(rank_text(r.rank_low, r.rank_high)) for r in rows)
        tiers = max(len(r.tier) for r in rows)
        lines = tuple(
            f"{rank_text(r.rank_low, r.rank_high):>{width}}  {r.tier:<{tiers}}  "
            f"{r.mean:.4f}  {r.run}" for r in rows)
        made = section(f"leaderboard-{metric}", f"Leaderboard: {metric} (rank interval, tier, "
                       "mean, run)", [Paragraph(lead), Items(lines)])
        if made is not None:
            out.append(made)
    return out


__all__ = ["leaderboard_sections", "rank_text"]
