"""PPI++ with an LLM judge's fractional proxy grades: read by the rule of every other page."""

from __future__ import annotations

import dataclasses

import pytest

from ranklens import io
from ranklens.compare.analysis import demo_files
from ranklens.metrics import evaluate
from ranklens.ppi.analysis import analyse_ppi, compare_ppi


def test_fractional_proxy_grades_are_scored_as_gains() -> None:
    files = demo_files()
    lines = []
    for line in files["qrels_proxy"].data.decode().splitlines():
        q, it, doc, grade = line.split()
        lines.append(f"{q} {it} {doc} {int(grade) * 0.8 + 0.1:g}")  # 0 -> 0.1, 2 -> 1.7
    proxy = dataclasses.replace(files["qrels_proxy"], data="\n".join(lines).encode() + b"\n")
    got = analyse_ppi(files["run_a"], files["run_b"], proxy, files["qrels_gold"], "nDCG@10")
    runs = [io.read_run(files[r].data, name=files[r].name, keep_ranks=True).run
            for r in ("run_a", "run_b")]
    proxy_qrels = io.read_qrels(proxy.data, name=proxy.name).qrels
    gold_qrels = io.read_qrels(files["qrels_gold"].data, name=files["qrels_gold"].name).qrels
    assert proxy_qrels.fractional and not gold_qrels.fractional
    scored = [evaluate(run, qrels, ["nDCG@10"])["nDCG@10"]
              for qrels in (proxy_qrels, gold_qrels) for run in runs]
    expected = compare_ppi(*scored, run_names=got.run_names)
    for key in ("ppi++", "proxy", "gold"):
        assert got.estimate(key).result.delta == pytest.approx(
            expected.estimate(key).result.delta, abs=1e-12)
    whole = analyse_ppi(files["run_a"], files["run_b"], files["qrels_proxy"],
                        files["qrels_gold"], "nDCG@10")
    assert got.estimate("proxy").result.delta != pytest.approx(
        whole.estimate("proxy").result.delta, abs=1e-6)
