"""`ranklens mde`: the methods page's numbers, from a given sd or from pilot runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

from ranklens.compare.analysis import demo_files, load_inputs
from ranklens.stats import paired_deltas, standard_deviation
from tests.support.cli_helpers import Runner


def test_mde_of_200_queries_at_sd_0_1(ranklens: Runner) -> None:
    done = ranklens("mde", "--sd", "0.1", "--queries", "200")
    assert done.code == 0, done.err
    assert "Minimum detectable effect with 200 queries: 0.0198" in done.out
    table = {line.split()[0]: line.split()[1] for line in done.out.splitlines()
             if line.strip().startswith("+0.0")}
    assert table == {"+0.0200": "197", "+0.0100": "785", "+0.0050": "3,140"}  # as on the page


def test_mde_json_numbers(ranklens: Runner) -> None:
    plan = json.loads(ranklens("mde", "--sd", "0.1", "--queries", "200", "-f", "json").out)["plan"]
    assert round(plan["mde"], 4) == 0.0198
    assert [row["queries_needed"] for row in plan["rows"]] == [197, 785, 3140]


def test_queries_needed_for_one_delta(ranklens: Runner) -> None:
    done = ranklens("mde", "--delta", "0.01", "--sd", "0.1", "-f", "json")
    plan = json.loads(done.out)["plan"]  # the page's shape (ranklens.plan.payload)
    assert plan["mde"] is None
    assert [(row["delta"], row["queries_needed"]) for row in plan["rows"]] == [(0.01, 785)]
    text = ranklens("mde", "--delta", "0.01", "--sd", "0.1").out
    assert "785" in text and "+0.0100" in text


def test_pilot_runs_measure_the_sd(ranklens: Runner, runs: list[object]) -> None:
    a, b, _, qrels = runs
    done = ranklens("mde", "--runs", a, b, "--qrels", qrels, "--metric", "ndcg@10", "-f", "json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    plan, measured = data["plan"], data["spread"]["pilot"]
    files = demo_files()
    inputs = load_inputs(files["run_a"], files["run_b"], qrels=files["qrels"])
    eval_a, eval_b = inputs.evaluations(("nDCG@10",))
    _, deltas = paired_deltas(eval_a["nDCG@10"].per_query, eval_b["nDCG@10"].per_query)
    sd = standard_deviation(deltas)
    assert plan["sd"] == sd and measured["n_queries"] == 400 and plan["pilot"] is None
    assert plan["mde"] == 2.8015852611635225 * sd / math.sqrt(400) or \
        abs(plan["mde"] - 2.80158 * sd / 20) < 1e-5
    assert [row["queries_needed"] for row in plan["rows"]] == [
        math.ceil((2.8015852611635225 * sd / d) ** 2) for d in (0.02, 0.01, 0.005)]
    text = ranklens("mde", "--runs", a, b, "--qrels", qrels, "--metric", "ndcg@10").out
    assert "Pilot: nDCG@10 on 400 paired queries" in text


def test_mde_needs_sd_or_runs(ranklens: Runner) -> None:
    done = ranklens("mde", "--queries", "200")
    assert done.code == 2
    assert done.err.count("\n") == 1 and "--sd" in done.err


def test_qrels_without_runs_is_usage_error(ranklens: Runner, demo_paths: dict[str, Path]) -> None:
    done = ranklens("mde", "--sd", "0.1", "--qrels", demo_paths["qrels"])
    assert done.code == 2 and "--qrels goes with --runs" in done.err
