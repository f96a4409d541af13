"""compare() on Spark builds the Report the local pipeline builds, number for number."""

from __future__ import annotations

import json
import warnings

import pytest

from ranklens import demo
from ranklens import spark as rs
from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.io import InputFile

# one Spark session per test run: every Spark test on the same xdist worker; a generous
# timeout, since the first job pays the JVM and worker start-up on a possibly busy machine
pytestmark = [pytest.mark.xdist_group("spark"), pytest.mark.timeout(1800)]


def test_report_equals_the_local_report(spark) -> None:
    paths = demo.paths()
    options = dict(metrics=("ndcg@10", "map", "P@5"), segment_column="intent",
                   n_resamples=2000, n_permutations=2000, seed=11)
    report = rs.compare(spark, paths["run_a"], paths["run_b"], paths["qrels"],
                        CompareSettings(**options), segments=paths["segments"])
    inputs = load_inputs(*(InputFile.from_path(role, paths[role]) for role in
                           ("run_a", "run_b")),
                         qrels=InputFile.from_path("qrels", paths["qrels"]),
                         segments=InputFile.from_path("segments", paths["segments"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = inputs.report(CompareSettings(**options))
    ours, theirs = (json.loads(r.to_json()) for r in (report, local))
    for section in ("schema", "kind", "version", "run_names", "params", "comparisons",
                    "per_query", "warnings"):
        assert ours[section] == theirs[section], section
    assert ours["comparisons"][0]["overall"]["delta"] != 0
    # inputs: same records and keys; runs are described by path and file listing on Spark
    assert [r["role"] for r in ours["inputs"]] == [r["role"] for r in theirs["inputs"]]
    for mine, local_record in zip(ours["inputs"], theirs["inputs"], strict=True):
        assert mine.keys() == local_record.keys()
        assert mine["summary"].keys() == local_record["summary"].keys()
        assert mine["summary"]["rows"] == local_record["summary"]["rows"]
        assert mine["summary"]["queries"] == local_record["summary"]["queries"]
    assert ours["inputs"][3] == theirs["inputs"][3]  # the segment file is read on the driver


def test_one_sided_queries_and_missing_zero_match_local(spark, tmp_path) -> None:
    from tests.support.spark_cases import hostile_case, write_trec_qrels, write_trec_run

    run_a, qrels = hostile_case(seed=21)
    run_b, _ = hostile_case(seed=22)
    qrels_rows = [row for row in qrels if row[0] != "007"] + [("007", "7", 1.0)]
    files = {"run_a": write_trec_run(tmp_path / "a.trec", run_a),
             "run_b": write_trec_run(tmp_path / "b.trec", run_b),
             "qrels": write_trec_qrels(tmp_path / "q.trec", qrels_rows)}
    options = dict(metrics=("RR", "nDCG@5"), missing="zero", n_resamples=500,
                   n_permutations=500, min_queries=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = rs.compare(spark, files["run_a"], files["run_b"], files["qrels"],
                            CompareSettings(**options), chunk_rows=3)
        local = load_inputs(InputFile.from_path("run_a", files["run_a"]),
                            InputFile.from_path("run_b", files["run_b"]),
                            qrels=InputFile.from_path("qrels", files["qrels"])
                            ).report(CompareSettings(**options))
    ours, theirs = report.to_dict(), local.to_dict()
    for section in ("params", "comparisons", "per_query", "warnings"):
        assert ours[section] == theirs[section], section
    assert any("not in the run: scored 0" in w for w in ours["warnings"])
