"""Inputs that cannot be compared, or say little, are named in words, in the CLI and library.

Judgements without a relevant document, a run tied on most queries, files that share no query
id, tables that share no metric column, identical pilot runs: each gets a message that names
the file (or run), shows what is wrong and says what to do.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens import demo
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.io import InputFile
from ranklens.io.shared_queries import NoSharedQueries
from tests.support.cli_helpers import Runner

DEMO = demo.paths()


def rewrite(source: Path, target: Path, change) -> Path:  # type: ignore[no-untyped-def]
    lines = source.read_text().splitlines()
    target.write_text("\n".join(change(line.split()) for line in lines) + "\n")
    return target


@pytest.fixture
def all_zero_qrels(tmp_path: Path) -> Path:
    return rewrite(DEMO["qrels"], tmp_path / "all_zero.qrels",
                   lambda f: " ".join([*f[:3], "0"]))


@pytest.fixture
def flat_run(tmp_path: Path) -> Path:
    """Run B with one score for every document: its order is in the rank column only."""
    return rewrite(DEMO["run_b"], tmp_path / "run_b_flat.trec",
                   lambda f: " ".join([*f[:4], "1.0", f[5]]))


@pytest.fixture
def other_ids(tmp_path: Path) -> Path:
    return rewrite(DEMO["run_b"], tmp_path / "other_ids.trec",
                   lambda f: " ".join(["Q-" + f[0], *f[1:]]))


def test_judgements_without_a_relevant_document_are_warned(ranklens: Runner,
                                                           all_zero_qrels: Path) -> None:
    done = ranklens("compare", DEMO["run_a"], DEMO["run_b"], "--qrels", all_zero_qrels,
                    "--n-resamples", 200, "--n-permutations", 200)
    assert done.code == 0, done.err
    said = " ".join(done.out.split())
    assert "all_zero.qrels marks no document relevant" in said
    assert "Every metric is 0 for both runs" in said


def test_a_tied_run_is_named_and_rank_order_removes_the_warning(ranklens: Runner,
                                                                 flat_run: Path) -> None:
    done = ranklens("compare", DEMO["run_a"], flat_run, "--qrels", DEMO["qrels"],
                    "--n-resamples", 200, "--n-permutations", 200, "-f", "json")
    assert done.code == 0, done.err
    assert "run_b_flat (run_b_flat.trec) gives every document the same score on 400 of its " \
           "400 queries" in done.out
    assert "--order rank" in done.out
    ranked = ranklens("compare", DEMO["run_a"], flat_run, "--qrels", DEMO["qrels"],
                      "--n-resamples", 200, "--n-permutations", 200, "-f", "json",
                      "--order", "rank")
    assert ranked.code == 0, ranked.err
    assert "same score" not in ranked.out
    # by rank, the flat run is the demo's run B again (its ranks follow its scores)
    files = {role: InputFile.from_path(role, DEMO[role]) for role in ("run_a", "run_b", "qrels")}
    settings = CompareSettings(order="rank", n_resamples=200, n_permutations=200)
    expected = build_report(files["run_a"], InputFile.from_path("run_b", flat_run),
                            qrels=files["qrels"], settings=settings)
    by_score = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                            settings=CompareSettings(n_resamples=200, n_permutations=200))
    delta = expected.comparisons[0].overall.delta
    assert f'"delta": {delta!r}' in ranked.out
    assert delta == pytest.approx(by_score.comparisons[0].overall.delta, abs=0.001)


def test_runs_without_a_common_query_name_both_files_and_show_ids(ranklens: Runner,
                                                                   other_ids: Path) -> None:
    done = ranklens("compare", DEMO["run_a"], other_ids, "--qrels", DEMO["qrels"])
    assert done.code == 2
    assert "other_ids.trec and qrels.trec share no query id: other_ids.trec has 'Q-q0000', " \
           "'Q-q0001', 'Q-q0002', ... (400 queries), qrels.trec has 'q0000', 'q0001', " \
           "'q0002', ... (400 queries)." in done.err
    # one qrels file judging both id spellings: now the two runs share no query
    both = other_ids.parent / "both.qrels"
    both.write_text(DEMO["qrels"].read_text() + "".join(
        "Q-" + line + "\n" for line in DEMO["qrels"].read_text().splitlines()))
    done = ranklens("compare", DEMO["run_a"], other_ids, "--qrels", both)
    assert done.code == 2
    assert "bm25_baseline.trec and other_ids.trec share no query id" in done.err
    assert "'q0000'" in done.err and "'Q-q0000'" in done.err
    with pytest.raises(NoSharedQueries, match=r"bm25_baseline\.trec and other_ids\.trec share"):
        build_report(InputFile.from_path("run_a", DEMO["run_a"]),
                     InputFile.from_path("run_b", other_ids),
                     qrels=InputFile.from_path("qrels", both))


def test_identical_pilot_runs_plan_nothing(ranklens: Runner) -> None:
    done = ranklens("mde", "--runs", DEMO["run_a"], DEMO["run_a"], "--qrels", DEMO["qrels"])
    assert done.code == 0, done.err
    said = " ".join(done.out.split())
    assert ("The 400 paired differences of nDCG@10 have no spread (sd 0: both runs score the "
            "same on every query), so nothing can be planned from them") in said
    assert "Minimum detectable effect" not in said and "queries needed" not in said


def test_tables_without_a_common_metric_name_both_files_and_the_fix(ranklens: Runner,
                                                                    tmp_path: Path) -> None:
    first, second = tmp_path / "bm25.csv", tmp_path / "neural.csv"
    first.write_text("query_id,bm25,neural\nq1,0.1,0.2\nq2,0.3,0.4\n")
    second.write_text("query_id,foo,bar\nq1,0.1,0.2\nq2,0.3,0.4\n")
    done = ranklens("mde", "--runs", first, second)
    assert done.code == 2
    assert ("bm25.csv and neural.csv share no metric column: bm25.csv has bm25, neural, "
            "neural.csv has foo, bar. Give the same metric the same column name") in done.err


def test_gold_judgements_on_other_queries_are_named(ranklens: Runner, tmp_path: Path) -> None:
    gold = rewrite(DEMO["qrels_gold"], tmp_path / "gold_elsewhere.qrels",
                   lambda f: " ".join(["G" + f[0], *f[1:]]))
    done = ranklens("ppi", DEMO["run_a"], DEMO["run_b"], "--proxy-qrels", DEMO["qrels_proxy"],
                    "--gold-qrels", gold)
    assert done.code == 2
    assert ("gold_elsewhere.qrels and bm25_baseline.trec and neural_reranker.trec share no "
            "query id: gold_elsewhere.qrels has 'Gq0") in done.err


def test_ppi_warns_about_proxy_judgements_without_a_relevant_document(
        ranklens: Runner, tmp_path: Path) -> None:
    proxy = rewrite(DEMO["qrels_proxy"], tmp_path / "proxy_zero.qrels",
                    lambda f: " ".join([*f[:3], "0"]))
    done = ranklens("ppi", DEMO["run_a"], DEMO["run_b"], "--proxy-qrels", proxy,
                    "--gold-qrels", DEMO["qrels_gold"])
    assert done.code == 0, done.err
    warnings = done.out.split("Warnings:")[1]
    assert "proxy_zero.qrels marks no document relevant" in " ".join(warnings.split())
