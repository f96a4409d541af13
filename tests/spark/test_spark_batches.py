"""The Arrow-batch scorer on its own (no Spark job): chunking, carry-over, tagged problems."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from ranklens.data import Qrels, Run
from ranklens.metrics import evaluate
from ranklens.metrics.evaluate import metric_specs
from ranklens.spark.batches import ScoringPlan, problem_of, score_batches
from tests.support.spark_cases import METRICS, hostile_case

# one Spark session per test run: every Spark test on the same xdist worker; a generous
# timeout, since the first job pays the JVM and worker start-up on a possibly busy machine
pytestmark = [pytest.mark.xdist_group("spark"), pytest.mark.timeout(1800)]


def batches(run_rows, qrels_rows, size: int) -> list[pa.RecordBatch]:
    """Rows grouped by query (qrels and run interleaved), cut into batches of ``size``."""
    rows = [(q, d, g, 0) for q, d, g in qrels_rows] + [(q, d, s, 1) for q, d, s in run_rows]
    rows.sort(key=lambda row: row[0])
    table = pa.table({"query_id": [r[0] for r in rows], "doc_id": [r[1] for r in rows],
                      "value": [r[2] for r in rows],
                      "side": pa.array([r[3] for r in rows], pa.int32())})
    return table.to_batches(max_chunksize=size)


@pytest.mark.parametrize(("chunk_rows", "batch_size", "judged_only"),
                         [(1, 1, False), (4, 3, True), (50, 7, False), (10**6, 64, True)])
def test_any_chunking_gives_the_local_values(chunk_rows: int, batch_size: int,
                                             judged_only: bool) -> None:
    run_rows, qrels_rows = hostile_case(seed=chunk_rows, n_cases=40)
    plan = ScoringPlan(tuple(metric_specs(METRICS)), ("qrels", "run"), "zero", chunk_rows,
                       judged_only)
    out = pa.Table.from_batches(
        list(score_batches(iter(batches(run_rows, qrels_rows, batch_size)), plan)),
        schema=plan.output_schema())
    q, d, g = zip(*qrels_rows, strict=True)
    local = evaluate(Run.from_columns(*zip(*run_rows, strict=True)),
                     Qrels.from_columns(q, d, np.asarray(g, dtype=np.int64)), METRICS,
                     missing="zero", judged_only=judged_only)
    assert len(set(out.column("query_id").to_pylist())) == out.num_rows  # one row per query
    for name, result in local.results.items():
        got = {row["query_id"]: row[name] for row in out.to_pylist() if row[name] is not None}
        assert got.keys() == result.per_query.keys()
        assert max(abs(got[k] - v) for k, v in result.per_query.items()) <= 1e-12
    statuses = dict(zip(out.column("query_id").to_pylist(), out.column("status").to_pylist(),
                        strict=True))
    assert sorted(k for k, s in statuses.items() if s == "ignored") == sorted(local.ignored)
    assert sorted(k for k, s in statuses.items() if s == "missing") == sorted(local.missing)


def test_a_query_longer_than_a_chunk_is_scored_whole() -> None:
    run_rows = [("q", f"d{i}", float(i % 3), ) for i in range(100)]
    qrels_rows = [("q", "d2", 1.0), ("q", "d5", 2.0), ("r", "d1", 1.0)]
    plan = ScoringPlan(tuple(metric_specs(["AP", "nDCG@10"])), ("qrels", "run"), "drop", 8)
    out = pa.Table.from_batches(list(score_batches(iter(batches(run_rows, qrels_rows, 8)),
                                                   plan))).to_pylist()
    local = evaluate(Run.from_columns(*zip(*run_rows, strict=True)),
                     Qrels.from_columns(*zip(*qrels_rows, strict=True)), ["AP", "nDCG@10"])
    scored = {row["query_id"]: row for row in out}
    assert scored["q"]["rows"] == 100 and scored["q"]["judged"] == 2
    assert scored["q"]["AP"] == local["AP"].per_query["q"]
    assert scored["r"]["status"] == "missing" and scored["r"]["AP"] is None


def test_problems_carry_a_tag_the_driver_reads() -> None:
    plan = ScoringPlan(tuple(metric_specs(["AP"])), ("qrels.txt", "runs/a"), "drop")
    duplicate = batches([("q", "a", 1.0), ("q", "a", 2.0)], [("q", "a", 1.0)], 10)
    with pytest.raises(ValueError, match="runs/a: query 'q' lists document 'a'") as raised:
        list(score_batches(iter(duplicate), plan))
    assert problem_of(raised.value) == {
        "side": 1, "kind": "duplicate", "query": "q", "doc": "a", "what": "document",
        "value": None, "source": "runs/a"}
    infinite = batches([("q", "a", float("inf"))], [("q", "a", 1.0)], 10)
    with pytest.raises(ValueError, match="score inf is not a finite number") as raised:
        list(score_batches(iter(infinite), plan))
    assert problem_of(raised.value)["kind"] == "not_finite"
    assert problem_of(RuntimeError("unrelated")) is None
