"""How many seeds and how many queries: planning a new-run comparison from a pilot with seeds.

From the variance components a pilot measured (`ranklens.stats.compare_seeds`' ``.components``:
query, seed and query x seed), `seed_plan` answers the two planning questions of issue 31: the
MDE of a new-run comparison with S seeds per system and n queries
(`ranklens.stats.seed_power.new_run_mde`), and the fewest seeds per system that detect a
target difference at the pilot's number of queries (`seeds_needed`), or why no number of seeds
can (the query part alone is larger: more queries are needed). `components_from_inputs` measures
the components of a pilot given as files. It draws nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.io import InputFile
from ranklens.stats.random_effects import VarianceComponents
from ranklens.stats.seed_power import MIN_SEEDS, new_run_mde, seeds_needed

SEED_GRID = (2, 3, 5, 10)
"""Seeds per system in the planning table."""
QUERY_FACTORS = (0.5, 1.0, 2.0, 4.0)
"""Multiples of the planned number of queries in the planning table."""


@dataclass(frozen=True)
class SeedPlan:
    """The answers for one design: ``mde`` with ``n_seeds`` seeds per system on ``n_queries``
    queries; ``seeds_for_delta`` the fewest seeds that detect ``delta`` on ``n_queries``
    (None, with ``why`` in words, when none can); ``grid`` (seeds, queries, MDE) rows."""

    n_seeds: int
    n_queries: int
    delta: float
    mde: float
    seeds_for_delta: int | None
    why: str
    grid: tuple[tuple[int, int, float], ...]


def seed_plan(components: VarianceComponents, *, n_seeds: int, n_queries: int, delta: float,
              alpha: float = 0.05, power: float = 0.8, method: str = "z") -> SeedPlan:
    """MDE of the design, seeds needed for ``delta`` and the planning grid (module docstring).
    ``ValueError`` for fewer than `MIN_SEEDS` seeds or 2 queries."""
    mde = new_run_mde(components, n_seeds, n_queries, alpha=alpha, power=power, method=method)
    try:
        needed: int | None = seeds_needed(components, delta, n_queries, alpha=alpha,
                                          power=power, method=method)
        why = ""
    except ValueError as error:
        needed, why = None, str(error)
    grid = tuple((s, max(2, round(f * n_queries)),
                  new_run_mde(components, s, max(2, round(f * n_queries)), alpha=alpha,
                              power=power, method=method))
                 for s in SEED_GRID for f in QUERY_FACTORS)
    return SeedPlan(n_seeds, n_queries, delta, mde, needed, why, grid)


def components_from_inputs(runs_a: Sequence[InputFile], runs_b: Sequence[InputFile],
                           qrels: InputFile | None, metric: str) -> VarianceComponents:
    """The variance components of a pilot: each system's runs (training seeds) scored on
    ``qrels`` (or per-query tables without), as `ranklens.compare.seeds` measures them.
    ``ValueError`` when neither system has `MIN_SEEDS` runs."""
    if max(len(runs_a), len(runs_b)) < MIN_SEEDS:
        raise ValueError(f"give {MIN_SEEDS} or more runs (training seeds) of at least one "
                         "system: with one run each the seed variance cannot be measured")
    inputs = load_inputs(*runs_a, *runs_b, qrels=qrels)
    settings = CompareSettings(metrics=(metric,), seed_runs=(len(runs_a), len(runs_b)),
                               n_resamples=1_000, n_permutations=1_000)
    report = inputs.report(settings)  # its warnings are a comparison's; the plan needs none
    assert report.seeds is not None
    return report.seeds.answers[0].comparison.components
