"""Reports that show themselves: ``to_frame``, ``to_latex`` and ``_repr_html_`` of a Report,
and ``to_frame`` / ``to_latex`` of an MDE plan and a PPI++ analysis.

The frame must hold the report's own numbers row for row (one row per candidate x metric x
segment), the LaTeX table one line per frame row with the significant ones marked, and the
notebook HTML the export's body with nothing that reaches the network or the notebook's style.
"""

from __future__ import annotations

import re

import pytest

from ranklens.compare.analysis import CompareSettings, build_report, demo_files
from ranklens.compare.report import Report
from ranklens.document.latex import MARK
from ranklens.plan.analysis import plan_queries
from ranklens.ppi.analysis import analyse_ppi

FILES = demo_files()
FAST = {"n_resamples": 1_000, "n_permutations": 1_000, "seed": 3}


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(FILES["run_a"], FILES["run_b"], qrels=FILES["qrels"],
                        segments=FILES["segments"],
                        settings=CompareSettings(metrics=("nDCG@10", "AP"),
                                                 segment_column="intent", **FAST))


@pytest.fixture(scope="module")
def several() -> Report:
    return build_report(FILES["run_a"], FILES["run_b"], FILES["run_dense"], qrels=FILES["qrels"],
                        settings=CompareSettings(metrics=("nDCG@10",), **FAST))


def test_to_frame_holds_every_row_of_the_report(report: Report) -> None:
    frame = report.to_frame()
    rows = [(c, row) for c in report.comparisons for row in c.rows]
    assert len(frame) == len(rows) == 2 * (1 + 6)  # two metrics, overall + six intents
    assert list(frame.columns[:5]) == ["baseline", "candidate", "metric", "segment_column",
                                       "segment"]
    assert set(frame.baseline) == {"bm25_baseline"} and set(frame.candidate) == {
        "neural_reranker"}
    coverage = {(m.metric, r.segment): r for m in report.coverage.metrics for r in m.rows}
    for record, (comparison, row) in zip(frame.to_dict("records"), rows, strict=True):
        result = row.result
        assert (record["metric"], record["segment"]) == (comparison.metric, row.segment)
        assert record["mean_a"] == result.mean_a and record["mean_b"] == result.mean_b
        assert (record["ci_low"], record["ci_high"]) == (result.interval.low,
                                                         result.interval.high)
        assert record["p_value"] == result.p_value
        assert record["t_p_value"] == result.t_test.p_value
        assert (record["wins"], record["ties"], record["losses"]) == (
            result.outcomes.wins, result.outcomes.ties, result.outcomes.losses)
        assert record["significant"] is result.significant
        if result.q_value is None:
            assert record["q_value"] != record["q_value"]  # NaN
        else:
            assert record["q_value"] == result.q_value
        judged = coverage[(comparison.metric, row.segment)]
        assert (record["judged_a"], record["judged_b"]) == (judged.judged_a, judged.judged_b)


def test_to_frame_of_several_candidates_names_each(several: Report) -> None:
    frame = several.to_frame()
    assert list(frame.candidate) == ["neural_reranker", "dense_retriever"]
    assert set(frame.baseline) == {"bm25_baseline"}
    assert frame.adjusted_p.notna().all()
    for record, comparison in zip(frame.to_dict("records"), several.comparisons, strict=True):
        assert record["delta"] == comparison.overall.interval.delta


def test_to_latex_is_a_booktabs_table_of_the_frame(report: Report, several: Report) -> None:
    for shown in (report, several):
        latex = shown.to_latex(label="tab:runs")
        frame = shown.to_frame()
        body = latex[latex.index("\\midrule"):latex.index("\\bottomrule")]
        lines = [line for line in body.splitlines()[1:] if line.strip()]
        assert len(lines) == len(frame)
        assert latex.count("\\toprule") == latex.count("\\bottomrule") == 1
        assert "\\label{tab:runs}" in latex
        assert sum(MARK in line for line in lines) == int(frame.significant.sum())
        assert "neural\\_reranker" in latex and "neural_reranker" not in latex
        assert "\u2212" not in latex  # minus signs as LaTeX writes them
    first = report.comparisons[0].overall
    assert f"[{first.interval.low:+.4f}, {first.interval.high:+.4f}]" in report.to_latex()


def test_repr_html_is_the_exports_body_offline_and_scoped(report: Report) -> None:
    html = report._repr_html_()
    assert html.startswith('<div class="ranklens-export"><style>')
    assert "<svg" in html  # the forest plots, inline
    assert "<script" not in html and "<html" not in html and "<body" not in html
    assert not re.findall(r'(?:src|href)\s*=\s*"(?:https?:)?//', html)
    style = html[html.index("<style>") + 7:html.index("</style>")]
    selectors = re.findall(r"([^{}]+)\{", style)
    assert selectors and all(part.strip().startswith(".ranklens-export")
                             for group in selectors for part in group.split(","))
    assert "neural_reranker (B) against bm25_baseline (A)" in html


def test_plan_and_ppi_tables() -> None:
    plan = plan_queries(0.1, n_queries=200, deltas=(0.02, 0.01, 0.005))
    frame = plan.to_frame()
    assert list(frame.queries_needed) == [197, 785, 3140]  # the seeds' worked example
    assert round(frame.mde[0], 4) == 0.0198
    latex = plan.to_latex()
    assert "3{,}140" in latex and "\\toprule" in latex and "80.0\\%" in latex
    analysis = analyse_ppi(FILES["run_a"], FILES["run_b"], FILES["qrels_proxy"],
                           FILES["qrels_gold"], "nDCG@10")
    table = analysis.to_frame()
    assert list(table.estimate) == ["ppi++", "ppi", "gold", "proxy"]
    ppi = analysis.estimate("ppi++").result
    assert (table.delta[0], table.ci_low[0], table.ci_high[0]) == (ppi.delta, ppi.ci_low,
                                                                    ppi.ci_high)
    assert f"[{ppi.ci_low:+.4f}, {ppi.ci_high:+.4f}]" in analysis.to_latex()
