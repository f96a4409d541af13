"""Issue 32: which segment intervals are shown, in words, and the sentence when an interval
and its q-value read differently; the collection setting round trip."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ranklens.compare.fcr import disagreement_sentence, disagreements, fcr_caption
from ranklens.compare.segments import MetricComparison, SegmentOptions, compare_segments
from ranklens.compare.settings import CompareSettings, settings_dict
from ranklens.data import MetricResult
from ranklens.stats import PairedOptions, fcr_level


@pytest.fixture(scope="module")
def near_boundary() -> MetricComparison:
    """Five segments of 40 queries: one with a true difference of 0.075 (marginal p .03, q .15
    among five), four with none (fixed seed)."""
    rng = np.random.default_rng(3)
    a, b, segments = {}, {}, {}
    for s in range(5):
        for i in range(40):
            query = f"s{s}q{i}"
            a[query] = rng.uniform(0.3, 0.7)
            b[query] = a[query] + rng.normal(0.075 if s == 0 else 0.0, 0.15)
            segments[query] = f"seg{s}"
    options = SegmentOptions(PairedOptions(n_resamples=2000, n_permutations=2000), "bh", "g")
    return compare_segments(MetricResult("m", a), MetricResult("m", b), segments, options)


def test_a_marginal_interval_that_excludes_0_with_q_above_alpha_is_said(
        near_boundary: MetricComparison) -> None:
    first = near_boundary.segments[0]
    assert first.result is not None and first.result.q_value is not None
    assert first.result.interval.excludes_zero and first.result.q_value > 0.05
    assert disagreements(near_boundary, "marginal") == (first,)
    sentence = disagreement_sentence(near_boundary, "marginal")
    assert sentence.startswith("The marginal interval and the q-value of 1 segment read "
                               "differently: seg0 (interval +0.0046 to +0.1176 excludes 0, "
                               "q = 0.174)")
    # no discovery: every segment at 1 - alpha / m = 99%, and seg0's interval contains 0
    assert near_boundary.fcr is not None and near_boundary.fcr.n_selected == 0
    assert near_boundary.fcr.level == pytest.approx(fcr_level(0, 5, 0.05)) == pytest.approx(0.99)
    assert first.fcr is not None and not first.fcr.excludes_zero
    assert disagreements(near_boundary, "fcr") == () and disagreement_sentence(near_boundary) == ""


def test_captions_say_which_intervals_and_why_none(near_boundary: MetricComparison) -> None:
    assert fcr_caption(near_boundary).startswith(
        "Segment intervals are FCR-adjusted (Benjamini\u2013Yekutieli): BH at q \u2264 0.05 "
        "selected 0 of 5 segments, so every segment is shown at 99% = 1 \u2212 1 \u00d7 0.05 / 5")
    assert fcr_caption(near_boundary, "marginal").startswith(
        "Segment intervals are marginal 95% intervals")
    holm = dataclasses.replace(near_boundary, fcr=None, adjust_method="holm")
    assert "these q-values are HOLM's" in fcr_caption(holm)
    across = dataclasses.replace(near_boundary, fcr=None, family="candidates-segments")
    assert "several candidates" in fcr_caption(across)
    old = dataclasses.replace(near_boundary, fcr=None)
    assert "written before they existed" in fcr_caption(old)


def test_collection_column_is_a_setting_links_keep_and_old_params_leave_out() -> None:
    settings = CompareSettings(segment_column="intent", collection_column="length")
    assert CompareSettings.from_dict(settings.to_dict()) == settings
    assert settings_dict(settings, ("A", "B"))["collection_column"] == "length"
    assert "collection_column" not in settings_dict(CompareSettings(), ("A", "B"))
