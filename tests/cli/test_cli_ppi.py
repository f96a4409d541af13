"""`ranklens ppi`: PPI++ beside gold only, classic PPI and the uncorrected proxy."""

from __future__ import annotations

import json
from pathlib import Path

from ranklens.compare.analysis import demo_files, load_inputs
from ranklens.stats import ppi_compare
from tests.support.cli_helpers import Runner


def _scored(demo_paths: dict[str, Path]) -> list[object]:
    files = demo_files()
    out = []
    for role in ("qrels_proxy", "qrels_gold"):
        inputs = load_inputs(files["run_a"], files["run_b"], qrels=files[role])
        eval_a, eval_b = inputs.evaluations(("nDCG@10",))
        out += [eval_a["nDCG@10"], eval_b["nDCG@10"]]
    return out


def test_ppi_numbers_are_ppi_compare(ranklens: Runner, demo_paths: dict[str, Path]) -> None:
    done = ranklens("ppi", demo_paths["run_a"], demo_paths["run_b"], "--proxy-qrels",
                    demo_paths["qrels_proxy"], "--gold-qrels", demo_paths["qrels_gold"],
                    "--metric", "ndcg@10", "-f", "json")
    assert done.code == 0, done.err
    analysis = json.loads(done.out)["analysis"]  # the page's shape (ranklens.ppi.payload)
    estimates = {item["key"]: item["result"] for item in analysis["estimates"]}
    proxy_a, proxy_b, gold_a, gold_b = _scored(demo_paths)
    for key, lam in (("ppi++", None), ("ppi", 1.0), ("gold", 0.0)):
        expected = ppi_compare(proxy_a, proxy_b, gold_a, gold_b, lam=lam)  # type: ignore[arg-type]
        assert estimates[key]["delta"] == expected.delta
        assert estimates[key]["ci_low"] == expected.ci_low
        assert estimates[key]["lam"] == expected.lam
    assert estimates["gold"]["n_gold"] == 60
    assert estimates["proxy"]["n_gold"] == 0 and estimates["proxy"]["n_proxy"] == 400


def test_ppi_text(ranklens: Runner, demo_paths: dict[str, Path]) -> None:
    done = ranklens("ppi", demo_paths["run_a"], demo_paths["run_b"], "--proxy-qrels",
                    demo_paths["qrels_proxy"], "--gold-qrels", demo_paths["qrels_gold"])
    assert done.code == 0, done.err
    rows = {line.split("  ")[0]: line for line in done.out.splitlines()}
    # the page's labels, each row with how its interval is computed
    # finite-sample PPI on the demo's 60 gold queries: t with 58 df for PPI++ (a fitted weight),
    # 59 for the fixed weights; the uncorrected proxy is a paired t-interval
    for label, method in (("PPI++ (λ estimated)", "t, 58 df"), ("classic PPI (λ = 1)", "t, 59 df"),
                          ("gold only (λ = 0)", "t, 59 df"), ("proxy, uncorrected", "paired t")):
        assert f"  {method}  " in rows[label], rows
    assert "normal approximations" not in done.out.split("Intervals:")[0]
    # the demo's bias interval (-0.0007 to +0.0232) holds 0: no direction is claimed
    assert "No bias of the proxy" in done.out and "biased upward" not in done.out
    assert "Uncorrected, the proxy says" in done.out
    assert done.out.index("Assumption:") > done.out.index("Uncorrected, the proxy says")
    assert "Warnings:" not in done.out  # the demo has none; the assumption is not a warning
