"""A leaderboard of many runs (issue 49): which differences are real, as rank intervals and tiers.

`leaderboard_report` answers, for up to `MAX_BOARD_RUNS` runs scored on the same queries, per
metric: each run's mean, its simultaneous rank interval and its tier letters
(`ranklens.stats.ranks.leaderboard`: every pair by step-down max-t over sign flips of whole
queries). `score_runs` reads and scores the runs one at a time (memory: one run and the
per-query values of all). The result is data (`LeaderboardReport`, one codec form); its
section (``ranklens.compare.sections.leaderboard``) is drawn by the writers. It does not
compute the per-pair intervals of a compare report (with 500 runs, 124,750 of them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ranklens import codec, io
from ranklens._lazy import imported, installed_version
from ranklens.io.source import Source, display_name
from ranklens.metrics import evaluate
from ranklens.stats.family import family_test
from ranklens.stats.ranks import leaderboard

MAX_BOARD_RUNS = 500


@dataclass(frozen=True)
class RankRow:
    """One run on one metric: its mean, where its true mean could rank (1 = best), its tier
    letters (two runs share a letter exactly when they are not told apart)."""

    run: str
    mean: float
    rank_low: int
    rank_high: int
    tier: str


@dataclass(frozen=True)
class BaselineRow:
    """One candidate against one baseline on one metric: B - A (candidate minus baseline) and
    its p adjusted over every candidate-baseline pair of the metric (one family)."""

    run: str
    baseline: str
    delta: float
    p_adjusted: float


@dataclass(frozen=True)
class LeaderboardReport:
    """Per metric, the runs from the highest mean down (``ranks``); ``params`` say the family
    (every pair), the method, alpha, the sign flips and seed, the queries used and the
    baselines. With baselines, ``against`` holds per metric each candidate (in ``ranks``
    order) against each baseline, tested as one family of their own."""

    params: Mapping[str, Any]
    run_names: tuple[str, ...]
    ranks: Mapping[str, tuple[RankRow, ...]]
    warnings: tuple[str, ...] = ()
    against: Mapping[str, tuple[BaselineRow, ...]] = field(default_factory=dict)
    version: str = field(default_factory=installed_version)
    kind: str = "leaderboard"

    def to_json(self, indent: int | None = 2) -> str:
        return codec.dumps(codec.plain(self), indent=indent)

    def _repr_html_(self) -> str:
        """In a notebook: the board's sections with the rank-interval charts inline
        (``ranklens.compare.leaderboard_export.notebook_html``)."""
        html: str = imported("ranklens.compare.leaderboard_export:notebook_html")(self)
        return html


codec.register(RankRow, codec.Form(order=("run", "mean", "rank_low", "rank_high", "tier")))
codec.register(BaselineRow, codec.Form(order=("run", "baseline", "delta", "p_adjusted")))
codec.register(LeaderboardReport, codec.Form(
    order=("kind", "version", "run_names", "params", "ranks", "warnings"),
    omit_default=("against",)))


def score_runs(sources: Sequence[Source], qrels_source: Source | None,
               metrics: Sequence[str], *,
               progress: Callable[[str], None] | None = None,
               max_bytes: int | None = None
               ) -> list[dict[str, dict[str, float]]]:
    """Each run's per-query values of ``metrics`` (metric -> query -> value), read and scored
    one at a time; without qrels the runs are per-query tables. ``sources`` are paths, bytes
    or uploads (`ranklens.Source`); ``max_bytes`` is each reader's limit."""
    if len(sources) > MAX_BOARD_RUNS:
        raise io.InputError(display_name(sources[MAX_BOARD_RUNS], None),
                            f"a leaderboard takes at most {MAX_BOARD_RUNS} runs, got "
                            f"{len(sources)}",
                            hint="split the runs into boards, or keep the ones you rank")
    qrels = None
    if qrels_source is not None:
        source, name = _named_source(qrels_source)
        qrels = io.read_qrels(source, name=name, max_bytes=max_bytes)[0]
    scored = []
    for number, given in enumerate(sources, 1):
        if progress:
            progress(f"scoring run {number} of {len(sources)}")
        source, name = _named_source(given)
        if qrels is not None:
            run, _ = io.read_run(source, name=name, max_bytes=max_bytes)
            evaluation = evaluate(run, qrels, list(metrics), missing="zero")
            scored.append({m: dict(evaluation[m].per_query) for m in metrics})
        else:
            results, _ = io.read_per_query(source, name=name, metrics=list(metrics),
                                           max_bytes=max_bytes)
            scored.append({m: dict(results[m].per_query) for m in metrics})
    return scored


def _named_source(given: Source) -> tuple[Source, str | None]:
    """An `InputFile` as its bytes and its name (what the readers take); else as given."""
    if isinstance(given, io.InputFile):
        return given.data, given.name
    return given, None


def leaderboard_report(scored: Sequence[Mapping[str, Mapping[str, float]]],
                       names: Sequence[str], metrics: Sequence[str], *, alpha: float = 0.05,
                       n_permutations: int = 10_000, seed: int = 0,
                       baselines: Sequence[str] = ()) -> LeaderboardReport:
    """The leaderboard of runs whose per-query values are ``scored`` (see the module); with
    ``baselines`` (names among ``names``), each other run against each of them too, as one
    family per metric (step-down max-t, as every pair)."""
    twice = sorted({name for name in names if list(names).count(name) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} is named twice: give each run a name of its own")
    unknown = [b for b in baselines if b not in names]
    if unknown or len(set(baselines)) < len(baselines) or len(baselines) >= len(names):
        raise ValueError(f"baselines must be distinct names of the runs and leave a candidate "
                         f"(runs: {', '.join(names)}); got {', '.join(baselines)}")
    ranks: dict[str, tuple[RankRow, ...]] = {}
    against: dict[str, tuple[BaselineRow, ...]] = {}
    warnings: list[str] = []
    used: dict[str, int] = {}
    tiers: dict[str, int] = {}
    for metric in metrics:
        queries = set.intersection(*(set(run[metric]) for run in scored))
        every = set.union(*(set(run[metric]) for run in scored))
        if len(every) > len(queries):
            warnings.append(f"{metric}: {len(every) - len(queries):,} queries not scored by "
                            f"every run are left out ({len(queries):,} kept)")
        ids = sorted(queries)
        used[metric] = len(ids)
        matrix = np.array([[run[metric][q] for run in scored] for q in ids], dtype=np.float64)
        board = leaderboard(matrix, names, alpha=alpha, n_permutations=n_permutations,
                            seed=seed)
        ranks[metric] = tuple(RankRow(board.names[i], board.means[i], board.rank_low[i],
                                      board.rank_high[i], board.tiers[i]) for i in board.order)
        tiers[metric] = board.n_tiers
        if baselines:
            against[metric] = _against(matrix, list(names), baselines,
                                       [row.run for row in ranks[metric]],
                                       n_permutations=n_permutations, seed=seed)
    params = {"family": "all-pairs", "method": "max-t", "alpha": alpha,
              "n_permutations": n_permutations, "seed": seed, "metrics": list(metrics),
              "queries": used, "tiers": tiers}
    if baselines:
        params["baselines"] = list(baselines)
    return LeaderboardReport(params, tuple(names), ranks, tuple(warnings), against=against)


def _against(matrix: np.ndarray, names: list[str], baselines: Sequence[str],
             board_order: Sequence[str], *, n_permutations: int, seed: int
             ) -> tuple[BaselineRow, ...]:
    """Each candidate against each baseline, one max-t family (`family_test` with the
    baselines first), candidates in the board's order, then baselines in the given order."""
    columns = [names.index(b) for b in baselines]
    candidates = [i for i in range(len(names)) if i not in columns]
    test = family_test(matrix[:, columns + candidates], family="baseline",
                       n_permutations=n_permutations, seed=seed, baselines=len(columns))
    order = [*columns, *candidates]
    found = {(names[order[i]], names[order[j]]): (delta, p)
             for (i, j), delta, p in zip(test.pairs, test.deltas, test.adjusted, strict=True)}
    return tuple(BaselineRow(run, baseline, *found[(baseline, run)])
                 for run in board_order if run not in baselines for baseline in baselines)


__all__ = ["MAX_BOARD_RUNS", "BaselineRow", "LeaderboardReport", "RankRow", "leaderboard_report",
           "score_runs"]
