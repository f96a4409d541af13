"""A simulated leaderboard: many checkpoints of one model scored on the same queries.

`simulated_board` answers "what does a board of 200 runs look like" without 200 run files: the
per-query nDCG@10-like values of ``n_runs`` checkpoints on ``n_queries`` queries, made from one
seed. The runs are correlated as checkpoints are (a query's difficulty is shared by every run,
each run adds its own per-query noise), their true means come in a few plateaus with ties (a
sweep where many settings do equally well) and a long tail of weaker runs. It is a teaching
demo for the Leaderboard page, said so wherever it is shown; it says nothing about real runs.
"""

from __future__ import annotations

import numpy as np

SIMULATED_METRIC = "nDCG@10"


def simulated_board(n_runs: int = 200, n_queries: int = 1_000, *, seed: int = 0
                    ) -> tuple[list[str], list[dict[str, dict[str, float]]]]:
    """(run names, per run {metric: {query: value}}) of a simulated board (see the module).

    Values lie in [0, 1]; the names say the checkpoint (``ckpt-017``). Deterministic for a
    given ``seed``.
    """
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2.0, 2.5, size=n_queries)  # a query's level, shared by every run
    plateaus = np.array([0.06, 0.05, 0.05, 0.04, 0.03, 0.02, 0.0, -0.03])
    shares = np.array([0.02, 0.05, 0.08, 0.15, 0.2, 0.2, 0.2, 0.1])
    true_shift = rng.choice(plateaus, size=n_runs, p=shares / shares.sum())
    noise = rng.normal(0.0, 0.09, size=(n_queries, n_runs))
    values = np.clip(difficulty[:, None] + true_shift[None, :] + noise, 0.0, 1.0)
    queries = [f"q{i + 1:04d}" for i in range(n_queries)]
    names = [f"ckpt-{j + 1:03d}" for j in range(n_runs)]
    scored = [{SIMULATED_METRIC: dict(zip(queries, values[:, j].round(4).tolist(),
                                          strict=True))}
              for j in range(n_runs)]
    return names, scored


__all__ = ["SIMULATED_METRIC", "simulated_board"]
