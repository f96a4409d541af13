"""The outline of a compare report (``ranklens.compare.outline``): one order of sections, and
text, Markdown and the HTML export each show the report's sections in that order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ranklens.compare import html, text
from ranklens.compare.analysis import CompareSettings, build_report, demo_files
from ranklens.compare.outline import SLOTS, Slot, outline
from ranklens.compare.report import Report
from ranklens.document.blocks import Section

FILES = demo_files()
FAST = {"n_resamples": 200, "n_permutations": 200, "seed": 3}
WARNING = "A warning the reader must see before the verdict."


def _keys(report: Report) -> list[str]:
    return [part.key if isinstance(part, Section)
            else f"{part.key}:{part.metric}" if part.metric else part.key
            for part in outline(report)]


@pytest.fixture(scope="module")
def two() -> Report:
    report = build_report(FILES["run_a"], FILES["run_b"], qrels=FILES["qrels"],
                          settings=CompareSettings(metrics=("nDCG@10",), **FAST))
    return replace(report, warnings=(WARNING,))


@pytest.fixture(scope="module")
def three() -> Report:
    return build_report(FILES["run_a"], FILES["run_b"], FILES["run_dense"],
                        qrels=FILES["qrels"],
                        settings=CompareSettings(metrics=("nDCG@10", "AP"), **FAST))


def test_the_warnings_follow_the_health_checks_and_the_inputs_close_the_report(
        two: Report) -> None:
    keys = _keys(two)
    assert keys[:2] == ["health", "warnings"]
    assert keys[2:] == ["metrics", "inputs", "parameters"]
    assert all(isinstance(part, Section) or part.key in SLOTS for part in outline(two))


def test_several_candidates_put_a_leaderboard_per_metric_before_the_candidates(
        three: Report) -> None:
    keys = _keys(three)
    assert keys.index("leaderboard:nDCG@10") < keys.index("leaderboard:AP") < keys.index(
        "metrics")
    assert Slot("leaderboard", "AP") in outline(three)


def _positions(drawn: str, marks: list[str]) -> list[int]:
    positions = [drawn.index(mark) for mark in marks]
    assert positions == sorted(positions), marks
    return positions


def test_every_face_shows_the_sections_in_the_outline_order(two: Report) -> None:
    """Health, warnings, the metric, the inputs: the same order in text, Markdown and HTML."""
    _positions(text.render_text(two), ["Health checks:", "Warnings:", WARNING,
                                       "nDCG@10\n", "Inputs:"])
    _positions(text.render_markdown(two), ["## Health checks", "## Warnings", WARNING,
                                           "## nDCG@10", "## Inputs"])
    _positions(html.render(two), ['<section id="health"', '<section id="warnings"', WARNING,
                                  'id="metric-', '<section id="inputs"'])
