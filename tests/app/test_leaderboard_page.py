"""The Leaderboard page (issue 49): the demo's five runs ranked as the library ranks them, the
figures above the chart counted from the same rows, and the simulated 200-run board."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens import demo
from ranklens.compare.leaderboard import leaderboard_report, score_runs
from tests.support.page_testing import metric_cards, run_page

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "pages" / "leaderboard.py"


def _demo_scored():
    paths = demo.paths()
    runs = [paths["run_a"], paths["run_dense"], *demo.seed_paths()]
    names = ["bm25_baseline", "dense_retriever", "neural_reranker", "neural_reranker_seed2",
             "neural_reranker_seed3"]
    return score_runs(runs, paths["qrels"], ["nDCG@10"]), names


def demo_board():
    return leaderboard_report(*_demo_scored(), ["nDCG@10"])


def test_the_demo_board_shows_the_librarys_ranks_and_counts_them():
    at = run_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    rows = demo_board().ranks["nDCG@10"]
    table = at.dataframe[0].value
    assert list(table.columns) == ["Rank", "nDCG@10", "Run", "Tiers"]
    assert list(table["Run"]) == [r.run for r in rows]
    assert list(table["Rank"]) == [f"{r.rank_low}" if r.rank_low == r.rank_high
                                   else f"{r.rank_low}-{r.rank_high}" for r in rows]
    assert list(table["Tiers"]) == [r.tier for r in rows]
    assert list(table["nDCG@10"]) == [f"{r.mean:.4f}" for r in rows]
    cards = metric_cards(at)
    best = sum(r.rank_low == 1 for r in rows)
    assert cards["Could be the best"] == f"{best} of 5"
    assert cards["Rank known exactly"] == f"{sum(r.rank_low == r.rank_high for r in rows)} of 5"
    # the demo: the neural re-ranker's seeds are not told apart, the dense retriever is last
    assert rows[-1].run == "dense_retriever" and rows[-1].rank_low == 5
    page = "\n".join(m.value for m in at.markdown).replace("\\", "")  # markup escapes
    assert "all 10 pairs tested at once" in page


def test_a_run_filter_keeps_the_matching_rows():
    at = run_page(PAGE)
    at.text_input(key="board_find_nDCG@10").input("seed").run()
    assert not at.exception
    rows = demo_board().ranks["nDCG@10"]
    assert list(at.dataframe[0].value["Run"]) == [r.run for r in rows if "seed" in r.run]
    assert len(at.dataframe[0].value) == 2


@pytest.mark.slow
def test_the_simulated_sweep_ranks_200_runs():
    at = run_page(PAGE)
    at.radio(key="board_source").set_value("Simulated: 200 checkpoints").run(timeout=240)
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    assert len(table) == 200
    cards = metric_cards(at)
    best = int(cards["Could be the best"].split(" of ")[0])
    assert cards["Could be the best"].endswith("of 200")
    assert (table["Rank"].str.startswith("1-") | (table["Rank"] == "1")).sum() == best


def test_a_baseline_adds_each_candidate_against_it():
    at = run_page(PAGE)
    at.multiselect(key="board_baselines").set_value(["bm25_baseline"]).run()
    assert not at.exception, [e.value for e in at.exception]
    report = leaderboard_report(*_demo_scored(), ["nDCG@10"], baselines=("bm25_baseline",))
    against = at.dataframe[1].value
    assert list(against.columns) == ["Candidate", "vs bm25_baseline"]
    rows = {r.run: r for r in report.against["nDCG@10"]}
    assert set(against["Candidate"]) == set(rows) and len(rows) == 4
    shown = dict(zip(against["Candidate"], against["vs bm25_baseline"], strict=True))
    dense = rows["dense_retriever"]
    assert shown["dense_retriever"].startswith("▼ −") and f"{abs(dense.delta):.4f}" in shown[
        "dense_retriever"]
    page = "\n".join(m.value for m in at.markdown).replace("\\", "")  # markup escapes
    assert "4 candidates against 1 baseline (bm25_baseline)" in page
