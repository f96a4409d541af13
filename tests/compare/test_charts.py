"""Chart data at library level: the forest plot, the delta histogram, and the tables behind them.

What a chart draws is checked on its data frame (``forest_data``, ``histogram_data``) and on the
Vega-Lite spec (validated against the schema), without a browser.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ranklens.compare import charts, report_tables
from ranklens.compare.rankings import query_rbo, ranking, side_by_side
from ranklens.compare.report import Report
from ranklens.compare.segments import OVERALL, SegmentOptions, compare_segments
from ranklens.data import MetricResult, Qrels, Run
from ranklens.metrics import rbo
from ranklens.stats.options import PairedOptions

RUNS = ("baseline", "candidate")
FAST = dict(n_resamples=500, n_permutations=500)


def segmented(n_segments: int = 40, per_segment: int = 12, *, tiny: int = 0, seed: int = 1):
    """A comparison with ``n_segments`` segments whose true differences spread around 0, plus
    ``tiny`` one-query segments (too small to compare)."""
    rng = np.random.default_rng(seed)
    a, b, segments = {}, {}, {}
    for s in range(n_segments):
        shift = (s - n_segments / 2) / (2 * n_segments)
        for i in range(per_segment):
            query = f"s{s:02d}q{i:02d}"
            a[query] = float(rng.uniform(0.2, 0.8))
            b[query] = a[query] + shift + float(rng.normal(0, 0.05))
            segments[query] = f"segment {s:02d}"
    for t in range(tiny):
        query = f"tiny{t}"
        a[query], b[query], segments[query] = 0.5, 0.6, f"tiny {t}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare_segments(MetricResult("nDCG@10", a), MetricResult("nDCG@10", b),
                                segments,
                                SegmentOptions(PairedOptions(**FAST), segment_column="market"))


@pytest.fixture(scope="module")
def forty():
    return segmented(40, tiny=2)


# ---- the table behind the plot ------------------------------------------------------------

def test_segment_table_puts_overall_first_then_segments_by_difference(forty):
    table = report_tables.segment_table(forty, RUNS)
    assert table["segment"].iloc[0] == OVERALL and bool(table["overall"].iloc[0])
    assert len(table) == 1 + 40 + 2
    scored = table.iloc[1:41]
    assert list(scored["delta"]) == sorted(scored["delta"], reverse=True)
    assert table["segment"].iloc[-2:].tolist() == ["tiny 0", "tiny 1"]
    assert table["delta"].iloc[-2:].isna().all()
    assert (table["finding"].iloc[-2:] == report_tables.TOO_SMALL).all()
    assert table["note"].iloc[-1].startswith("too small")


def test_segment_table_numbers_are_the_comparisons(forty):
    table = report_tables.segment_table(forty, RUNS).set_index("segment")
    for row in forty.rows:
        if row.result is None:
            continue
        got = table.loc[row.segment]
        result = row.result
        assert got["n_queries"] == row.n_queries
        assert (got["mean_a"], got["mean_b"], got["delta"]) == (
            result.mean_a, result.mean_b, result.delta)
        assert (got["ci_low"], got["ci_high"]) == (result.interval.low, result.interval.high)
        assert got["p_value"] == result.p_value and got["t_p_value"] == result.t_test.p_value
        if result.q_value is None:
            assert math.isnan(got["q_value"])
        else:
            assert got["q_value"] == result.q_value
        assert bool(got["significant"]) == result.significant
        assert (got["wins"], got["ties"], got["losses"]) == (
            result.outcomes.wins, result.outcomes.ties, result.outcomes.losses)


def test_finding_words_follow_the_q_value_not_the_interval(forty):
    table = report_tables.segment_table(forty, RUNS)
    better, none, worse, _, _ = report_tables.finding_labels(RUNS)
    for record in table.iloc[1:41].to_dict("records"):
        expected = (none if not record["significant"]
                    else better if record["delta"] > 0 else worse)
        assert record["finding"] == expected
    assert {better, worse} <= set(table["finding"])  # the spread makes both kinds appear


# ---- forest plot --------------------------------------------------------------------------

def test_forest_data_rows_labels_and_tooltips(forty):
    table = report_tables.segment_table(forty, RUNS)
    data = charts.forest_data(table, RUNS)
    assert list(data["position"]) == list(range(len(table)))
    assert data["row"].is_unique
    assert data["row"].iloc[0] == f"{OVERALL}  (n={forty.overall.n_queries:,})"
    assert list(data["kind"]) == ["overall"] + ["segment"] * (len(table) - 1)
    first = data.iloc[1]
    assert first["marginal"] == (f"{first['ci_low']:+.4f} to {first['ci_high']:+.4f}"
                                 .replace("-", "\u2212"))
    # by default the segments draw their FCR-adjusted interval, its kind and level said
    level = forty.fcr.level
    assert first["interval"] == (f"{first['fcr_low']:+.4f} to {first['fcr_high']:+.4f}"
                                 .replace("-", "\u2212")
                                 + f" (FCR-adjusted, {100 * level:.4g}%)")
    assert (first["bar_low"], first["bar_high"]) == (first["fcr_low"], first["fcr_high"])
    overall = data.iloc[0]  # not in the family: its marginal interval
    assert (overall["bar_low"], overall["bar_high"]) == (overall["ci_low"], overall["ci_high"])
    marginal = charts.forest_data(table, RUNS, "marginal").iloc[1]
    assert (marginal["bar_low"], marginal["bar_high"]) == (first["ci_low"], first["ci_high"])
    assert marginal["interval"].endswith("(marginal, 95%)")
    assert data["q"].iloc[0] == "\u2014"  # the overall row is not in the segments' family
    assert data["interval"].iloc[-1] == "" and data["p"].iloc[-1] == ""


def _layers(spec: dict) -> list[dict]:
    return spec["layer"]


def test_forest_plot_spec_is_valid_and_encodes_what_the_issue_asks(forty):
    table = report_tables.segment_table(forty, RUNS)
    chart = charts.forest_plot(table, metric="nDCG@10", run_names=RUNS, alpha=0.05)
    spec = chart.to_dict(validate=True)
    assert spec["height"] == {"step": charts.ROW_HEIGHT}  # grows with the rows: 40 readable
    layers = _layers(spec)
    zero = [layer for layer in layers if layer["encoding"].get("x", {}).get("field") == "zero"]
    assert len(zero) == 1 and zero[0]["mark"]["strokeDash"]
    bars = [layer for layer in layers if layer["encoding"].get("x2")]
    assert bars[0]["encoding"]["x"]["field"] == "bar_low"
    assert bars[0]["encoding"]["x2"]["field"] == "bar_high"
    assert "FCR-adjusted" in bars[0]["encoding"]["x"]["title"]  # the axis says which
    points = [layer for layer in layers if layer["mark"]["type"] == "point"
              and layer["encoding"]["x"]["field"] == "delta"]
    assert len(points) == 1
    # each bar ends in a cap, or, where it is open (unbounded), in an arrow at the edge
    caps = [layer for layer in layers if layer["mark"]["type"] == "tick"]
    arrows = [layer for layer in layers if layer["mark"].get("shape", "").startswith("triangle")]
    assert {c["encoding"]["x"]["field"] for c in caps} == {"bar_low", "bar_high"}
    assert {a["mark"]["shape"] for a in arrows} == {"triangle-left", "triangle-right"}
    y = points[0]["encoding"]["y"]
    assert y["sort"] == list(charts.forest_data(table, RUNS)["row"])  # sorted by difference
    colour = points[0]["encoding"]["color"]
    assert colour["field"] == "finding" and "0.05" in colour["title"]
    assert set(colour["scale"]["domain"]) == set(table["finding"])
    tooltip = {t["title"] for t in points[0]["encoding"]["tooltip"]}
    assert {"Queries (n)", "Mean baseline (A)", "Mean candidate (B)", "Difference B \u2212 A",
            "Interval drawn", "Marginal 95% interval", "p", "q (BH)"} <= tooltip


def test_forest_plot_without_segments_has_the_overall_row_only():
    plain = compare_segments(
        MetricResult("AP", {f"q{i}": i / 50 for i in range(30)}),
        MetricResult("AP", {f"q{i}": i / 50 + 0.01 for i in range(30)}), None,
        SegmentOptions(PairedOptions(**FAST)))
    table = report_tables.segment_table(plain, RUNS)
    assert len(table) == 1
    spec = charts.forest_plot(table, metric="AP", run_names=RUNS, alpha=0.1).to_dict()
    assert "At q \u2264 0.1" in _layers(spec)[1]["encoding"]["color"]["title"]


# ---- per-query view -----------------------------------------------------------------------

def _report(a: dict[str, float], b: dict[str, float], missing: str = "drop") -> Report:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = compare_segments(MetricResult("nDCG@10", a), MetricResult("nDCG@10", b),
                                      None, SegmentOptions(PairedOptions(missing=missing, **FAST)))
    return Report(params={"missing": missing}, inputs=(), comparisons=(comparison,),
                  per_query={"nDCG@10": {"a": a, "b": b}}, run_names=RUNS)


def test_per_query_table_pairs_queries_as_the_comparison_did():
    a = {"q1": 0.5, "q2": 0.4, "q3": 0.1, "only_a": 0.9}
    b = {"q1": 0.7, "q2": 0.4, "q3": 0.0, "only_b": 0.3}
    dropped = report_tables.per_query_table(_report(a, b, "drop"), "nDCG@10")
    assert list(dropped["query_id"]) == ["q1", "q2", "q3"]
    assert list(dropped["outcome"]) == ["B wins", "tie", "B loses"]
    zero = report_tables.per_query_table(_report(a, b, "zero"), "nDCG@10",
                                 segments={"q1": "x", "only_a": "y"})
    assert list(zero["query_id"]) == ["only_a", "only_b", "q1", "q2", "q3"]
    assert list(zero["delta"]) == pytest.approx([-0.9, 0.3, 0.2, 0.0, -0.1])
    assert list(zero["segment"]) == ["y", "(no segment)", "x", "(no segment)", "(no segment)"]


def test_biggest_changes_exclude_ties_and_order_by_size():
    frame = pd.DataFrame({"query_id": ["a", "b", "c", "d", "e"],
                          "delta": [-0.2, 0.0, 0.3, -0.5, 0.3]})
    lost, won = report_tables.biggest_changes(frame, n=2)
    assert list(lost["query_id"]) == ["d", "a"]
    assert list(won["query_id"]) == ["c", "e"]


def test_histogram_counts_every_query_once_split_by_outcome():
    rng = np.random.default_rng(5)
    a = {f"q{i}": float(v) for i, v in enumerate(rng.uniform(0, 1, 300))}
    b = {q: (v if i % 10 == 0 else float(np.clip(v + rng.normal(0.03, 0.1), 0, 1)))
         for i, (q, v) in enumerate(a.items())}
    report = _report(a, b)
    result = report.comparisons[0].overall
    per_query = report_tables.per_query_table(report, "nDCG@10")
    data = charts.histogram_data(per_query, RUNS)
    by_outcome = data.groupby("outcome")["queries"].sum()
    assert by_outcome["candidate wins"] == result.outcomes.wins
    assert by_outcome["tie"] == result.outcomes.ties
    assert by_outcome["candidate loses"] == result.outcomes.losses
    step = data["bin_end"].iloc[0] - data["bin_start"].iloc[0]
    assert np.allclose(data["bin_end"] - data["bin_start"], step)
    assert np.allclose(np.round(data["bin_start"] / step), data["bin_start"] / step)  # edge at 0
    bin_of_query = np.floor(per_query["delta"].to_numpy() / step + 1e-9).astype(int)
    per_bin = data.groupby(np.round(data["bin_start"] / step).astype(int))["queries"].sum()
    assert per_bin.to_dict() == pd.Series(bin_of_query).value_counts().sort_index().to_dict()
    ties = data[data["outcome"] == "tie"]
    assert list(ties["bin_start"]) == [0.0]
    spec = charts.delta_histogram(per_query, metric="nDCG@10", run_names=RUNS).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["aggregate"] == "sum"


def test_histogram_puts_multiples_of_the_step_at_the_start_of_their_bin():
    per_query = pd.DataFrame({"query_id": ["a", "b", "c"], "delta": [0.3, -0.1, 0.1],
                              "outcome": ["B wins", "B loses", "B wins"]})
    data = charts.histogram_data(per_query, RUNS, bins=8)  # step 0.05
    assert sorted(data["bin_start"]) == pytest.approx([-0.1, 0.1, 0.3])


@pytest.mark.parametrize(("span", "bins", "step"), [
    (1.0, 40, 0.05), (0.3, 40, 0.01), (2.0, 10, 0.2), (0.0, 40, 0.01), (0.001, 40, 0.00005),
])
def test_bin_step_is_a_readable_width(span, bins, step):
    assert charts.bin_step(span, bins) == pytest.approx(step)


# ---- two rankings side by side ------------------------------------------------------------

def _run(rows: list[tuple[str, str, float]], name: str) -> Run:
    q, d, s = zip(*rows, strict=True)
    return Run.from_columns(list(q), list(d), list(s), name=name)


def test_ranking_is_trec_eval_order_with_ties_by_doc_id_descending():
    run = _run([("q", "d1", 1.0), ("q", "d3", 2.0), ("q", "d2", 2.0), ("q", "d9", 0.5),
                ("r", "x", 9.0)], "A")
    assert [doc for doc, _ in ranking(run, "q")] == ["d3", "d2", "d1", "d9"]
    assert ranking(run, "missing") == []


def test_side_by_side_labels_moves_entries_and_exits():
    run_a = _run([("q", "d1", 4.0), ("q", "d2", 3.0), ("q", "d3", 2.0), ("q", "d4", 1.0)], "A")
    run_b = _run([("q", "d3", 4.0), ("q", "d1", 3.0), ("q", "d5", 2.0), ("q", "d2", 1.0)], "B")
    qrels = Qrels.from_columns(["q", "q", "q"], ["d1", "d3", "d5"], [2, 0, 1])
    shown = side_by_side(run_a, run_b, qrels, "q", k=3)
    assert list(shown.a["doc_id"]) == ["d1", "d2", "d3"]
    assert list(shown.a["label"]) == ["2", "unjudged", "0"]
    assert list(shown.a["change"]) == ["down 1", "left (B rank 4)", "up 2"]
    assert list(shown.b["doc_id"]) == ["d3", "d1", "d5"]
    assert list(shown.b["change"]) == ["up 2", "down 1", "entered (not in A)"]
    assert shown.n_overlap == 2 and shown.n_entered == 1


def test_segments_summary_names_a_few_segments_per_direction(forty):
    from ranklens.compare.verdict_words import LISTED, segments_summary

    summary = segments_summary(forty, RUNS)
    assert summary.count("segment ") <= 2 * LISTED
    assert " more" in summary


def test_query_rbo_is_the_metrics_rbo_of_that_query():
    run_a = _run([("q", "d1", 4.0), ("q", "d2", 3.0), ("q", "d3", 2.0), ("r", "x", 1.0),
                  ("r", "y", 0.5)], "A")
    run_b = _run([("q", "d3", 4.0), ("q", "d1", 3.0), ("q", "d5", 2.0), ("r", "y", 1.0),
                  ("s", "z", 1.0)], "B")
    everything = rbo(run_a, run_b, p=0.9)
    for query in ("q", "r"):
        assert query_rbo(run_a, run_b, query, p=0.9) == pytest.approx(
            everything.per_query[query], abs=1e-15)
    assert query_rbo(run_a, run_b, "s") is None
