"""Labelling in rounds (issue 47): ``ranklens plan-labels --max-rounds M``, then each next round
with ``--design PLAN --gold-qrels GOLD_SO_FAR``, and ``ranklens ppi --design`` saying after
each round whether the question is answered, on ``make_data.py``'s world labelled with its
true grades."""

from __future__ import annotations

import io as text_io
import json
from pathlib import Path

import pandas as pd
import pytest

from ranklens import io
from ranklens.data import Qrels
from ranklens.metrics import evaluate
from ranklens.metrics.top_k import top_k
from tests.support.cli_helpers import Runner
from tests.support.make_data import make_world


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return make_world(tmp_path_factory.mktemp("rounds"), "--queries", "200", "--depth", "30",
                      "--judged", "10", "--seed", "4")


def _label(world: Path, plan_csv: Path, target: Path) -> pd.DataFrame:
    """The true grades of the plan's documents (every round's): the annotators' answer."""
    plan = pd.read_csv(plan_csv, dtype={"query_id": str, "doc_id": str})
    truth = pd.read_csv(world / "qrels.trec", sep=" ", header=None, names=["q", "i", "d", "r"],
                        dtype=str)
    asked = truth.merge(plan[["query_id", "doc_id"]], left_on=["q", "d"],
                        right_on=["query_id", "doc_id"])
    asked[["q", "i", "d", "r"]].to_csv(target, sep=" ", header=False, index=False)
    return plan


def _true_delta(world: Path) -> float:
    """The gold B - A the plan estimates: nDCG@10 under the true grades of the documents of
    both top 10 lists (the ideal DCG too), averaged over all queries."""
    runs = {side: io.read_run(world / f"run_{side}.trec")[0] for side in "ab"}
    tops = pd.concat([top_k(runs[side], 10) for side in "ab"])
    listed = tops[["query_id", "doc_id"]].astype(str).drop_duplicates()
    truth = pd.read_csv(world / "qrels.trec", sep=" ", header=None, names=["q", "i", "d", "r"],
                        dtype=str).merge(listed, left_on=["q", "d"],
                                         right_on=["query_id", "doc_id"])
    qrels = Qrels.from_columns(truth["q"], truth["d"], truth["r"].astype(int))
    scores = {side: evaluate(runs[side], qrels, ["nDCG@10"], missing="zero")["nDCG@10"]
              .per_query for side in "ab"}
    queries = sorted(set(listed["query_id"]))
    return sum(scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0) for q in queries) / len(queries)


@pytest.mark.slow
def test_three_rounds_with_true_grades_narrow_the_interval_and_cover_the_true_b_minus_a(
        ranklens: Runner, world: Path, tmp_path):
    base = (world / "run_a.trec", world / "run_b.trec", "--proxy-qrels",
            world / "qrels_proxy.trec")
    plans = [tmp_path / f"plan{k}.csv" for k in (1, 2, 3)]
    golds = [tmp_path / f"gold{k}.trec" for k in (1, 2, 3)]
    done = ranklens("plan-labels", *base, "--budget-queries", 25, "--seed", 1,
                    "--max-rounds", 3, "--effect", 0.02, "-o", plans[0])
    assert done.code == 0, done.err
    assert "round 1 of at most 3" in done.err and "98.33%" in done.err
    _label(world, plans[0], golds[0])
    for k in (2, 3):
        done = ranklens("plan-labels", *base, "--budget-queries", 25, "--seed", k,
                        "--design", plans[k - 2], "--gold-qrels", golds[k - 2],
                        "--round", k, "-o", plans[k - 1])
        assert done.code == 0, done.err
        assert "labelled in earlier rounds count with their gold B - A" in done.err
        _label(world, plans[k - 1], golds[k - 1])
    design = pd.read_csv(plans[2], dtype={"query_id": str, "doc_id": str})
    first = pd.read_csv(plans[0], dtype={"query_id": str, "doc_id": str})
    # the plan file keeps every round's rows; no query is drawn twice
    pd.testing.assert_frame_equal(design[design["round"] == 1].reset_index(drop=True), first)
    per_round = design.groupby("query_id")["round"].nunique()
    assert (per_round == 1).all() and sorted(design["round"].unique()) == [1, 2, 3]

    done = ranklens("ppi", *base, "--gold-qrels", golds[2], "--design", plans[2],
                    "--format", "json")
    assert done.code == 0, done.err
    got = json.load(text_io.StringIO(done.out))
    looks = got["rounds"]
    assert [look["round"] for look in looks] == [1, 2, 3]
    assert all(look["level"] == pytest.approx(1 - 0.05 / 3) for look in looks)
    drawn = design.groupby("round")["query_id"].nunique().cumsum().tolist()
    assert [look["n_drawn"] for look in looks] == drawn
    widths = [look["ci_high"] - look["ci_low"] for look in looks]
    assert widths[2] < widths[1] < widths[0] and widths[2] < widths[0] / 2
    truth = _true_delta(world)
    assert all(look["ci_low"] <= truth <= look["ci_high"] for look in looks), (truth, looks)
    assert got["estimate"] == looks[-1]["estimate"] and got["round"] == 3

    text = ranklens("ppi", *base, "--gold-qrels", golds[2], "--design", plans[2])
    lines = text.out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("after round 1 of at most 3: nDCG@10: B - A")
    assert "label round 2" in lines[0]
    assert "after the last round planned" in lines[2] or "stop here" in lines[2]


@pytest.mark.slow
def test_a_gold_file_not_matching_the_rounds_is_refused_naming_it_and_what_to_do(
        ranklens: Runner, world: Path, tmp_path):
    base = (world / "run_a.trec", world / "run_b.trec", "--proxy-qrels",
            world / "qrels_proxy.trec")
    plan1, plan2 = tmp_path / "plan1.csv", tmp_path / "plan2.csv"
    gold1, gold2 = tmp_path / "gold1.trec", tmp_path / "gold2.trec"
    ranklens("plan-labels", *base, "--budget-queries", 20, "--max-rounds", 2, "-o", plan1)
    _label(world, plan1, gold1)
    done = ranklens("plan-labels", *base, "--budget-queries", 20, "--seed", 2, "--design",
                    plan1, "-o", plan2)
    assert done.code == 2 and "needs --gold-qrels" in done.err
    done = ranklens("plan-labels", *base, "--budget-queries", 20, "--design", plan1,
                    "--gold-qrels", gold1, "--round", 3)
    assert done.code == 2 and "the next round is 2, not 3" in done.err
    # every true grade: documents no round asked for
    done = ranklens("plan-labels", *base, "--budget-queries", 20, "--design", plan1,
                    "--gold-qrels", world / "qrels.trec")
    assert done.code == 2 and "qrels.trec" in done.err
    assert "judgement(s) the plan did not ask for" in done.err
    assert "give the labels of the plan's documents only" in done.err
    done = ranklens("plan-labels", *base, "--budget-queries", 20, "--seed", 2, "--design",
                    plan1, "--gold-qrels", gold1, "-o", plan2)
    assert done.code == 0, done.err
    # round 2 drawn, but only round 1 labelled: the estimate waits for round 2's labels
    done = ranklens("ppi", *base, "--gold-qrels", gold1, "--design", plan2)
    assert done.code == 2 and "Traceback" not in done.err
    assert f"{gold1}: no gold label for round 2's" in done.err and "label them" in done.err
    _label(world, plan2, gold2)
    done = ranklens("plan-labels", *base, "--budget-queries", 20, "--design", plan2,
                    "--gold-qrels", gold2)
    assert done.code == 2 and "all 2 rounds planned are drawn" in done.err
    # round 1's labels changed after round 2 was drawn from them: round 2 no longer replays
    changed = pd.read_csv(gold2, sep=" ", header=None, dtype=str)
    round1 = changed[0].isin(set(pd.read_csv(plan1, dtype=str)["query_id"]))
    changed.loc[round1, 3] = "3"
    changed.to_csv(tmp_path / "changed.trec", sep=" ", header=False, index=False)
    done = ranklens("ppi", *base, "--gold-qrels", tmp_path / "changed.trec", "--design", plan2)
    assert done.code == 2 and "round 2's drawn queries are not those" in done.err
