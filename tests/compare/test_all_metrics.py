"""Every run on every metric in one table (issue 51): the numbers are the report's, the mark
follows the report's own adjustment, the faces agree, no lift where the baseline is near 0."""

from __future__ import annotations

import pytest

from ranklens import compare_runs, demo
from ranklens.compare import html as html_report
from ranklens.compare import text as text_report
from ranklens.compare.sections.all_metrics import all_metrics_section, lift_text, relative_lift
from ranklens.formats import format_delta

METRICS = ["nDCG@10", "AP", "P@10"]


@pytest.fixture(scope="module")
def three_runs():
    paths = demo.paths()
    return compare_runs({"bm25": paths["run_a"], "neural": paths["run_b"],
                         "dense": paths["run_dense"]}, paths["qrels"], metrics=METRICS,
                        n_resamples=1000, n_permutations=2000)


def test_each_cell_is_the_reports_comparison(three_runs):
    section = all_metrics_section(three_runs)
    assert section is not None
    table = section.blocks[1]
    rows = {r["run"]: r for r in table.records}
    assert set(rows) == {"bm25 (baseline)", "neural", "dense"}
    for metric in METRICS:
        for candidate, name in ((1, "neural"), (2, "dense")):
            result = three_runs.comparison(metric, candidate).overall
            delta = result.mean_b - result.mean_a
            cell = rows[name][metric]
            assert cell.startswith(f"{result.mean_b:.4f} {format_delta(delta)} (")
            assert lift_text(delta / result.mean_a) in cell
            assert cell.endswith("*") == (result.q_value <= 0.05)
        assert rows["bm25 (baseline)"][metric] == \
            f"{three_runs.comparison(metric).overall.mean_a:.4f}"


def test_the_faces_say_the_same_cells(three_runs):
    cells = [v for r in all_metrics_section(three_runs).blocks[1].records for k, v in r.items()
             if k != "run"]
    text = text_report.render_text(three_runs)
    html = html_report.render(three_runs)
    for cell in cells:
        assert cell in text
        assert cell.replace("*", "").strip() in html


def test_no_lift_near_a_zero_baseline_and_no_table_for_one_metric():
    assert relative_lift(0.01, 0.005) is None and lift_text(None) == "\u2014"
    assert relative_lift(0.02, 0.4) == pytest.approx(0.05) and lift_text(0.05) == "+5.0%"
    assert lift_text(-0.145) == "\u221214.5%"
    paths = demo.paths()
    one = compare_runs([paths["run_a"], paths["run_b"]], paths["qrels"], metrics="nDCG@10",
                       n_resamples=200, n_permutations=200)
    assert all_metrics_section(one) is None
