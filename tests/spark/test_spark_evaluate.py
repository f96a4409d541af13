"""The Spark engine's per-query values equal the local engine's, query by query (1e-12)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ranklens import demo, io
from ranklens import spark as rs
from ranklens.data import Qrels, Run
from ranklens.metrics import Evaluation, evaluate
from tests.support.spark_cases import METRICS, hostile_case, write_trec_qrels, write_trec_run

# one Spark session per test run: every Spark test on the same xdist worker; a generous
# timeout, since the first job pays the JVM and worker start-up on a possibly busy machine
pytestmark = [pytest.mark.xdist_group("spark"), pytest.mark.timeout(1800)]


def local_tables(run_rows, qrels_rows) -> tuple[Run, Qrels]:
    run = Run.from_columns(*zip(*run_rows, strict=True))
    q, d, g = zip(*qrels_rows, strict=True)
    return run, Qrels.from_columns(q, d, np.asarray(g, dtype=np.int64))


def assert_same(spark_eval: Evaluation, local: Evaluation) -> None:
    assert list(spark_eval.results) == list(local.results)
    for name, expected in local.results.items():
        got = spark_eval.results[name].per_query
        assert got.keys() == expected.per_query.keys(), name
        worst = max((abs(got[q] - v) for q, v in expected.per_query.items()), default=0.0)
        assert worst <= 1e-12, (name, worst)
    assert sorted(spark_eval.ignored) == sorted(local.ignored)
    assert sorted(spark_eval.missing) == sorted(local.missing)


@pytest.mark.parametrize(("missing", "judged_only"), [("drop", False), ("zero", True)])
def test_hostile_data_equals_local_engine(spark, tmp_path: Path, missing: str,
                                          judged_only: bool) -> None:
    run_rows, qrels_rows = hostile_case(seed=7)
    run = rs.read_run(spark, write_trec_run(tmp_path / "run.trec", run_rows))
    qrels = rs.read_qrels(spark, write_trec_qrels(tmp_path / "qrels.trec", qrels_rows))
    # chunk_rows=5: nearly every query is cut by a chunk boundary and carried over
    evaluation = rs.evaluate(run, qrels, METRICS, missing=missing, judged_only=judged_only,
                             chunk_rows=5).collect()
    local = evaluate(*local_tables(run_rows, qrels_rows), METRICS, missing=missing,
                     judged_only=judged_only)
    assert_same(evaluation, local)
    assert local.n_ignored and local.n_missing  # the case has queries on one side only
    assert "007" in evaluation.results["AP"].per_query or "007" in evaluation.ignored or \
        "007" in evaluation.missing


def test_counts_and_frame(spark, tmp_path: Path) -> None:
    run_rows, qrels_rows = hostile_case(seed=3, n_cases=30)
    run = rs.read_run(spark, write_trec_run(tmp_path / "run.trec", run_rows))
    qrels = rs.read_qrels(spark, write_trec_qrels(tmp_path / "qrels.trec", qrels_rows))
    evaluation = rs.evaluate(run, qrels, ["ndcg_cut_10", "map"], missing="zero")
    local = evaluate(*local_tables(run_rows, qrels_rows), ["ndcg_cut_10", "map"],
                     missing="zero")
    counts = evaluation.counts()
    assert (counts.scored, counts.ignored, counts.missing) == (
        len(local["AP"].per_query) - local.n_missing, local.n_ignored, local.n_missing)
    assert evaluation.frame.columns == ["query_id", "nDCG@10", "AP"]
    table = evaluation.frame.toArrow()
    got = dict(zip(table.column("query_id").to_pylist(), table.column("AP").to_pylist(),
                   strict=True))
    assert got == pytest.approx(dict(local["AP"].per_query), abs=1e-12)


def test_demo_data_equals_local_engine(spark) -> None:
    paths = demo.paths()
    run = rs.read_run(spark, paths["run_b"])
    qrels = rs.read_qrels(spark, paths["qrels"])
    evaluation = rs.evaluate(run, qrels, METRICS).collect()
    local = evaluate(io.read_run(paths["run_b"]).run, io.read_qrels(paths["qrels"]).qrels,
                     METRICS)
    assert_same(evaluation, local)
    assert len(evaluation.results["nDCG@10"].per_query) == 400


def test_50k_rows_from_parquet_parts(spark, tmp_path: Path) -> None:
    rng = np.random.default_rng(50_000)
    n_queries, depth = 500, 100
    queries = np.repeat([f"q{i:04d}" for i in range(n_queries)], depth)
    docs = np.array([f"d{i}" for i in rng.integers(0, 10**6, size=n_queries * depth)])
    docs = np.char.add(docs, np.char.add("-", np.tile(np.arange(depth).astype(str), n_queries)))
    scores = np.round(rng.normal(size=n_queries * depth), 1)  # rounded: ties everywhere
    judged = rng.random(n_queries * depth) < 0.3
    grades = rng.integers(-1, 4, size=int(judged.sum()))
    folder = tmp_path / "run"
    folder.mkdir()
    order = rng.permutation(len(queries))  # rows in no particular order across 3 files
    for part, rows in enumerate(np.array_split(order, 3)):
        pq.write_table(pa.table({"qid": queries[rows], "docno": docs[rows],
                                 "score": scores[rows]}), folder / f"part-{part}.parquet")
    pq.write_table(pa.table({"query_id": queries[judged], "doc_id": docs[judged],
                             "relevance": grades}), tmp_path / "qrels.parquet")
    metrics = ["nDCG@10", "AP", "P@20", "R-Prec", "RR"]
    evaluation = rs.evaluate(rs.read_run(spark, str(folder / "*.parquet")),
                             rs.read_qrels(spark, tmp_path / "qrels.parquet"), metrics,
                             chunk_rows=4096).collect()
    local = evaluate(Run.from_columns(queries, docs, scores),
                     Qrels.from_columns(queries[judged], docs[judged], grades), metrics)
    assert_same(evaluation, local)
    assert len(evaluation.results["AP"].per_query) == n_queries
