"""`ranklens evaluate` prints what trec_eval (pytrec_eval) computes."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import pytrec_eval

from tests.support.cli_helpers import Runner

TREC_NAMES = {"map": "map", "ndcg_cut_10": "ndcg_cut_10"}  # asked in trec_eval spelling


def _trec_file(path: Path, value_column: int) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        fields = line.split()
        if fields:
            cast = int if value_column == 3 else float
            table[fields[0]][fields[2]] = cast(fields[value_column])
    return dict(table)


@pytest.fixture(scope="module")
def reference(demo_paths: dict[str, Path]) -> dict[str, dict[str, float]]:
    qrels = _trec_file(demo_paths["qrels"], 3)
    run = _trec_file(demo_paths["run_a"], 4)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map"})
    return evaluator.evaluate(run)


def _parse(out: str) -> dict[tuple[str, str], str]:
    rows = {}
    for line in out.splitlines():
        metric, query, value = line.split("\t")
        rows[(metric.strip(), query)] = value
    return rows


def test_per_query_values_equal_pytrec_eval(ranklens: Runner, demo_paths: dict[str, Path],
                                            reference: dict[str, dict[str, float]]) -> None:
    done = ranklens("evaluate", demo_paths["run_a"], "--qrels", demo_paths["qrels"],
                    "-m", "ndcg_cut_10", "-m", "map", "--per-query", "--digits", "15")
    assert done.code == 0, done.err
    rows = _parse(done.out)
    for trec_name, name in TREC_NAMES.items():
        for query, measures in reference.items():
            assert float(rows[(name, query)]) == pytest.approx(measures[trec_name], abs=1e-12)
        mean = sum(m[trec_name] for m in reference.values()) / len(reference)
        assert float(rows[(name, "all")]) == pytest.approx(mean, abs=1e-12)


def test_default_output_is_trec_eval_like(ranklens: Runner, demo_paths: dict[str, Path],
                                         reference: dict[str, dict[str, float]]) -> None:
    done = ranklens("evaluate", demo_paths["run_a"], "--qrels", demo_paths["qrels"],
                    "-m", "ndcg_cut_10", "-m", "map")
    lines = done.out.splitlines()
    assert [line.split("\t")[1] for line in lines] == ["all", "all"]
    assert lines[0].split("\t")[0] == f"{'map':<22}"  # trec_eval's order, not -m's
    for line, trec_name in zip(lines, TREC_NAMES, strict=True):
        mean = sum(m[trec_name] for m in reference.values()) / len(reference)
        assert line.split("\t")[2] == f"{mean:.4f}"


def test_per_query_lines_group_by_query_then_all(ranklens: Runner,
                                                 demo_paths: dict[str, Path]) -> None:
    done = ranklens("evaluate", demo_paths["run_a"], "--qrels", demo_paths["qrels"],
                    "-m", "P@5", "-q")
    queries = [line.split("\t")[1] for line in done.out.splitlines()]
    assert queries[-1] == "all"
    assert queries[:-1] == sorted(queries[:-1]) and len(queries) == 401
