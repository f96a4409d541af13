"""The tables of several candidates (``ranklens.compare.sections.candidates``): one Table per
metric for every face, the baseline's row first with nothing but its name, queries, mean,
finding and health; the health column, when shown, before the mark in text and after the
finding in the HTML export."""

from __future__ import annotations

import pytest

from ranklens.compare import html
from ranklens.compare.analysis import CompareSettings, build_report, demo_files
from ranklens.compare.report import Report
from ranklens.compare.sections.candidates import candidates_table, pairs_block
from ranklens.compare.text import leaderboard_cells
from ranklens.document.columns import narrow, wide
from ranklens.document.html import wide_headers

FILES = demo_files()


@pytest.fixture(scope="module")
def twice() -> Report:
    """The baseline given again as a candidate: its health check fails (a health column)."""
    return build_report(FILES["run_a"], FILES["run_b"], FILES["run_a"], qrels=FILES["qrels"],
                        settings=CompareSettings(metrics=("nDCG@10",), run_names=("a", "b", "c"),
                                                 n_resamples=200, n_permutations=200, seed=1))


def test_the_baseline_row_leads_and_says_no_difference(twice: Report) -> None:
    table = candidates_table(twice, "nDCG@10")
    first = table.records[0]
    assert table.set_apart == (0,) and first["run"] == "a (A, baseline)"
    assert "delta" not in first and "significant" not in first and first["finding"] == "baseline"
    assert pairs_block(twice, "nDCG@10") is None  # candidates against the baseline only


def test_the_health_column_sits_before_the_mark_narrow_and_after_the_finding_wide(
        twice: Report) -> None:
    table = candidates_table(twice, "nDCG@10")
    assert [c.key for c in narrow(table.columns)][-2:] == ["health", "significant"]
    assert [c.key for c in wide(table.columns)][-2:] == ["finding", "health"]
    _, header, rows = leaderboard_cells(twice, "nDCG@10")
    assert header[-2] == "health" and rows[0][-2].startswith("failed")
    assert "".join(f"<th>{h}</th>" for h in wide_headers(wide(table.columns), table.names)) \
        in html.render(twice)
