"""A plan drawn with gold judgements already on hand (``plan-labels --gold-qrels PRIOR``
without --design: their documents are not asked again) read back by ``ppi --design`` with the
prior judgements and the new labels in one file (issue 47); a gold file without the prior
judgements, or with others, is refused in words."""

from __future__ import annotations

import io as text_io

import numpy as np
import pandas as pd
import pytest

from ranklens import io
from ranklens.metrics import evaluate
from ranklens.ppi.labelling import plan_labels
from ranklens.stats.active_ppi import design_estimate
from tests.cli.test_cli_plan_labels import _labelled, _world
from tests.support.cli_helpers import Runner


def _lines(path):
    return path.read_text(encoding="utf-8").splitlines()


def _planned_with_prior(ranklens: Runner, tmp_path):
    """The world's runs, a prior gold file (the true grades of documents 0-4 of the first 40
    queries: in both top 10s), the plan drawn with it, and the plan's new labels."""
    paths = _world(tmp_path)
    prior = [line for line in _lines(paths["truth"])
             if int(line.split()[0][1:]) < 40 and int(line.split()[2].split("_d")[1]) < 5]
    paths["prior"] = tmp_path / "prior.trec"
    paths["prior"].write_text("\n".join(prior) + "\n", encoding="utf-8")
    paths["plan"], paths["new"] = tmp_path / "plan.csv", tmp_path / "new.trec"
    done = ranklens("plan-labels", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["proxy"], "--gold-qrels", paths["prior"], "--budget-queries", 12,
                    "--seed", 5, "-o", paths["plan"])
    assert done.code == 0, done.err
    plan, _ = _labelled(paths["plan"], paths["truth"], paths["new"])
    judged = {tuple(line.split()[0:3:2]) for line in prior}
    asked = set(zip(plan["query_id"], plan["doc_id"], strict=True))
    assert not judged & asked  # the prior documents are not asked again
    assert {q for q, _ in judged} & set(plan["query_id"])  # and some drawn query had some
    return paths, plan


def _ppi(ranklens: Runner, paths, gold_path):
    return ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"],
                    "--gold-qrels", gold_path, "--design", paths["plan"], "--format", "json")


def test_a_plan_drawn_with_prior_gold_reads_back_with_prior_and_new_labels(ranklens: Runner,
                                                                           tmp_path):
    paths, plan = _planned_with_prior(ranklens, tmp_path)
    gold_path = tmp_path / "gold.trec"
    gold_path.write_text("\n".join(_lines(paths["prior"]) + _lines(paths["new"])) + "\n",
                         encoding="utf-8")
    done = _ppi(ranklens, paths, gold_path)
    assert done.code == 0, done.err
    got = pd.read_json(text_io.StringIO(done.out), typ="series")
    # the same number from the plan drawn again in Python with the prior gold: each query's
    # proxy B - A, its gold B - A under prior + new labels where drawn, weighted by 1 / pi
    run_a, run_b = (io.read_run(paths[n])[0] for n in ("run_a", "run_b"))
    prior, gold = io.read_qrels(paths["prior"])[0], io.read_qrels(gold_path)[0]
    again = plan_labels(run_a, run_b, io.read_qrels(paths["proxy"])[0], budget_queries=12,
                        seed=5, gold=prior).queries
    assert set(again.loc[again["drawn"], "query_id"]) == set(plan["query_id"])
    scores = {side: evaluate(run, gold, ["nDCG@10"], missing="zero")["nDCG@10"].per_query
              for side, run in (("a", run_a), ("b", run_b))}
    gold_delta = np.array([scores["b"].get(q, 0.0) - scores["a"].get(q, 0.0) if d else np.nan
                           for q, d in zip(again["query_id"], again["drawn"], strict=True)])
    expected = design_estimate(again["proxy_delta"].to_numpy(), gold_delta,
                               again["drawn"].to_numpy(), again["probability"].to_numpy())
    assert got["n_drawn"] == plan["query_id"].nunique()
    assert got["estimate"] == pytest.approx(expected.estimate, abs=1e-12)
    assert got["ci_high"] == pytest.approx(expected.ci_high, abs=1e-12)


def test_a_gold_file_without_the_prior_judgements_or_with_others_is_refused(ranklens: Runner,
                                                                          tmp_path):
    paths, _plan = _planned_with_prior(ranklens, tmp_path)
    done = _ppi(ranklens, paths, paths["new"])  # the new labels only
    assert done.code == 2 and "Traceback" not in done.err
    assert "judged before the plan was drawn" in done.err, done.err
    assert "judges 0 the plan did not ask for" in done.err and "in one file" in done.err
    other = [line for line in _lines(paths["truth"]) if line.startswith("q79 ")][:1]
    gold_path = tmp_path / "gold.trec"
    gold_path.write_text("\n".join(_lines(paths["prior"]) + _lines(paths["new"]) + other)
                         + "\n", encoding="utf-8")
    done = _ppi(ranklens, paths, gold_path)  # one judgement neither prior nor asked for
    assert done.code == 2 and "judged before the plan was drawn" in done.err, done.err


def test_round_two_of_a_plan_drawn_with_prior_gold_asks_none_of_it_and_reads_back(
        ranklens: Runner, tmp_path):
    paths = _world(tmp_path)
    prior = [line for line in _lines(paths["truth"])
             if int(line.split()[0][1:]) < 40 and int(line.split()[2].split("_d")[1]) < 5]
    paths["prior"] = tmp_path / "prior.trec"
    paths["prior"].write_text("\n".join(prior) + "\n", encoding="utf-8")
    paths["plan"], gold = tmp_path / "plan.csv", tmp_path / "gold.trec"
    common = (paths["run_a"], paths["run_b"], "--proxy-qrels", paths["proxy"])
    done = ranklens("plan-labels", *common, "--gold-qrels", paths["prior"], "--budget-queries",
                    6, "--max-rounds", 2, "-o", paths["plan"])
    assert done.code == 0, done.err
    _labelled(paths["plan"], paths["truth"], tmp_path / "round1.trec")
    gold.write_text("\n".join(prior + _lines(tmp_path / "round1.trec")) + "\n",
                    encoding="utf-8")
    done = ranklens("plan-labels", *common, "--gold-qrels", gold, "--design", paths["plan"],
                    "--budget-queries", 6, "--seed", 1, "-o", paths["plan"])
    assert done.code == 0, done.err
    plan, _ = _labelled(paths["plan"], paths["truth"], tmp_path / "both.trec")
    assert set(plan["round"]) == {1, 2} and plan["prior_gold"].nunique() == 1
    judged = {tuple(line.split()[0:3:2]) for line in prior}
    assert not judged & set(zip(plan["query_id"], plan["doc_id"], strict=True))
    gold.write_text("\n".join(prior + _lines(tmp_path / "both.trec")) + "\n", encoding="utf-8")
    done = _ppi(ranklens, paths, gold)
    assert done.code == 0, done.err
    got = pd.read_json(text_io.StringIO(done.out), typ="series")
    assert got["round"] == 2 and got["n_drawn"] == plan["query_id"].nunique()
