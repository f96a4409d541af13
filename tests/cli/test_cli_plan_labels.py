"""From two runs and cheap judgements to a labelling list, labels, and B - A with an interval:
``ranklens plan-labels`` then ``ranklens ppi --design`` (issue 47), on a world where the
reranker B changes the order of 30% of the queries only."""

from __future__ import annotations

import io as text_io

import numpy as np
import pandas as pd
import pytest

from ranklens import io
from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.ppi.labelling import plan_labels
from ranklens.stats.active_ppi import design_estimate
from tests.support.cli_helpers import Runner


def read(path):
    return io.read_run(path)[0]


def _world(folder):
    """80 queries x 30 documents; B reverses the top 10 of every third query (and leaves the
    others as A has them); true grades 0-3, proxy grades one level off for a quarter."""
    rng = np.random.default_rng(47)
    run_a, run_b, truth, proxy = [], [], [], []
    for q in range(80):
        query = f"q{q:02d}"
        scores = np.sort(rng.uniform(0, 10, 30))[::-1].round(3)
        order_b = list(range(30))
        if q % 3 == 0:
            order_b[:10] = order_b[:10][::-1]
        for rank, doc in enumerate(range(30)):
            run_a.append(f"{query} Q0 {query}_d{doc} {rank + 1} {scores[rank]} A")
        for rank, doc in enumerate(order_b):
            run_b.append(f"{query} Q0 {query}_d{doc} {rank + 1} {scores[rank]} B")
        for doc in range(30):
            grade = int(rng.choice([0, 0, 1, 2, 3]))
            off = rng.random() < 0.25
            truth.append(f"{query} 0 {query}_d{doc} {grade}")
            proxy.append(f"{query} 0 {query}_d{doc} "
                         f"{min(3, max(0, grade + (rng.choice([-1, 1]) if off else 0)))}")
    paths = {}
    for name, lines in (("run_a", run_a), ("run_b", run_b), ("truth", truth), ("proxy", proxy)):
        paths[name] = folder / f"{name}.trec"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def _labelled(plan_csv, truth_path, target):
    """The true grades of the documents the plan lists: what the annotators would return."""
    plan = pd.read_csv(plan_csv, dtype={"query_id": str, "doc_id": str})
    truth = pd.read_csv(truth_path, sep=" ", header=None, names=["q", "i", "d", "r"], dtype=str)
    asked = truth.merge(plan[["query_id", "doc_id"]], left_on=["q", "d"],
                        right_on=["query_id", "doc_id"])
    asked[["q", "i", "d", "r"]].to_csv(target, sep=" ", header=False, index=False)
    return plan, asked


def test_a_plan_skips_queries_that_cannot_move_and_its_labels_give_the_estimate(
        ranklens: Runner, tmp_path):
    paths = _world(tmp_path)
    plan_csv = tmp_path / "plan.csv"
    done = ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["proxy"], "--budget-queries", 12, "--seed", 5, "-o", plan_csv)
    assert done.code == 0, done.err
    assert "80 queries: 27 may move B - A, 53 cannot" in done.err
    plan = pd.read_csv(plan_csv, dtype={"query_id": str, "doc_id": str})
    assert list(plan.columns[:3]) == ["query_id", "doc_id", "probability"]
    drawn = set(plan["query_id"])
    assert drawn and all(int(q[1:]) % 3 == 0 for q in drawn)  # only queries B changed
    assert set(plan["reason"]) <= {"moves B - A", "normalisation only"}
    # the reversed top 10 moves every document but none (an even 10: no middle one)
    assert (plan["reason"] == "moves B - A").all()
    assert plan.groupby("query_id").size().eq(10).all()

    gold_path = tmp_path / "gold.trec"
    _labelled(plan_csv, paths["truth"], gold_path)
    done = ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
                    "--gold-qrels", gold_path, "--design", plan_csv, "--format", "json")
    assert done.code == 0, done.err
    got = pd.read_json(text_io.StringIO(done.out), typ="series")
    assert got["n_drawn"] == len(drawn) and got["n_certain"] == 53

    # the same number from its definition: every query's B - A on the listed documents
    # (both top 10s) under proxy grades, the drawn ones under true grades, weighted by 1/pi
    def frame(path):
        return pd.read_csv(path, sep=" ", header=None, names=["q", "i", "d", "r"], dtype=str)

    def top10(path):
        run = pd.read_csv(path, sep=" ", header=None, names=["q", "z", "d", "rank", "s", "t"],
                          dtype={"q": str, "d": str})
        return run[run["rank"] <= 10]

    listed = pd.concat([top10(paths["run_a"]), top10(paths["run_b"])])[["q", "d"]]
    listed = listed.drop_duplicates()
    proxy = frame(paths["proxy"]).merge(listed, on=["q", "d"])
    gold = frame(gold_path)
    runs = {side: Run.from_frame(top10(paths[f"run_{side}"]).rename(
        columns={"q": "query_id", "d": "doc_id", "s": "score"})[["query_id", "doc_id", "score"]])
        for side in "ab"}

    def deltas(labels):
        qrels = Qrels.from_columns(labels["q"], labels["d"], labels["r"].astype(int))
        values = {side: evaluate(runs[side], qrels, ["nDCG@10"], missing="zero")["nDCG@10"]
                  .per_query for side in "ab"}
        return {q: values["b"].get(q, 0.0) - values["a"].get(q, 0.0) for q in values["a"]}

    proxy_delta, gold_delta = deltas(proxy), deltas(gold)
    queries = sorted(proxy_delta)
    # every query's probability (the CSV lists the drawn ones only), as the plan gives them
    remade = plan_labels(*(read(paths[n]) for n in ("run_a", "run_b")),
                         io.read_qrels(paths["proxy"])[0], budget_queries=12, seed=5).queries
    probability = dict(zip(remade["query_id"], remade["probability"], strict=True))
    assert all(abs(probability[q] - p) < 1e-6 for q, p in
               zip(plan["query_id"], plan["probability"], strict=True))
    pi = np.array([probability[q] for q in queries])
    expected = design_estimate(
        np.array([proxy_delta[q] for q in queries]),
        np.array([gold_delta.get(q, np.nan) for q in queries]),
        np.array([q in drawn for q in queries]), pi)
    assert got["estimate"] == pytest.approx(expected.estimate, abs=1e-12)
    assert got["ci_low"] == pytest.approx(expected.ci_low, abs=1e-12)
    assert got["ci_low"] < got["estimate"] < got["ci_high"]


def test_gold_judgements_the_plan_did_not_ask_for_are_refused(ranklens: Runner, tmp_path):
    paths = _world(tmp_path)
    plan_csv = tmp_path / "plan.csv"
    ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
             "--budget-queries", 12, "-o", plan_csv)
    done = ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
                    "--gold-qrels", paths["truth"], "--design", plan_csv)
    assert done.code == 2
    assert "judgement(s) the plan did not ask for" in done.err and "Traceback" not in done.err


def test_a_plan_of_other_runs_is_refused(ranklens: Runner, tmp_path):
    paths = _world(tmp_path)
    plan_csv = tmp_path / "plan.csv"
    ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
             "--budget-queries", 12, "-o", plan_csv)
    gold_path = tmp_path / "gold.trec"
    _labelled(plan_csv, paths["truth"], gold_path)
    done = ranklens("ppi", paths["run_a"], paths["run_a"], "--proxy-qrels", paths["proxy"],
                    "--gold-qrels", gold_path, "--design", plan_csv)
    assert done.code == 2 and "not those the runs and proxy judgements give" in done.err


def test_one_budget_is_needed_and_the_metric_needs_a_cutoff(ranklens: Runner, tmp_path):
    paths = _world(tmp_path)
    done = ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["proxy"], "--budget-queries", 5, "--metric", "AP")
    assert done.code == 2 and "nDCG@k or P@k" in done.err


def test_the_judges_confidence_steers_the_plan_and_the_estimate_reads_it(ranklens: Runner,
                                                                        tmp_path):
    """The judge is sure of every label of queries q00-q39 and unsure of the others': the
    plan draws the unsure queries more, the estimate needs the same table to find its draws,
    and a confidence outside [0.5, 1] is refused naming the line."""
    paths = _world(tmp_path)
    table = tmp_path / "confidence.csv"
    proxy = pd.read_csv(paths["proxy"], sep=" ", header=None, names=["q", "i", "d", "r"],
                        dtype=str)
    sure = proxy["q"].str[1:].astype(int) < 40
    pd.DataFrame({"query_id": proxy["q"], "doc_id": proxy["d"],
                  "confidence": np.where(sure, 0.99, 0.55)}).to_csv(table, index=False)
    run_a, run_b = read(paths["run_a"]), read(paths["run_b"])
    proxy_qrels = io.read_qrels(paths["proxy"])[0]
    spread = io.read_judge_confidence(table)
    assert spread[("q00", "q00_d0")] == pytest.approx(0.02)
    plain = plan_labels(run_a, run_b, proxy_qrels, budget_queries=12, seed=1)
    steered = plan_labels(run_a, run_b, proxy_qrels, budget_queries=12, seed=1,
                          judge_spread=spread)
    unsure = steered.queries["query_id"].str[1:].astype(int) >= 40
    moving = steered.queries["uncertainty"] > 0
    assert steered.queries.loc[unsure & moving, "probability"].min() > \
        steered.queries.loc[~unsure & moving, "probability"].max()
    assert not plain.queries["probability"].equals(steered.queries["probability"])

    plan_csv, gold_path = tmp_path / "plan.csv", tmp_path / "gold.trec"
    done = ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["proxy"], "--budget-queries", 12, "--seed", 1, "-o", plan_csv,
                    "--judge-confidence", table)
    assert done.code == 0, done.err
    _labelled(plan_csv, paths["truth"], gold_path)
    args = ("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
            "--gold-qrels", gold_path, "--design", plan_csv)
    with_table = ranklens(*args, "--judge-confidence", table)
    assert with_table.code == 0, with_table.err
    without = ranklens(*args)
    assert without.code == 2 and "judge-confidence table" in without.err

    bad = tmp_path / "bad.csv"
    bad.write_text("query_id,doc_id,confidence\nq00,q00_d0,0.9\nq00,q00_d1,0.3\n",
                   encoding="utf-8")
    refused = ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels",
                       paths["proxy"], "--budget-queries", 12, "--judge-confidence", bad)
    assert refused.code == 2 and "confidence 0.3 is outside [0.5, 1]" in refused.err
    assert "line 3" in refused.err
