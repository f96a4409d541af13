"""A baseline and several candidates: each candidate's comparison, the family, the Report."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest

from ranklens.compare.analysis import CompareSettings, build_report, demo_files, load_inputs
from ranklens.compare.family import compare_runs, run_key, run_role
from ranklens.compare.report import Report
from ranklens.compare.report_tables import leaderboard_table, pairs_table
from ranklens.data import MetricResult
from ranklens.io import InputFile
from ranklens.stats import adjust, family_test

FAST = dict(n_resamples=2000, n_permutations=2000)


@pytest.fixture(scope="module")
def demo():
    files = demo_files()
    inputs = load_inputs(files["run_a"], files["run_b"], files["run_dense"], qrels=files["qrels"],
                         segments=files["segments"])
    return files, inputs


@pytest.fixture(scope="module")
def report(demo):
    _, inputs = demo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return inputs.report(CompareSettings(segment_column="intent", seed=5, **FAST))


def test_each_candidate_gets_exactly_its_two_run_comparison(demo, report):
    files, _ = demo
    names = ("bm25_baseline", "neural_reranker", "dense_retriever")
    assert report.run_names == names and report.several and report.candidates == (1, 2)
    for j, role in ((1, "run_b"), (2, "run_dense")):
        alone = build_report(files["run_a"], files[role], qrels=files["qrels"],
                             segments=files["segments"],
                             settings=CompareSettings(segment_column="intent", seed=5, **FAST))
        mine, theirs = report.comparison("nDCG@10", j), alone.comparison("nDCG@10")
        # every number of the overall row is the two-run one; q becomes the adjusted p
        assert mine.overall == theirs.overall.__class__(
            **{**theirs.overall.__dict__, "q_value": mine.overall.q_value})
        def numbers(rows):
            return [(r.segment, r.result.delta, r.result.interval.low, r.result.interval.high,
                     r.result.p_value, r.result.q_value, r.result.outcomes.wins) for r in rows]

        assert numbers(mine.segments) == numbers(theirs.segments)
        assert mine.candidate == j and mine.overall_family == "for 2 candidates"


def test_demo_numbers(report):
    # nDCG@10 of the bundled demo: the neural re-ranker beats BM25 and the dense retriever
    # loses to it after adjusting for two (unjudged documents scored as non-relevant)
    table = leaderboard_table(report, "nDCG@10")
    assert list(table["run"]) == ["bm25_baseline", "neural_reranker", "dense_retriever"]
    assert table["mean"].round(4).tolist() == [0.6186, 0.6486, 0.5291]
    assert table["delta"].round(4).tolist()[1:] == [0.0300, -0.0895]
    assert table["significant"].tolist() == [False, True, True]
    assert table["finding"].tolist() == ["baseline", "neural_reranker better",
                                         "dense_retriever worse"]
    family = report.family("nDCG@10")
    assert family.n_queries == 400 and family.missing == (0, 0, 0) and not family.exact


def test_adjusted_p_is_the_family_test_on_the_aligned_values(report):
    family = report.family("nDCG@10")
    values = report.per_query["nDCG@10"]
    queries = sorted(values["a"])
    matrix = np.array([[values[k][q] for k in "abc"] for q in queries])
    own = [report.comparison("nDCG@10", j).overall.p_value for j in (1, 2)]
    expected = family_test(matrix, n_permutations=2000, seed=5, p_values=own)
    assert [row.adjusted_p for row in family.pairs] == list(expected.adjusted)
    for j in (1, 2):
        assert report.comparison("nDCG@10", j).overall.q_value == family.pair(0, j).adjusted_p
        assert family.pair(0, j).adjusted_p >= family.pair(0, j).result.p_value


def test_holm_and_all_pairs(demo):
    _, inputs = demo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        holm = inputs.report(CompareSettings(family_method="holm", **FAST))
        pairs = inputs.report(CompareSettings(family="all-pairs", **FAST))
    family = holm.family("nDCG@10")
    own = sorted(row.result.p_value for row in family.pairs)
    assert sorted(row.adjusted_p for row in family.pairs) == pytest.approx(
        [2 * own[0], max(2 * own[0], own[1])])
    table = pairs_table(pairs, "nDCG@10")
    assert [(a, b) for a, b in zip(table["position_a"], table["position_b"], strict=True)] \
        == [(0, 1), (0, 2), (1, 2)]
    between = pairs.family("nDCG@10").pair(1, 2).result
    assert between.mean_a == pytest.approx(0.6486, abs=5e-5)
    assert between.mean_b == pytest.approx(0.5291, abs=5e-5)
    assert pairs.comparison("nDCG@10", 1).overall_family == "for all 3 pairs of 3 runs"


def test_q_values_across_candidates_and_segments(demo, report):
    _, inputs = demo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        joint = inputs.report(CompareSettings(segment_column="intent", seed=5,
                                              q_family="candidates-segments", **FAST))
    raw = [row.result for j in (1, 2) for row in report.comparison("nDCG@10", j).segments]
    expected = [r.q_value for r in adjust([r.__class__(**{**r.__dict__, "q_value": None})
                                           for r in raw])]
    got = [row.result.q_value for j in (1, 2)
           for row in joint.comparison("nDCG@10", j).segments]
    assert got == expected
    assert {joint.comparison("nDCG@10", j).family for j in (1, 2)} == {"candidates-segments"}
    assert report.comparison("nDCG@10", 1).family == "segments"


def _tables(tmp_path, skip: dict[str, set[int]]) -> list[InputFile]:
    rng = np.random.default_rng(1)
    files = []
    for k, shift in zip("abcd", (0.0, 0.05, 0.0, -0.02), strict=True):
        values = np.clip(0.5 + shift + rng.normal(0, 0.1, size=60), 0, 1)
        lines = ["query_id,nDCG@10"] + [f"q{i:02d},{values[i]:.4f}"
                                        for i in range(60) if i not in skip.get(k, set())]
        files.append(InputFile(run_role("abcd".index(k)), f"{k}.csv", "\n".join(lines).encode()))
    return files


def test_missing_queries_are_counted_per_run_and_dropped_from_every_comparison(tmp_path):
    files = _tables(tmp_path, {"b": {1, 2}, "d": {2, 3, 4}})
    inputs = load_inputs(*files)
    assert inputs.n_runs == 4 and inputs.default_run_names == ("a", "b", "c", "d")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = inputs.report(CompareSettings(**FAST))
    family = report.family("nDCG@10")
    assert family.missing == (0, 2, 0, 3) and family.n_queries == 56
    assert all(report.comparison("nDCG@10", j).overall.n_queries == 56 for j in (1, 2, 3))
    assert any("dropped 4 queries" in w and "2 missing from b, 3 missing from d" in w
               for w in report.warnings)
    assert set(report.per_query["nDCG@10"]) == {"a", "b", "c", "d"}
    assert all(len(v) == 56 for v in report.per_query["nDCG@10"].values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        zero = inputs.report(CompareSettings(missing="zero", **FAST))
    assert zero.family("nDCG@10").n_queries == 60
    assert zero.per_query["nDCG@10"]["d"]["q03"] == 0.0
    with pytest.raises(ValueError, match="b lacks 2"):
        inputs.report(CompareSettings(missing="error", **FAST))


def test_json_round_trip_of_several_candidates_and_two_runs_stay_schema_1(report, demo):
    text = report.to_json()
    data = json.loads(text)
    assert data["schema"] == 3 and len(data["families"]) == 1
    assert [c.get("candidate", 1) for c in data["comparisons"]] == [1, 2]
    again = Report.from_json(text)
    assert again == report and again.to_json() == text
    two = report.candidate_report(2)
    assert two.run_names == ("bm25_baseline", "dense_retriever") and not two.several
    assert set(two.per_query["nDCG@10"]) == {"a", "b"}
    assert {r.role for r in two.inputs} == {"run_a", "run_c", "qrels", "segments"}
    assert two.comparison("nDCG@10").overall.q_value == report.family("nDCG@10").pair(
        0, 2).adjusted_p
    files, _ = demo
    plain = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                         settings=CompareSettings(**FAST))
    plain_data = json.loads(plain.to_json())
    assert plain_data["schema"] == 2 and "families" not in plain_data
    assert not {"family", "family_method", "q_family"} & set(plain_data["params"])
    assert all("candidate" not in c and "overall_family" not in c
               for c in plain_data["comparisons"])


def test_scoring_while_reading_gives_the_same_report(demo, report):
    files, _ = demo
    settings = CompareSettings(segment_column="intent", seed=5, **FAST)
    streamed = load_inputs(files["run_a"], files["run_b"], files["run_dense"],
                           qrels=files["qrels"], segments=files["segments"], settings=settings)
    assert streamed.runs == (None, None, None)
    assert [f.role for f in streamed.files] == ["qrels", "segments"]  # run bytes let go
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = streamed.report(settings)
    assert again.to_json() == report.to_json()
    with pytest.raises(ValueError, match="scored while they were read"):
        streamed.report(CompareSettings(metrics=("P@10",)))


def test_runs_given_as_paths_and_relabelled(demo):
    from ranklens import demo as bundled

    paths = bundled.paths()
    files, _ = demo
    inputs = load_inputs(paths["run_a"], files["run_dense"], paths["run_b"], qrels=paths["qrels"])
    assert [f.role for f in inputs.files][:3] == ["run_a", "run_b", "run_c"]
    assert inputs.default_run_names == ("bm25_baseline", "dense_retriever", "neural_reranker")


def test_names_must_match_the_runs_and_be_distinct(demo):
    _, inputs = demo
    with pytest.raises(ValueError, match="2 run names for 3 runs"):
        inputs.report(CompareSettings(run_names=("x", "y"), **FAST))
    with pytest.raises(ValueError, match="its own name"):
        inputs.report(CompareSettings(run_names=("x", "y", "y"), **FAST))
    from ranklens.compare.analysis import _distinct  # name clashes get numbered

    assert _distinct(["x", "y", "x", "x"]) == ("x", "y", "x (2)", "x (3)")


def test_at_most_26_runs():
    assert run_key(25) == "z" and run_role(1) == "run_b"
    with pytest.raises(ValueError, match="at most 26 runs"):
        run_key(26)
    results = [{"m": MetricResult("m", {"q1": 0.1})}] * 27
    with pytest.raises(ValueError, match="at most 26 runs"):
        compare_runs(results, [str(i) for i in range(27)])


def test_each_candidate_gets_its_two_run_coverage(demo, report):
    # judgement coverage, guardrail and robustness view of each candidate are exactly those of
    # the two-run comparison of that candidate with the baseline (all 400 queries shared)
    files, _ = demo
    for j, role in ((1, "run_b"), (2, "run_dense")):
        alone = build_report(files["run_a"], files[role], qrels=files["qrels"],
                             segments=files["segments"],
                             settings=CompareSettings(segment_column="intent", seed=5, **FAST))
        mine = report.candidate_report(j).coverage
        assert mine is not None and mine == alone.coverage
    neural, dense = (report.coverage_of(j).metric("nDCG@10") for j in (1, 2))
    assert not neural.alert and dense.alert  # dense: judged@10 54% against BM25's 71%
    assert round(dense.overall.judged_a, 2) == 0.71 and round(dense.overall.judged_b, 2) == 0.54
    assert report.coverage is None  # several candidates: coverage is per candidate
    assert Report.from_json(report.to_json()).candidate_coverage == report.candidate_coverage


def test_leaderboard_and_sections_show_each_candidates_coverage(report):
    from ranklens.compare import coverage_words
    from ranklens.compare.text import render_markdown, render_text

    sentence = coverage_words.leaderboard_coverage(report, "nDCG@10")
    assert sentence == (
        "Judged@10: bm25_baseline 71%, neural_reranker 74%, dense_retriever 54% of the top 10 "
        "documents have a judgement. Unjudged documents could change the verdict of "
        "dense_retriever: see the banner in its section.")
    text = render_text(report, width=10_000)
    neural, dense = text.split("== dense_retriever against bm25_baseline ==")
    assert coverage_words.BANNER_TITLE not in neural.split("== neural_reranker against")[1]
    assert dense.count(coverage_words.BANNER_TITLE) == 1
    assert "Judged@10: bm25_baseline 71%, dense_retriever 54% of the top 10" in dense
    assert coverage_words.ROBUSTNESS_TITLE in neural and coverage_words.ROBUSTNESS_TITLE in dense
    markdown = render_markdown(report)
    assert markdown.count(f"> **{coverage_words.BANNER_TITLE}**") == 1
    assert len(coverage_words.report_alerts(report)) == 1


def test_tables_of_several_runs_have_no_coverage(tmp_path):
    # per-query tables carry no judgements: no coverage, as for two tables
    for name, values in (("a", (0.2, 0.4, 0.5)), ("b", (0.3, 0.5, 0.5)), ("c", (0.1, 0.4, 0.6))):
        rows = "".join(f"q{i}\t{v}\n" for i, v in enumerate(values))
        (tmp_path / f"{name}.tsv").write_text(f"query_id\tnDCG@10\n{rows}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tables = build_report(*(tmp_path / f"{n}.tsv" for n in "abc"),
                              settings=CompareSettings(**FAST))
    assert tables.several and tables.candidate_coverage == () and tables.coverage_of(2) is None


def test_large_runs_scored_while_read_say_the_robustness_view_is_not_computed(demo,
                                                                                monkeypatch):
    # runs "too large" to score every treatment while read: the banner stays, and the report
    # says in words that the robustness view was not computed (never a silent gap)
    from ranklens.compare import scoring

    monkeypatch.setattr(scoring, "ROBUSTNESS_EAGER_ROWS", 1_000)
    files, _ = demo
    settings = CompareSettings(seed=5, **FAST)
    streamed = load_inputs(files["run_a"], files["run_b"], files["run_dense"],
                           qrels=files["qrels"], settings=settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = streamed.report(settings)
    neural, dense = (report.coverage_of(j) for j in (1, 2))
    assert dense.metric("nDCG@10").alert and dense.robustness == {}
    assert dense.notes[0].startswith("Robustness view not computed: the runs were scored one "
                                     "at a time as they were read and not kept (they hold "
                                     "80,000 rows)")
    assert neural.notes[0].startswith("Robustness view not computed: no coverage banner")


def test_changes_between_reports_of_several_candidates_name_the_candidate(report):
    # a shared link's stored report against the same report recomputed: what changed, by whom
    from ranklens.share.differences import report_changes

    assert report_changes(report, Report.from_json(report.to_json())) == ()
    family = report.family("nDCG@10")
    moved = dataclasses.replace(family, pairs=(
        family.pairs[0], dataclasses.replace(family.pairs[1], adjusted_p=0.2)))
    dense = report.comparison("nDCG@10", 2)
    shifted = dataclasses.replace(dense, overall=dataclasses.replace(
        dense.overall, mean_b=dense.overall.mean_b + 0.01))
    stored = dataclasses.replace(
        report, families=(moved,),
        comparisons=tuple(shifted if c is dense else c for c in report.comparisons))
    lines = report_changes(stored, report)
    assert f"dense_retriever: nDCG@10: mean of B was {dense.overall.mean_b + 0.01:.4f}, now " \
        f"{dense.overall.mean_b:.4f}" in lines
    assert "nDCG@10: adjusted p of dense_retriever against bm25_baseline was 0.200, now " \
        "< 0.001" in lines
    assert not any(line.startswith("neural_reranker") for line in lines)
