"""Judgement coverage in the Report: judged@k per run and segment, the guardrail, the
robustness view, and the faces (text, Markdown, HTML, CLI) that show them."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest

from ranklens.compare import coverage as cov
from ranklens.compare import coverage_words, report_tables
from ranklens.compare import html as html_report
from ranklens.compare import text as compare_text
from ranklens.compare.analysis import CompareSettings, demo_files, load_inputs
from ranklens.compare.report import Report
from ranklens.data import Qrels, Run
from ranklens.io import InputFile
from ranklens.metrics import evaluate
from ranklens.metrics.holes import fill_holes
from ranklens.stats import compare

FAST = dict(n_resamples=2000, n_permutations=2000)


@pytest.fixture(scope="module")
def demo():
    return demo_files()


@pytest.fixture(scope="module")
def dense_inputs(demo):
    return load_inputs(demo["run_a"], InputFile("run_b", "dense_retriever.trec",
                                                demo["run_dense"].data),
                       qrels=demo["qrels"], segments=demo["segments"],
                       proxy_qrels=InputFile("qrels_proxy", "qrels_proxy_full.trec",
                                             demo["qrels_proxy_full"].data))


@pytest.fixture(scope="module")
def dense_report(dense_inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dense_inputs.report(CompareSettings(metrics=("nDCG@10", "RBP(p=0.8)", "bpref"),
                                                   segment_column="intent", **FAST))


# ---- the rule's parts --------------------------------------------------------------------------

def test_coverage_depth_is_the_cutoff_or_the_weight_of_rbp():
    assert cov.coverage_depth("nDCG@20") == 20
    assert cov.coverage_depth("AP") == cov.DEFAULT_DEPTH == 10
    assert cov.coverage_depth("RBP(p=0.8)") == 11  # 0.8^11 = 0.086 <= 0.1 < 0.8^10
    assert cov.coverage_depth("RBP(p=0.5)") == 4
    assert cov.coverage_depth("RBP(p=0.8)@5") == 5


def test_same_rate_shift_scales_the_less_judged_run_to_the_other_coverage():
    # B: P@10 = 0.4 with 60% judged, so 2/3 of its judged documents are relevant; at A's 90%
    # it would have 0.3 more judged slots, relevant at 2/3: +0.2
    assert cov.same_rate_shift(0.5, 0.4, 0.9, 0.6) == pytest.approx(0.2)
    assert cov.same_rate_shift(0.4, 0.5, 0.6, 0.9) == pytest.approx(-0.2)
    assert cov.same_rate_shift(0.5, 0.4, 0.8, 0.8) == 0.0
    assert cov.same_rate_shift(0.5, 0.9, 0.9, 0.3) == pytest.approx(0.1)  # capped at 1
    assert cov.same_rate_shift(0.5, 0.0, 0.9, 0.0) == 0.0  # no judged document, no rate


def test_interval_reading():
    assert cov.interval_reading(0.01, 0.02) == "above"
    assert cov.interval_reading(-0.02, -0.01) == "below"
    assert cov.interval_reading(-0.01, 0.02) == "around"


def _runs_with_holes(rng, n_queries, holes_b, shared_unjudged=0.0):
    """A and B rank 20 documents each; B's first ``holes_b`` share of its top 10 are new
    documents nobody judged; ``shared_unjudged`` leaves some judged documents out for both."""
    run_a, run_b, qrels = {}, {}, {}
    for q in range(n_queries):
        grades = rng.integers(0, 3, size=20)
        docs = [f"d{j}" for j in range(20)]
        run_a[f"q{q}"] = {d: float(20 - j) for j, d in enumerate(docs)}
        order = rng.permutation(20)
        ranked_b = [docs[j] for j in order]
        n_new = round(holes_b * 10)
        ranked_b = [f"new{j}" for j in range(n_new)] + ranked_b[:20 - n_new]
        run_b[f"q{q}"] = {d: float(20 - j) for j, d in enumerate(ranked_b)}
        keep = rng.random(20) >= shared_unjudged
        qrels[f"q{q}"] = {d: int(g) for d, g, k in zip(docs, grades, keep, strict=True) if k}
    return Run.from_dict(run_a, name="A"), Run.from_dict(run_b, name="B"), Qrels.from_dict(qrels)


def _coverage_of(run_a, run_b, qrels, metric="P@10"):
    judged = cov.judged_name(cov.coverage_depth(metric))
    ev_a, ev_b = (evaluate(r, qrels, [metric, judged]) for r in (run_a, run_b))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare(ev_a[metric], ev_b[metric], **FAST)
    from ranklens.compare.segments import MetricComparison

    comparison = MetricComparison(metric, result)
    return cov.metric_coverage(comparison, ev_a[judged], ev_b[judged],
                               cov.ranking_depths(run_a), cov.ranking_depths(run_b)), result


def test_no_banner_when_coverage_is_equal():
    rng = np.random.default_rng(11)
    run_a, run_b, qrels = _runs_with_holes(rng, 60, 0.0, shared_unjudged=0.3)
    coverage, _ = _coverage_of(run_a, run_b, qrels)
    row = coverage.overall
    assert row.judged_a == pytest.approx(row.judged_b, abs=0.05)  # both about 70% judged
    assert abs(row.gap) < cov.MIN_GAP or not row.could_change
    assert not coverage.alert


def test_the_banner_when_the_candidate_retrieves_what_nobody_judged():
    rng = np.random.default_rng(12)
    run_a, run_b, qrels = _runs_with_holes(rng, 80, 0.3)
    coverage, result = _coverage_of(run_a, run_b, qrels)
    row = coverage.overall
    assert row.judged_a == 1.0 and row.judged_b == pytest.approx(0.7)
    # the shift is what the same-rate imputation adds to B's mean
    assert row.shift == pytest.approx(result.mean_b / 0.7 - result.mean_b)
    assert coverage.alert
    text = coverage_words.banner(coverage, result, ("A", "B"))
    assert text is not None
    assert "B's top 10 is 70% judged, A's 100%" in text
    assert coverage_words.banner(dataclasses.replace(coverage, guarded=False), result,
                                 ("A", "B")) is None


# ---- the Report ----------------------------------------------------------------------------------

def test_report_holds_judged_at_k_per_run_overall_and_per_segment(dense_report, dense_inputs):
    coverage = dense_report.coverage
    assert coverage is not None and coverage.treatment == "nonrelevant"
    ndcg = coverage.metric("nDCG@10")
    assert ndcg.depth == 10 and ndcg.judged_metric == "Judged@10"
    expected = {run: evaluate(getattr(dense_inputs, run), dense_inputs.qrels, ["Judged@10"])
                ["Judged@10"] for run in ("run_a", "run_b")}
    assert ndcg.overall.judged_a == pytest.approx(expected["run_a"].mean)
    assert ndcg.overall.judged_b == pytest.approx(expected["run_b"].mean)
    assert ndcg.overall.judged_a == pytest.approx(0.71425)  # the demo's BM25
    assert ndcg.overall.judged_b < 0.6  # the dense retriever: visibly less judged
    segments = dense_inputs.segment_maps["intent"]
    for row in ndcg.rows[1:]:
        members = [q for q, s in segments.items() if s == row.segment]
        assert row.n_queries == len(members)
        assert row.judged_b == pytest.approx(
            np.mean([expected["run_b"].per_query[q] for q in members]))
    assert [row.segment for row in ndcg.rows] == [
        row.segment for row in dense_report.comparison("nDCG@10").rows]


def test_dense_demo_raises_the_banner_and_bpref_is_not_guarded(dense_report):
    assert dense_report.coverage.metric("nDCG@10").alert
    bpref = dense_report.coverage.metric("bpref")
    assert not bpref.guarded and not bpref.alert and "skips unjudged" in bpref.note
    alerts = coverage_words.report_alerts(dense_report)
    assert len(alerts) == 2  # nDCG@10 and RBP(p=0.8)


def test_rbp_residuals_sit_next_to_the_score(dense_report, dense_inputs):
    rbp = dense_report.coverage.metric("RBP(p=0.8)")
    ev = evaluate(dense_inputs.run_b, dense_inputs.qrels, ["RBP(p=0.8)"])
    assert rbp.overall.residual_b == pytest.approx(ev.residuals["RBP(p=0.8)"].mean)
    assert rbp.per_query["residual_b"] == pytest.approx(
        dict(ev.residuals["RBP(p=0.8)"].per_query))
    assert "RBP(p=0.8) residual" in coverage_words.coverage_line(rbp, dense_report.run_names)


def test_robustness_view_is_the_same_comparison_under_three_treatments(dense_report,
                                                                        dense_inputs):
    rows = dense_report.coverage.robustness["nDCG@10"]
    assert [r.treatment for r in rows] == ["nonrelevant", "judged-only", "proxy"]
    qrels = {"nonrelevant": dense_inputs.qrels, "judged-only": dense_inputs.qrels,
             "proxy": fill_holes(dense_inputs.qrels, dense_inputs.proxy_qrels).qrels}
    for row in rows:
        a, b = (evaluate(r, qrels[row.treatment], ["nDCG@10"],
                         judged_only=row.treatment == "judged-only")["nDCG@10"]
                for r in (dense_inputs.run_a, dense_inputs.run_b))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = compare(a, b, **FAST)
        assert row.result.delta == pytest.approx(expected.delta, abs=1e-12)
        assert row.result.interval.low == pytest.approx(expected.interval.low, abs=1e-12)
        assert row.result.p_value == expected.p_value
    readings = {r.treatment: cov.interval_reading(r.result.interval.low, r.result.interval.high)
                for r in rows}
    assert readings == {"nonrelevant": "below", "judged-only": "above", "proxy": "above"}


def test_report_json_round_trip_with_coverage(dense_report):
    again = Report.from_json(dense_report.to_json())
    assert again == dense_report
    assert again.coverage == dense_report.coverage


def test_a_stored_report_keeps_the_rule_its_banner_was_raised_by(dense_report, monkeypatch):
    """The banner of a stored report is the one its author saw: the report keeps the minimum
    gap it was computed with, so a later version's rule does not re-decide it."""
    data = json.loads(dense_report.to_json())
    assert [m["min_gap"] for m in data["coverage"]["metrics"]] == [cov.MIN_GAP] * 3
    monkeypatch.setattr(cov, "MIN_GAP", 0.5)  # "a later version asks for a 50-point gap"
    again = Report.from_dict(data)
    assert again.coverage.metric("nDCG@10").alert
    assert again.coverage.metric("nDCG@10").alert == dense_report.coverage.metric("nDCG@10").alert
    for entry in data["coverage"]["metrics"]:  # written before the rule was kept
        del entry["min_gap"]
    older = Report.from_dict(data).coverage.metric("nDCG@10")
    assert older.min_gap == 0.5 and not older.alert  # this version's rule, the only one known


def test_a_report_without_coverage_still_reads():
    data = json.loads(Report(params={}, inputs=(), comparisons=()).to_json())
    assert "coverage" not in data
    assert Report.from_dict(data).coverage is None


def test_per_query_tables_have_no_coverage():
    rng = np.random.default_rng(5)

    def table(values):
        lines = ["query_id,nDCG@10"] + [f"q{i},{v:.4f}" for i, v in enumerate(values)]
        return ("\n".join(lines) + "\n").encode()

    a = rng.random(30)
    inputs = load_inputs(InputFile("run_a", "a.csv", table(a)),
                         InputFile("run_b", "b.csv", table(a + 0.05)))
    assert inputs.treatments == ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = inputs.report(CompareSettings(**FAST))
        assert report.coverage is None
        with pytest.raises(ValueError, match="carry no judgements"):
            inputs.report(CompareSettings(unjudged="judged-only", **FAST))


def test_judged_only_report_switches_the_guardrail_off(dense_inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dense_inputs.report(CompareSettings(unjudged="judged-only", **FAST))
    ndcg = report.coverage.metric("nDCG@10")
    assert not ndcg.guarded and not ndcg.alert
    assert ndcg.overall.judged_b < 0.6  # coverage of the lists as retrieved
    assert any("removed from both rankings" in w for w in report.warnings)
    assert report.params["unjudged"] == "judged-only"


def test_proxy_treatment_needs_proxy_judgements(demo):
    inputs = load_inputs(demo["run_a"], demo["run_b"], qrels=demo["qrels"])
    assert inputs.treatments == ("nonrelevant", "judged-only")
    with pytest.raises(ValueError, match="proxy judgements"):
        inputs.report(CompareSettings(unjudged="proxy", **FAST))


# ---- faces ---------------------------------------------------------------------------------------

def test_text_shows_banner_coverage_line_and_robustness(dense_report):
    text = compare_text.render(dense_report, "text")
    first_table = text.index("All queries")
    assert text.index(coverage_words.BANNER_TITLE) < first_table  # before the result
    assert "Judged@10: bm25_baseline 71%, dense_retriever 5" in text
    assert f"\n{coverage_words.ROBUSTNESS_TITLE} (nDCG@10)\n" in text
    assert "Judged-only (-J)" in text and "Proxy labels" in text
    markdown = compare_text.render(dense_report, "markdown")
    assert f"> **{coverage_words.BANNER_TITLE}**" in markdown


def test_html_banner_links_to_the_robustness_view(dense_report):
    document = html_report.render(dense_report)
    anchor = coverage_words.robustness_anchor("nDCG@10")
    assert f'href="#{anchor}"' in document and f'id="{anchor}"' in document
    assert document.index('class="warnings guardrail"') < document.index('class="verdict"')


def test_views_coverage_tables(dense_report):
    table = report_tables.coverage_table(dense_report, "nDCG@10")
    assert table["segment"].iloc[0] == "All queries"
    assert table["gap"].iloc[0] == pytest.approx(table["judged_a"].iloc[0]
                                                 - table["judged_b"].iloc[0])
    per_query = report_tables.with_query_coverage(
        dense_report, "RBP(p=0.8)", report_tables.per_query_table(dense_report, "RBP(p=0.8)"))
    assert {"judged_a", "judged_b", "residual_a", "residual_b"} <= set(per_query.columns)


def test_large_runs_get_the_robustness_view_only_when_it_is_needed(demo, monkeypatch):
    from ranklens.compare import scoring

    monkeypatch.setattr(scoring, "ROBUSTNESS_EAGER_ROWS", 1000)
    inputs = load_inputs(demo["run_a"], demo["run_b"], qrels=demo["qrels"])
    dense = load_inputs(demo["run_a"], InputFile("run_b", "dense_retriever.trec",
                                                 demo["run_dense"].data), qrels=demo["qrels"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiet = inputs.report(CompareSettings(metrics=("nDCG@10",), **FAST))
        alarmed = dense.report(CompareSettings(metrics=("nDCG@10",), **FAST))
        asked = inputs.report(CompareSettings(metrics=("P@10",), unjudged="judged-only", **FAST))
    assert not quiet.coverage.metric("nDCG@10").alert  # the demo pair: 2.1 points < MIN_GAP
    assert quiet.coverage.robustness == {} and "not computed" in quiet.coverage.notes[0]
    assert "not computed" in compare_text.render(quiet, "text")
    assert alarmed.coverage.metric("nDCG@10").alert  # 17 points: the dense run's holes
    assert len(alarmed.coverage.robustness["nDCG@10"]) == 2
    assert len(asked.coverage.robustness["P@10"]) == 2
