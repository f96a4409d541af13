"""``ranklens evaluate|compare --engine spark``, in this process (the session is shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ranklens import demo
from ranklens.cli import main
from tests.support.spark_cases import hostile_case, write_trec_qrels, write_trec_run

# one Spark session per test run: every Spark test on the same xdist worker; a generous
# timeout, since the first job pays the JVM and worker start-up on a possibly busy machine
pytestmark = [pytest.mark.xdist_group("spark"), pytest.mark.timeout(1800)]


def run_cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_evaluate_writes_per_query_parquet_that_compare_reads(
        spark, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = demo.paths()
    outputs = {}
    for role in ("run_a", "run_b"):
        outputs[role] = tmp_path / f"{role}.parquet"
        code, _, err = run_cli(capsys, "evaluate", paths[role], "--qrels", paths["qrels"],
                               "-m", "ndcg@10", "-m", "map", "--engine", "spark",
                               "--spark-master", "local[2]", "--output", outputs[role])
        assert code == 0, err
    table = pq.read_table(outputs["run_a"])
    # the columns come in the order of the lines: trec_eval's measures (map) first
    assert table.column_names == ["query_id", "AP", "nDCG@10"]
    assert table.num_rows == 400
    local_code, local_text, _ = run_cli(capsys, "evaluate", paths["run_a"], "--qrels",
                                        paths["qrels"], "-m", "ndcg@10", "-m", "map", "-q")
    assert local_code == 0
    expected = {tuple(line.split("\t")[:2]): float(line.split("\t")[2])
                for line in local_text.splitlines()}
    for row in table.to_pylist():
        assert row["nDCG@10"] == pytest.approx(expected[("nDCG@10".ljust(22), row["query_id"])],
                                               abs=5e-5)
    code, out, err = run_cli(capsys, "compare", outputs["run_a"], outputs["run_b"],
                             "-m", "nDCG@10", "-f", "json", "--n-resamples", "500",
                             "--n-permutations", "500")
    assert code == 0, err
    assert json.loads(out)["comparisons"][0]["metric"] == "nDCG@10"


def test_compare_engine_spark_prints_the_local_numbers(
        spark, capsys: pytest.CaptureFixture[str]) -> None:
    paths = demo.paths()
    common = [paths["run_a"], paths["run_b"], "--qrels", paths["qrels"], "-m", "ndcg@10",
              "--segments", f"{paths['segments']}:intent", "--n-resamples", "500",
              "--n-permutations", "500", "-f", "json"]
    code, out, err = run_cli(capsys, "compare", *common, "--engine", "spark")
    assert code == 0, err
    _, local_out, _ = run_cli(capsys, "compare", *common)
    ours, theirs = json.loads(out), json.loads(local_out)
    assert ours["comparisons"] == theirs["comparisons"]
    assert ours["per_query"] == theirs["per_query"]


def test_evaluate_trec_eval_form_prints_the_local_lines(
        spark, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_rows, qrels_rows = hostile_case(seed=5, n_cases=40)
    run = write_trec_run(tmp_path / "run.trec", run_rows)
    qrels = write_trec_qrels(tmp_path / "qrels.trec", qrels_rows)
    args = ["evaluate", "-q", "-c", "-l", "2", "-m", "nDCG@10", "-m", "P@5", "-m", "AP",
            qrels, run]
    code, out, err = run_cli(capsys, *args, "--engine", "spark")
    assert code == 0, err
    local_code, local_out, local_err = run_cli(capsys, *args)
    assert local_code == 0, local_err
    assert out == local_out
    assert "averaged in (-c)" in err


def test_evaluate_on_spark_prints_trec_eval_names_for_a_commented_tab_run(
        spark, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`-m map` prints `map` on Spark as locally (not `AP`), in trec_eval's order, and a TREC
    run whose first line is a `#` comment is read on Spark as the local reader reads it."""
    run_rows, qrels_rows = hostile_case(seed=7, n_cases=30)
    written = write_trec_run(tmp_path / "plain.trec", run_rows).read_text()
    run = tmp_path / "run.tsv"
    run.write_text("# run written by a test\n" + written.replace(" ", "\t"))
    qrels = write_trec_qrels(tmp_path / "qrels.trec", qrels_rows)
    args = ["evaluate", "-q", "-c", "-m", "ndcg_cut.10", "-m", "map", "-m", "P.5,10",
            "-m", "recip_rank", qrels, run]
    code, out, err = run_cli(capsys, *args, "--engine", "spark")
    assert code == 0, err
    local_code, local_out, local_err = run_cli(capsys, *args)
    assert local_code == 0, local_err
    assert out == local_out
    names = list(dict.fromkeys(line.split("\t")[0].strip() for line in out.splitlines()))
    assert names == ["map", "recip_rank", "P_5", "P_10", "ndcg_cut_10"]


def test_compare_engine_spark_needs_qrels(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "compare", "a.parquet", "b.parquet", "--engine", "spark")
    assert code == 2
    assert "give --qrels" in err
