"""Issue 30's additions to a report: the tie sentence beside the verdict, query texts in the
report (bounded) and the documents a share link keeps (bounded)."""

from __future__ import annotations

import gzip
import html
import json

import numpy as np
import pytest

from ranklens import demo
from ranklens.compare.analysis import CompareSettings, LoadedInputs, load_inputs
from ranklens.compare.drilldown import with_drilldown
from ranklens.compare.query_texts import read_texts, shared_documents, with_texts
from ranklens.compare.rankings import ranking
from ranklens.compare.report import Report
from ranklens.compare.tie_reading import (
    other_reading,
    readings_to_score,
    tie_notes,
    tie_shares,
    with_ties,
)
from ranklens.formats import format_delta, format_p
from ranklens.io import InputFile
from ranklens.metrics import cutoff_ties
from ranklens.metrics.ties import has_ties

FAST = {"n_resamples": 1000, "n_permutations": 1000}


def tied_inputs(n_queries: int = 60) -> LoadedInputs:
    """Run A gives every document the same score, and the two relevant documents of each
    query have the highest ids, so trec_eval's order (ids descending) ranks them first; run B
    ranks them by its scores at ranks 1-2 or 19-20. trec_eval reads A better; tie-averaging,
    B."""
    rng = np.random.default_rng(1)
    run_a, run_b, qrels = [], [], []
    for i in range(n_queries):
        query = f"q{i:02d}"
        run_a += [f"{query} Q0 d{d:02d} {d + 1} 1.0 tied" for d in range(20)]
        others = rng.permutation(18).tolist()
        order = [19, 18, *others] if rng.random() < 0.5 else [*others, 19, 18]
        run_b += [f"{query} Q0 d{d:02d} {r + 1} {20 - r} real" for r, d in enumerate(order)]
        qrels += [f"{query} 0 d19 1", f"{query} 0 d18 1", f"{query} 0 d00 0"]
    return load_inputs(InputFile("run_a", "tied.trec", ("\n".join(run_a) + "\n").encode()),
                       InputFile("run_b", "real.trec", ("\n".join(run_b) + "\n").encode()),
                       qrels=InputFile("qrels", "q.trec", ("\n".join(qrels) + "\n").encode()))


def test_tie_note_when_the_two_tie_rules_read_the_comparison_differently() -> None:
    inputs = tied_inputs()
    settings = CompareSettings(metrics=("nDCG@10", "ERR@20"), **FAST)
    report = inputs.report(settings)
    shown = report.comparison("nDCG@10").overall
    # trec_eval: A's tied relevant documents are ranks 1-2 (ids descending): nDCG@10 = 1
    assert shown.mean_a == 1.0 and shown.delta < 0 and shown.p_value <= 0.05
    notes = tie_notes(inputs, settings, report)
    assert list(notes) == ["nDCG@10"]  # ERR has no tie-averaged form
    other = inputs.report(CompareSettings(metrics=("nDCG(ties=average)@10",), **FAST))
    alternative = other.comparison("nDCG(ties=average)@10").overall
    assert alternative.delta > 0 and alternative.p_value <= 0.05
    assert f"B \u2212 A = {format_delta(alternative.delta)}" in notes["nDCG@10"]
    assert "real worse" in notes["nDCG@10"] and "real better" in notes["nDCG@10"]
    # and the faces carry it beside the verdict
    enriched = with_drilldown(report, inputs, settings)
    assert enriched.tie_notes == notes
    assert Report.from_json(enriched.to_json()) == enriched
    from ranklens.compare.html import render as render_html
    from ranklens.compare.text import render_markdown, render_text
    sentence = notes["nDCG@10"]
    assert " ".join(sentence.split()) in " ".join(render_text(enriched).split())
    assert f"> {sentence}" in render_markdown(enriched)
    page = render_html(enriched)  # the sentence, escaped, in the box beside the verdict
    assert f'<div class="warnings ties" role="note"><p>{html.escape(sentence)}</p>' in page


def test_no_tie_note_when_both_rules_agree() -> None:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    settings = CompareSettings(metrics=("nDCG@10", "AP"), **FAST)
    report = inputs.report(settings)
    assert tie_notes(inputs, settings, report) == {}
    assert with_drilldown(report, inputs, settings).to_json() == report.to_json()


def test_tie_names_and_shares() -> None:
    assert with_ties(["ndcg@10", "map", "ERR@20", "P@5"], "average") == (
        "nDCG(ties=average)@10", "AP(ties=average)", "ERR@20", "P(ties=average)@5")
    assert with_ties(["nDCG(ties=average)@10"], "trec_eval") == ("nDCG@10",)
    assert other_reading("RR") == "RR(ties=average)" and other_reading("bpref") is None
    inputs = tied_inputs(10)
    shares = tie_shares(inputs, "nDCG@10")
    assert shares is not None
    assert [s.share for s in shares] == [1.0, 0.0]  # A ties all 20 across rank 10; B none
    direct = cutoff_ties(inputs.run_a, 10)
    assert shares[0].n_crossing == direct.n_crossing == 10
    assert tie_shares(inputs, "AP") is None  # no cutoff


def test_report_keeps_each_compared_querys_text_cut_and_says_which_lack_one(tmp_path) -> None:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    report = inputs.report(CompareSettings(**FAST))
    lines = [f"q{i:04d}\t{'long ' * 200 if i == 1 else f'text {i}'}" for i in range(1, 400)]
    queries = tmp_path / "queries.tsv"
    queries.write_text("\n".join(lines) + "\n")  # q0000 has no text
    texts = read_texts(queries)
    enriched = with_texts(report, texts)
    assert len(enriched.query_texts) == 399 and "q0000" not in enriched.query_texts
    assert enriched.query_texts["q0002"] == "text 2"
    assert len(enriched.query_texts["q0001"]) <= 300
    assert enriched.query_texts["q0001"].endswith("\u2026")
    assert enriched.warnings[-1] == ("1 of the 400 compared queries have no text in "
                                     "queries.tsv: they are shown by id only.")
    assert enriched.inputs[-1].role == "queries" and enriched.inputs[-1].summary["rows"] == 399


def test_shared_documents_keep_the_top_10_of_each_run_within_the_bound() -> None:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    texts = read_texts(documents=demo.text_paths()["documents"])
    runs = [inputs.run_a, inputs.run_b]
    queries = ["q0313", "q0001"]
    shared = shared_documents(texts, runs, queries, text_chars=50)
    assert shared is not None and shared.role == "documents"
    records = [json.loads(line) for line in gzip.decompress(shared.data).splitlines()]
    wanted = {doc for run in runs for q in queries for doc, _ in ranking(run, q)[:10]}
    assert {r["_id"] for r in records} == wanted & set(texts.lookup(wanted))
    assert all(len(r["text"]) <= 50 for r in records)
    # the bound: one query's documents fit, the next would not
    first = shared_documents(texts, runs, queries[:1], text_chars=50)
    assert first is not None
    size = len(gzip.decompress(first.data))
    bounded = shared_documents(texts, runs, queries, text_chars=50, max_bytes=size)
    assert bounded is not None and gzip.decompress(bounded.data) == gzip.decompress(first.data)
    assert read_texts(documents=bounded).lookup(["nope"]) == {}


def test_the_report_scores_both_tie_readings_in_one_pass(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # issue 26: the drill-down read the other tie rule by scoring every run again
    inputs = tied_inputs()
    settings = CompareSettings(metrics=("nDCG@10", "ERR@20"), **FAST)
    assert readings_to_score(inputs, settings) == ("nDCG(ties=average)@10",)
    report = inputs.report(settings)
    held = len(inputs.cache)

    def no_scoring(*args: object) -> None:
        raise AssertionError("scored again")

    monkeypatch.setattr(LoadedInputs, "_evaluate", no_scoring)
    notes = with_drilldown(report, inputs, settings).tie_notes
    assert len(inputs.cache) == held and list(notes) == ["nDCG@10"]
    # the sentence's numbers are those of the full comparison under the other rule
    monkeypatch.undo()
    other = tied_inputs().report(CompareSettings(metrics=("nDCG(ties=average)@10",), **FAST))
    alternative = other.comparison("nDCG(ties=average)@10").overall
    assert (f"B \u2212 A = {format_delta(alternative.delta)} (p "
            f"{format_p(alternative.p_value)})") in notes["nDCG@10"]


def test_runs_without_equal_scores_get_no_second_reading() -> None:
    # both rules order such runs alike, so nothing is scored or compared for the sentence
    lines_a, lines_b, qrels = [], [], []
    for i in range(30):
        lines_a += [f"q{i:02d} Q0 d{d} {d + 1} {10 - d + i / 100} a" for d in range(8)]
        lines_b += [f"q{i:02d} Q0 d{d} {8 - d} {d + i / 100} b" for d in range(8)]
        qrels += [f"q{i:02d} 0 d{i % 8} 1"]
    files = [InputFile(role, f"{role}.trec", ("\n".join(lines) + "\n").encode())
             for role, lines in (("run_a", lines_a), ("run_b", lines_b), ("qrels", qrels))]
    inputs = load_inputs(files[0], files[1], qrels=files[2])
    settings = CompareSettings(metrics=("nDCG@10",), **FAST)
    assert not has_ties(inputs.run_a) and not has_ties(inputs.run_b)
    assert readings_to_score(inputs, settings) == ()
    report = inputs.report(settings)
    scored = [key.metrics for key in inputs.cache]
    assert not any("ties=average" in m for metrics in scored for m in metrics)
    assert tie_notes(inputs, settings, report) == {}
    assert [key.metrics for key in inputs.cache] == scored


def test_has_ties_looks_within_each_query_only() -> None:
    from ranklens.data import Run

    # the same score in two queries is no tie; in one query it is
    assert not has_ties(Run.from_columns(["q1", "q2"], ["d1", "d1"], [1.0, 1.0]))
    assert has_ties(Run.from_columns(["q1", "q1", "q2"], ["d1", "d2", "d3"], [1.0, 1.0, 2.0]))
    unsorted = Run.from_columns(["q2", "q1", "q2", "q1"], ["a", "b", "c", "d"],
                                [0.5, 0.2, 0.4, 0.3])
    assert not has_ties(unsorted)
    ranked = Run.from_columns(["q1", "q1"], ["a", "b"], [1.0, 1.0], ranks=[1, 2])
    assert has_ties(ranked, "score") and not has_ties(ranked, "rank")


def test_the_score_cache_answers_a_subset_of_what_it_holds() -> None:
    from ranklens.compare.scoring import ScoreCache, scoring_key

    inputs = tied_inputs(10)
    both = scoring_key(("nDCG@10", "nDCG(ties=average)@10"), "drop", "score", "linear", 1,
                       "nonrelevant")
    evaluations = inputs.evaluations(both.metrics)
    cache = ScoreCache({both: evaluations})
    one = both._replace(metrics=("nDCG(ties=average)@10",))
    held = cache.get(one)
    assert held is not None and one in cache
    assert [list(ev.results) for ev in held] == [["nDCG(ties=average)@10"]] * 2
    assert held[1]["nDCG(ties=average)@10"] == evaluations[1]["nDCG(ties=average)@10"]
    assert cache.get(both._replace(metrics=("AP",))) is None  # not held
    assert cache.get(one._replace(order="rank")) is None  # other arguments


def test_a_tie_rule_that_moves_b_minus_a_gets_a_note_though_the_verdict_holds():
    """Issue 51: +0.0148 under trec_eval's order and +0.0350 tie-averaged is worth saying even
    when both read "B better"; a move of a few hundredths of the interval is not."""
    from ranklens.compare.tie_reading import moves_the_difference

    assert moves_the_difference(0.0148, 0.0350, 0.004, 0.026)  # 0.0202 > 0.1 x 0.022
    assert not moves_the_difference(0.0148, 0.0150, 0.004, 0.026)
    assert moves_the_difference(0.01, 0.0101, 0.01, 0.01)  # a point interval: any move
    assert moves_the_difference(0.01, 0.02, float("-inf"), 0.5)
