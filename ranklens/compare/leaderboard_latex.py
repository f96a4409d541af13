"""A leaderboard as a paper prints it: one booktabs table per metric (issue 49).

Answers "the leaderboard for my paper": rank interval, tier letters (two runs sharing a
letter are not told apart), mean and run, highest mean first, the caption saying how the
pairs were tested and at which level. Names are escaped for LaTeX. It does not add
``\\usepackage{booktabs}`` (nor ``amssymb``, for the marks against baselines) to your
preamble.
"""

from __future__ import annotations

from ranklens.compare.leaderboard import BaselineRow, LeaderboardReport
from ranklens.compare.sections.leaderboard import mark, rank_text
from ranklens.document.latex import booktabs, escape
from ranklens.formats import level_number


def leaderboard_latex(report: LeaderboardReport, *, label: str = "") -> str:
    """Every metric's table, one after the other (``label`` gets ``-metric`` appended)."""
    params = report.params
    level = level_number(1 - float(params["alpha"]))
    out = []
    for metric, rows in report.ranks.items():
        caption = (f"{escape(metric)}: {len(rows)} runs on {params['queries'][metric]:,} "
                   f"queries, ranked by their mean. Rank: simultaneous {level}\\% interval of "
                   "each run's rank, from every pair tested at once (step-down max-$t$ over "
                   f"{params['n_permutations']:,} sign flips of whole queries); runs sharing "
                   "a letter are not told apart.")
        against = {(a.run, a.baseline): a for a in report.against.get(metric, ())}
        baselines = list(dict.fromkeys(baseline for _, baseline in against))
        if baselines:
            caption += (" Against each baseline: $\\blacktriangle$ found above, "
                        "$\\blacktriangledown$ found below, $=$ not told apart, over one "
                        "family of every candidate and baseline.")
        alpha = float(params["alpha"])
        out.append(booktabs(
            ["Rank", "Tier", escape(metric), "Run",
             *(f"vs {escape(b)}" for b in baselines)],
            [[rank_text(r.rank_low, r.rank_high), r.tier, f"{r.mean:.4f}", escape(r.run),
              *(_versus(against.get((r.run, b)), r.run == b, alpha) for b in baselines)]
             for r in rows],
            align="llrl" + "r" * len(baselines), caption=caption,
            label=f"{label}-{metric}" if label else ""))
    return "".join(out)


MARKS = {"▲": "$\\blacktriangle$", "▼": "$\\blacktriangledown$", "=": "$=$"}


def _versus(found: BaselineRow | None, is_baseline: bool, alpha: float) -> str:
    """A candidate's cell against one baseline: its mark and B - baseline."""
    if found is None:
        return "baseline" if is_baseline else "--"
    return f"{MARKS[mark(found, alpha)]} {found.delta:+.4f}"


__all__ = ["leaderboard_latex"]
