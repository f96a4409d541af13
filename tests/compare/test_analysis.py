"""ranklens.compare.analysis: the pipeline gives the library's numbers and re-uses scoring."""

import warnings

import pytest

from ranklens import io
from ranklens.compare.analysis import CompareSettings, build_report, demo_files, load_inputs
from ranklens.compare.segments import SegmentOptions, compare_segments
from ranklens.io import InputFile
from ranklens.metrics import evaluate
from ranklens.stats.options import PairedOptions

FAST = dict(n_resamples=2000, n_permutations=2000)


@pytest.fixture(scope="module")
def demo():
    files = demo_files()
    return files, load_inputs(files["run_a"], files["run_b"], qrels=files["qrels"],
                              segments=files["segments"])


def test_demo_report_equals_the_library_steps_done_by_hand(demo):
    files, inputs = demo
    report = inputs.report(CompareSettings(metrics=("ndcg_cut_10",), segment_column="intent",
                                           seed=3, **FAST))
    run_a, _ = io.read_run(files["run_a"].data, name=files["run_a"].name)
    run_b, _ = io.read_run(files["run_b"].data, name=files["run_b"].name)
    qrels, _ = io.read_qrels(files["qrels"].data, name=files["qrels"].name)
    segments, _ = io.read_segments(files["segments"].data, name=files["segments"].name)
    a = evaluate(run_a, qrels, ["nDCG@10"])["nDCG@10"]
    b = evaluate(run_b, qrels, ["nDCG@10"])["nDCG@10"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = compare_segments(a, b, segments.by_column["intent"],
                                    SegmentOptions(PairedOptions(seed=3, **FAST)))
    got = report.comparison("nDCG@10")
    assert got.overall == expected.overall
    assert [(r.segment, r.result.interval.low, r.result.q_value) for r in got.segments] == [
        (r.segment, r.result.interval.low, r.result.q_value) for r in expected.segments]
    assert report.run_names == ("bm25_baseline", "neural_reranker")
    assert report.params["metrics"] == ["nDCG@10"]  # canonical name recorded
    assert {r.role for r in report.inputs} == {"run_a", "run_b", "qrels", "segments"}
    assert all(len(r.sha256) == 64 for r in report.inputs)


def test_demo_has_segments_better_and_worse(demo):
    _, inputs = demo
    comparison = inputs.report(CompareSettings(segment_column="intent", **FAST)).comparisons[0]
    significant = {r.segment: r.result.delta for r in comparison.segments if r.result.significant}
    assert any(d > 0 for d in significant.values()) and any(d < 0 for d in significant.values())
    assert len(significant) < len(comparison.segments)  # some segments show no difference
    assert inputs.segment_columns == ("intent", "length")


def test_changing_segment_column_or_alpha_does_not_rescore(demo, monkeypatch):
    _, inputs = demo
    inputs.report(CompareSettings(metrics=("map",), segment_column="intent", **FAST))
    calls = []
    import ranklens.compare.scoring as scoring

    monkeypatch.setattr(scoring, "evaluate", lambda *a, **k: calls.append(1))
    inputs.report(CompareSettings(metrics=("AP",), segment_column="length", alpha=0.1, **FAST))
    assert calls == []


def test_same_settings_give_byte_identical_reports():
    files = demo_files()
    settings = CompareSettings(metrics=("P@5",), segment_column="length", **FAST)
    one = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                       segments=files["segments"], settings=settings)
    two = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                       segments=files["segments"], settings=settings)
    assert one.to_json() == two.to_json()


def test_unknown_segment_column_names_the_ones_there_are(demo):
    _, inputs = demo
    with pytest.raises(ValueError, match="intent"):
        inputs.report(CompareSettings(segment_column="device", **FAST))


def test_per_query_tables_skip_scoring(tmp_path):
    lines_a = ["query_id,nDCG@10"] + [f"q{i},{0.5 + (i % 7) / 20}" for i in range(40)]
    lines_b = ["query_id,nDCG@10"] + [f"q{i},{0.52 + (i % 5) / 20}" for i in range(40)]
    a = InputFile("run_a", "a.csv", "\n".join(lines_a).encode())
    b = InputFile("run_b", "b.csv", "\n".join(lines_b).encode())
    inputs = load_inputs(a, b)
    assert inputs.available_metrics == ("nDCG@10",)
    report = inputs.report(CompareSettings(metrics=("nDCG@10",), **FAST))
    assert report.comparisons[0].overall.n_queries == 40


def test_a_bad_file_is_an_input_error_naming_it():
    files = demo_files()
    bad = InputFile("qrels", "judgements.txt", b"q1 0 d1 1\nq1 0 d2 high\n")
    with pytest.raises(io.InputError, match=r"judgements\.txt, line 2"):
        load_inputs(files["run_a"], files["run_b"], qrels=bad)


def test_with_segments_swaps_the_map_and_keeps_the_scored_metrics(demo, monkeypatch):
    files, inputs = demo
    inputs.report(CompareSettings(metrics=("P@10",), **FAST))
    lines = files["segments"].data.decode().splitlines()
    device = ["query_id\tdevice"] + [f"{line.split()[0]}\t{'mobile' if i % 2 else 'desktop'}"
                                     for i, line in enumerate(lines[1:])]
    other = InputFile("segments", "device.tsv", "\n".join(device).encode())
    import ranklens.compare.scoring as scoring

    calls = []
    monkeypatch.setattr(scoring, "evaluate", lambda *a, **k: calls.append(1))
    swapped = inputs.with_segments(other)
    report = swapped.report(CompareSettings(metrics=("P@10",), segment_column="device", **FAST))
    assert calls == []
    assert swapped.segment_columns == ("device",)
    assert [r.segment for r in report.comparisons[0].segments] == ["desktop", "mobile"]
    assert [r.name for r in report.inputs if r.role == "segments"] == ["device.tsv"]
    assert inputs.with_segments(None).segment_columns == ()
