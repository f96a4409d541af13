"""The simulation behind the coverage guardrail, on a small fixed-seed grid.

``bench/sim_unjudged.py`` runs the full grid (the numbers in ``ranklens.compare.coverage``);
this checks on a few cells that its model holds what the rule assumes (B's unjudged documents
relevant at the rate of its judged ones), that the shift predicts the bias of the reported
difference, that equal coverage raises no banner, and that verdicts a gap flipped are flagged.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import sim_unjudged


@pytest.fixture(scope="module")
def outcomes() -> list[sim_unjudged.Outcome]:
    return sim_unjudged.run_grid((0.0, 0.2), (0.0, 0.1), replicates=4, n_queries=200,
                                 n_resamples=1000)


@pytest.mark.slow
def test_unjudged_documents_are_as_relevant_as_judged_ones(outcomes):
    with_holes = [o for o in outcomes if o.new_share > 0]
    assert abs(np.mean([o.hole_rate for o in with_holes])
               - np.mean([o.judged_rate for o in with_holes])) < 0.05


@pytest.mark.slow
def test_the_shift_predicts_the_bias_of_the_reported_difference(outcomes):
    with_holes = [o for o in outcomes if o.new_share > 0]
    bias = np.array([o.true_delta - o.reported_delta for o in with_holes])
    shift = np.array([o.shift for o in with_holes])
    assert bias.mean() > 0.04  # a 10% share of new documents costs B a lot
    assert abs(shift.mean() - bias.mean()) < 0.1 * bias.mean()


@pytest.mark.slow
def test_equal_coverage_raises_no_banner_and_flipped_verdicts_are_flagged(outcomes):
    equal = [o for o in outcomes if o.new_share == 0]
    assert all(abs(o.gap) <= 0.01 + 1e-12 for o in equal)  # sampling noise: about 1 point
    assert not any(o.fired for o in equal)
    flipped = [o for o in outcomes if o.new_share > 0 and o.reported != o.truth]
    assert len(flipped) >= 12  # of 16: a 10-point gap flips these verdicts
    assert all(o.fired for o in flipped)
