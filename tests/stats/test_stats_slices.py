"""Slice discovery (`ranklens.stats.slices`): candidates, the cross-fitted split, and by
simulation the error under no heterogeneity, the power for a planted slice and the held-out
coverage."""

from __future__ import annotations

import numpy as np
import pytest

from ranklens.stats.slices import binned, discover_slices


def _world(rng: np.random.Generator, planted: bool, n: int = 2000, sd: float = 0.1):
    intent = rng.choice(["nav", "info", "trans", "local"], n, p=[0.4, 0.3, 0.2, 0.1])
    locale = rng.choice(["en", "de", "fr", "ja", "es"], n)
    length = rng.choice(["short", "mid", "long"], n)
    deltas = rng.normal(0.02, sd, n)
    if planted:
        deltas[intent == "local"] -= 0.05
    return deltas, {"intent": intent, "locale": locale, "length": length}


def test_the_split_and_the_candidates_are_counted_and_seeded():
    rng = np.random.default_rng(0)
    deltas, features = _world(rng, planted=True)
    first = discover_slices(deltas, features, seed=3)
    again = discover_slices(deltas, features, seed=3)
    assert first == again
    assert first.n_search + first.n_confirm == 2000 and first.n_search == 1000
    # 4 + 5 + 3 values, and the pairs of values large enough in both parts
    assert 12 < first.n_candidates <= 12 + 4 * 5 + 4 * 3 + 5 * 3
    # each part keeps two slices of one column and one pair; a slice kept by both is one row
    assert first.n_tests == 6 and 3 <= len(first.slices) <= 6
    assert len({s.columns for s in first.slices}) == len(first.slices)
    assert sum(len(s.columns) == 2 for s in first.slices) <= 2
    q = [s.q_value for s in first.slices]
    assert q == sorted(q) and all(s.p_value <= s.q_value <= 1 for s in first.slices)
    for found in first.slices:
        assert found.n_queries >= 20 and found.ci_low <= found.delta <= found.ci_high
    assert first.slices[0].columns == (("intent", "local"),) and first.slices[0].confirmed(0.05)
    assert discover_slices(deltas, features, seed=4).n_search == 1000


def test_the_family_wise_p_is_holm_over_both_directions_and_the_interval_simultaneous():
    """Six tests (3 a direction): the smallest p is multiplied by 6; the interval of a slice
    is its held-out t interval at 1 - .05 / 6."""
    from ranklens.stats.distributions import t_quantile

    rng = np.random.default_rng(5)
    deltas, features = _world(rng, planted=True)
    found = discover_slices(deltas, features, seed=1)
    top = found.slices[0]
    assert top.q_value == pytest.approx(min(1.0, 6 * top.p_value), rel=1e-12)
    half = t_quantile(1 - 0.05 / 12, top.n_queries - 1)
    width = top.ci_high - top.ci_low
    held_out_sd = width / (2 * half) * top.n_queries ** 0.5
    assert 0.05 < held_out_sd < 0.2  # the world's per-query sd is 0.1


def test_without_pairs_every_kept_slice_has_one_column():
    rng = np.random.default_rng(2)
    deltas, features = _world(rng, planted=False)
    found = discover_slices(deltas, features, pairs=False, report=2)
    assert found.n_tests == 4 and all(len(s.columns) == 1 for s in found.slices)


def test_a_feature_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="feature 'x' has 3 labels for 4 queries"):
        discover_slices([0.1, 0.2, 0.3, 0.4], {"x": ["a", "b", "c"]})


def test_numbers_are_binned_by_quantiles():
    labels = binned(np.arange(100), 4)
    assert len(set(labels)) == 4 and labels[0].startswith("q1: 0-") and labels[-1].startswith("q4")
    assert len(set(binned([1, 1, 1, 1, 2], 4))) <= 2  # ties stay in one bin


@pytest.mark.slow
def test_no_heterogeneity_confirms_nothing_beyond_alpha_and_a_planted_slice_is_found():
    """600 worlds each: the same effect everywhere -> some slice confirmed in <= .05 + two
    Monte Carlo errors (2 x .009); 10% of 2,000 queries 0.05 below the rest (per-query sd
    0.15, where one split found it in .64 of worlds) -> that slice confirmed in >= .8; its
    held-out interval covers its true B - A (-0.03) in >= .94."""
    rng = np.random.default_rng(48)
    reps = 600
    any_confirmed = found = covered = 0
    for rep in range(reps):
        deltas, features = _world(rng, planted=False, sd=0.15)
        any_confirmed += bool(discover_slices(deltas, features, seed=rep).confirmed)
    for rep in range(reps):
        deltas, features = _world(rng, planted=True, sd=0.15)
        hits = [s for s in discover_slices(deltas, features, seed=rep).confirmed
                if dict(s.columns) == {"intent": "local"}]
        found += bool(hits)
        covered += sum(s.ci_low <= -0.03 <= s.ci_high for s in hits)
    assert any_confirmed / reps <= 0.05 + 2 * (0.05 * 0.95 / reps) ** 0.5, any_confirmed / reps
    assert found / reps >= 0.8, found / reps
    assert covered / found >= 0.94 - 0.02, covered / found
