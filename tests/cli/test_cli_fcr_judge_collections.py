"""Issue 32 in the CLI: FCR segment intervals, the judge check and several collections, each
against the library function that computes it, on the demo."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ranklens import demo
from ranklens.compare.report import Report
from ranklens.io import read_qrels, read_segments
from ranklens.stats import (
    MIN_GOLD,
    fcr_adjust,
    fcr_level,
    macro_compare,
    weighted_kappa,
)
from ranklens.stats.pairing import pair
from tests.support.cli_helpers import Runner

FAST = ["--n-resamples", "2000", "--n-permutations", "2000"]


def _segment_map(path: Path, column: str) -> dict[str, str]:
    return dict(read_segments(path.read_bytes(), name=path.name, column=column)
                .segments.mapping)


@pytest.fixture(scope="module")
def compare_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """``ranklens compare`` of the demo by intent, its collections the length column."""
    from ranklens.cli import main

    paths = demo.paths()
    out = tmp_path_factory.mktemp("i32") / "report.json"
    code = main(["compare", str(paths["run_a"]), str(paths["run_b"]), "--qrels",
                 str(paths["qrels"]), "--segments", f"{paths['segments']}:intent",
                 "--collection", f"{paths['segments']}:length", *FAST, "-f", "json", "-o",
                 str(out)])
    assert code == 0
    data: dict[str, object] = json.loads(out.read_text())
    return data


def test_segments_carry_both_intervals_each_with_its_level(compare_json: dict) -> None:
    comparison = compare_json["comparisons"][0]
    fcr = comparison["fcr"]
    results = [row["result"] for row in comparison["segments"]]
    selected = sum(r["q_value"] <= 0.05 for r in results)
    assert fcr["n_selected"] == selected and fcr["n_comparisons"] == len(results) == 6
    assert fcr["level"] == pytest.approx(fcr_level(selected, 6, 0.05))
    assert fcr["level"] == pytest.approx(1 - max(selected, 1) * 0.05 / 6)
    for row in comparison["segments"]:
        result, adjusted = row["result"], row["fcr"]
        assert set(adjusted) == {"low", "high", "level", "method"}
        assert adjusted["level"] == fcr["level"] and result["alpha"] == 0.05  # marginal: 95%
        assert adjusted["method"] == result["interval"]
        assert adjusted["low"] <= result["ci_low"] and adjusted["high"] >= result["ci_high"]
    assert "fcr" not in comparison["overall"]  # the overall row is no family member


def test_fcr_intervals_are_fcr_adjust_on_the_segments_deltas(compare_json: dict) -> None:
    report = Report.from_dict(compare_json)
    comparison = report.comparisons[0]
    segments = _segment_map(demo.paths()["segments"], "intent")
    values = report.per_query["nDCG@10"]
    paired = pair(values["a"], values["b"], missing="drop", min_queries=0)
    names = np.array([segments.get(q, "(no segment)") for q in paired.queries.tolist()])
    rows = [row for row in comparison.segments if row.result is not None]
    deltas = [paired.deltas[names == row.segment] for row in rows]
    direct = fcr_adjust([row.result for row in rows if row.result is not None], deltas=deltas)
    for row, expected in zip(rows, direct.intervals, strict=True):
        assert row.fcr is not None
        assert (row.fcr.low, row.fcr.high, row.fcr.level) == (expected.low, expected.high,
                                                              expected.level)


def test_macro_key_is_macro_compare_on_the_collections(compare_json: dict) -> None:
    (section,) = compare_json["macro"]
    assert section["column"] == "length" and section["metric"] == "nDCG@10"
    report = Report.from_dict(compare_json)
    collections = _segment_map(demo.paths()["segments"], "length")
    values = report.per_query["nDCG@10"]
    paired = pair(values["a"], values["b"], missing="drop", min_queries=0)
    by: dict[str, list[float]] = {}
    for query, delta in zip(paired.queries.tolist(), paired.deltas.tolist(), strict=True):
        by.setdefault(collections[query], []).append(delta)
    direct = macro_compare(by, alpha=0.05, n_resamples=2000, n_permutations=2000, seed=0)
    macro = section["macro"]
    assert macro["estimate"] == direct.estimate
    assert (macro["interval"]["low"], macro["interval"]["high"]) == (direct.interval.low,
                                                                     direct.interval.high)
    assert macro["p_value"] == direct.p_value and macro["pooled"] == direct.pooled
    assert [c["name"] for c in macro["per_collection"]] == sorted(by)
    # q-values across the collections, in the per-collection comparison
    rows = section["collections"]["segments"]
    assert len(rows) == 3 and all(r["result"]["q_value"] is not None for r in rows)


def test_every_export_has_the_beir_table_macro_last(ranklens: Runner) -> None:
    paths = demo.paths()
    base = ["compare", paths["run_a"], paths["run_b"], "--qrels", paths["qrels"],
            "--collection", f"{paths['segments']}:length", *FAST]
    text = ranklens(*base).out
    lines = text.splitlines()
    start = lines.index("Several collections: the macro average")
    assert start < next(i for i, line in enumerate(lines) if line.startswith("All queries"))
    table = [line for line in lines[start:] if line.startswith(("head", "tail", "torso",
                                                                 "Macro average  "))]
    assert [line.split("  ")[0] for line in table][:4] == [
        "head (1 term)", "tail (4+ terms)", "torso (2-3 terms)", "Macro average"]
    markdown = ranklens(*base, "-f", "markdown").out
    assert "## Several collections: the macro average" in markdown
    assert "| Macro average | 400 |" in markdown
    csv_text = ranklens(*base, "-f", "csv").out
    second = csv_text.split("\n\n", 1)[1]
    rows = list(csv.DictReader(io.StringIO(second)))
    assert [r["collection"] for r in rows] == ["head (1 term)", "tail (4+ terms)",
                                               "torso (2-3 terms)", "Macro average"]
    assert rows[-1]["macro"] == "True"
    report = Report.from_json(ranklens(*base, "-f", "json").out)
    latex = report.to_latex()
    assert latex.count(r"\begin{table}") == 2  # the report's table, then the BEIR-style one
    beir = latex.split(r"\begin{table}")[2]
    assert beir.index("torso") < beir.rindex(r"\midrule") < beir.index("Macro average")


def test_collection_column_must_be_named_when_the_file_has_several(ranklens: Runner) -> None:
    paths = demo.paths()
    done = ranklens("compare", paths["run_a"], paths["run_b"], "--qrels", paths["qrels"],
                    "--collection", paths["segments"], *FAST)
    assert done.code != 0 and "--collection" in done.err and "intent" in done.err


def test_ppi_json_has_the_judge_key_with_kappas_against_a_direct_computation(
        ranklens: Runner) -> None:
    paths = demo.paths()
    done = ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["qrels_proxy"], "--gold-qrels", paths["qrels_gold"], "--segments",
                    f"{paths['segments']}:length", "-f", "json")
    assert done.code == 0, done.err
    judge = json.loads(done.out)["judge"]
    agreement = judge["agreement"]
    assert set(agreement) >= {"confusion", "kappa_linear", "kappa_quadratic", "bias_by_grade"}
    gold = read_qrels(paths["qrels_gold"].read_bytes(), name="gold").qrels.to_frame()
    proxy = read_qrels(paths["qrels_proxy"].read_bytes(), name="proxy").qrels.to_frame()
    both = gold.merge(proxy, on=["query_id", "doc_id"], suffixes=("_gold", "_proxy"))
    for weights in ("linear", "quadratic"):
        direct = weighted_kappa(both["relevance_gold"], both["relevance_proxy"],
                                weights=weights)
        assert agreement[f"kappa_{weights}"]["estimate"] == pytest.approx(direct, abs=1e-12)
        interval = agreement[f"kappa_{weights}"]["interval"]
        assert interval["low"] < direct < interval["high"] and interval["level"] == 0.95
    counts = np.array(agreement["confusion"]["counts"])
    assert counts.sum() == len(both) == judge["n_documents"]
    assert judge["min_gold"] == MIN_GOLD == 30
    for row in judge["segments"]:  # the demo's 60 gold queries: every length segment < 30
        assert row["n_gold"] < MIN_GOLD and row["ppi"] is None
        assert f"{MIN_GOLD} needed ({MIN_GOLD - row['n_gold']} more)" in row["note"]
        assert row["bias"]["interval"]["low"] < row["bias"]["estimate"]
    text = ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["qrels_proxy"], "--gold-qrels", paths["qrels_gold"], "--segments",
                    f"{paths['segments']}:length").out
    assert "The judge, checked on the gold queries" in text
    assert "PPI++ not computed: 10 gold queries, 30 needed (20 more)" in text


def test_ppi_per_segment_from_min_gold_is_ppi_compare_on_the_segment(
        ranklens: Runner, tmp_path: Path) -> None:
    from ranklens.compare.analysis import demo_files
    from ranklens.ppi.analysis import analyse_ppi
    from ranklens.stats import ppi_compare

    paths = demo.paths()
    queries = sorted(pd.read_csv(paths["segments"], sep="\t")["query_id"])
    halves = tmp_path / "halves.tsv"
    halves.write_text("query_id\thalf\n" + "".join(
        f"{q}\t{'first' if i < 200 else 'second'}\n" for i, q in enumerate(queries)))
    done = ranklens("ppi", paths["run_a"], paths["run_b"], "--proxy-qrels",
                    paths["qrels_proxy"], "--gold-qrels", paths["qrels_gold"], "--segments",
                    halves, "-f", "json")
    assert done.code == 0, done.err
    rows = {r["segment"]: r for r in json.loads(done.out)["judge"]["segments"]}
    files = demo_files()
    analysis = analyse_ppi(files["run_a"], files["run_b"], files["qrels_proxy"],
                           files["qrels_gold"], "nDCG@10")
    assert sum(r["n_gold"] for r in rows.values()) == analysis.estimate("ppi++").result.n_gold
    from ranklens.metrics import evaluate

    first = [q for i, q in enumerate(queries) if i < 200]
    for row in rows.values():
        if row["n_gold"] >= MIN_GOLD:
            assert row["ppi"] is not None and row["note"] == ""
        else:
            assert row["ppi"] is None and "needed" in row["note"]
    computed = [r for r in rows.values() if r["ppi"] is not None]
    assert computed, "one half of the demo's 60 gold queries has at least 30"
    from ranklens import io as rio

    run_a, _ = rio.read_run(paths["run_a"].read_bytes(), name="a")
    run_b, _ = rio.read_run(paths["run_b"].read_bytes(), name="b")
    proxy = rio.read_qrels(paths["qrels_proxy"].read_bytes(), name="p").qrels
    gold = rio.read_qrels(paths["qrels_gold"].read_bytes(), name="g").qrels
    scored = [evaluate(run, qrels, ["nDCG@10"])["nDCG@10"]
              for qrels in (proxy, gold) for run in (run_a, run_b)]
    for row in computed:
        keep = set(first) if row["segment"] == "first" else set(queries) - set(first)
        parts = [r.restrict(np.isin(r.query_ids, sorted(keep))) for r in scored]
        direct = ppi_compare(*parts)
        assert row["ppi"]["delta"] == pytest.approx(direct.delta, abs=1e-12)
        assert row["ppi"]["ci_low"] == pytest.approx(direct.ci_low, abs=1e-12)
