"""Readers: formats, column aliases, ids as strings, and bad input named by file and rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ranklens import spark as rs
from ranklens.io import InputError

# one Spark session per test run: every Spark test on the same xdist worker; a generous
# timeout, since the first job pays the JVM and worker start-up on a possibly busy machine
pytestmark = [pytest.mark.xdist_group("spark"), pytest.mark.timeout(1800)]


def rows(frame) -> list[tuple]:
    return sorted(tuple(row) for row in frame.collect())


def test_trec_text_blanks_tabs_comments_and_extra_fields(spark, tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("# produced by bm25, k1=0.9\n"
                    "  007 Q0\tdoc-1  1 2.5 tag extra\n"
                    "\n"
                    "007\t\tQ0 d2 2 -1e-3 tag\n"
                    "   # an indented comment\n"
                    "10 Q0 D3 1 0 tag   \n", encoding="utf-8")
    assert rs.detect_format(spark, str(path)) == "trec"
    run = rs.read_run(spark, path)
    assert run.columns == ["query_id", "doc_id", "score"]
    assert rows(run) == [("007", "d2", -0.001), ("007", "doc-1", 2.5), ("10", "D3", 0.0)]


def test_csv_and_tsv_with_header_aliases(spark, tmp_path: Path) -> None:
    (tmp_path / "run.csv").write_text("qid,docno,sim\n007,a,1.5\n7,b,2\n", encoding="utf-8")
    (tmp_path / "qrels.data").write_text("topic\tdocid\trel\n007\ta\t2.0\n7\tb\t-1\n",
                                         encoding="utf-8")
    assert rows(rs.read_run(spark, tmp_path / "run.csv")) == [("007", "a", 1.5),
                                                              ("7", "b", 2.0)]
    qrels = rs.read_qrels(spark, tmp_path / "qrels.data")  # no known extension: sniffed
    assert rs.detect_format(spark, str(tmp_path / "qrels.data")) == "tsv"
    assert qrels.schema["relevance"].dataType.simpleString() == "bigint"
    assert rows(qrels) == [("007", "a", 2), ("7", "b", -1)]


def test_parquet_directory_and_glob_with_integer_ids(spark, tmp_path: Path) -> None:
    folder = tmp_path / "qrels"
    folder.mkdir()
    for part in range(2):
        pq.write_table(pa.table({"query_id": pa.array([part, 10 + part], pa.int64()),
                                 "doc_id": ["x", "y"], "label": [1, 0]}),
                       folder / f"part-{part}.parquet")
    expected = [("0", "x", 1), ("1", "x", 1), ("10", "y", 0), ("11", "y", 0)]
    assert rows(rs.read_qrels(spark, folder)) == expected
    assert rows(rs.read_qrels(spark, f"{folder}/part-*.parquet")) == expected


def test_missing_column_and_missing_path_fail_at_read(spark, tmp_path: Path) -> None:
    (tmp_path / "run.csv").write_text("query_id,doc_id,relevance\nq,d,1\n", encoding="utf-8")
    with pytest.raises(InputError, match="has no score column"):
        rs.read_run(spark, tmp_path / "run.csv")
    with pytest.raises(InputError, match="not found"):
        rs.read_run(spark, tmp_path / "nowhere" / "*.parquet")


def _qrels(spark, tmp_path: Path):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 a 1\nq2 0 b 1\n", encoding="utf-8")
    return rs.read_qrels(spark, path)


def test_duplicate_pair_is_named_with_file_and_rows(spark, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    pq.write_table(pa.table({"query_id": ["q1", "q1"], "doc_id": ["a", "b"],
                             "score": [1.0, 2.0]}), folder / "part-0.parquet")
    pq.write_table(pa.table({"query_id": ["q2", "q1"], "doc_id": ["b", "a"],
                             "score": [1.0, 0.5]}), folder / "part-1.parquet")
    evaluation = rs.evaluate(rs.read_run(spark, folder), _qrels(spark, tmp_path), ["AP"])
    with pytest.raises(InputError) as raised:
        evaluation.collect()
    text = str(raised.value)
    assert "query 'q1' lists document 'a' 2 times" in text
    assert "part-0.parquet" in text and "part-1.parquet" in text
    assert "score=1.0" in text and "score=0.5" in text
    assert "keep one row per (query, document) in the run" in text.lower()


def test_non_finite_score_and_fractional_grade_are_refused(spark, tmp_path: Path) -> None:
    run_path = tmp_path / "run.csv"
    run_path.write_text("query_id,doc_id,score\nq1,a,1\nq1,b,NaN\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"run\.csv.*score nan is not a finite number.*'b'"):
        rs.evaluate(rs.read_run(spark, run_path), _qrels(spark, tmp_path), ["AP"]).collect()
    qrels_path = tmp_path / "qrels.csv"
    qrels_path.write_text("query_id,doc_id,relevance\nq1,a,1.5\n", encoding="utf-8")
    run_path.write_text("query_id,doc_id,score\nq1,a,1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"qrels\.csv.*relevance that is missing or not an "
                                         r"integer grade.*fractional grade \(0\.73, 2\.5\) is "
                                         r"refused here.*local engine"):
        rs.evaluate(rs.read_run(spark, run_path), rs.read_qrels(spark, qrels_path),
                    ["AP"]).collect()


def test_a_dataframe_of_fractional_grades_is_refused_not_truncated(spark, tmp_path: Path
                                                                   ) -> None:
    run_path = tmp_path / "run.csv"
    run_path.write_text("query_id,doc_id,score\nq1,a,1\nq1,b,2\n", encoding="utf-8")
    qrels = spark.createDataFrame([("q1", "a", 1.0), ("q1", "b", 0.73)],
                                  "query_id string, doc_id string, relevance double")
    with pytest.raises(InputError, match=r"query 'q1', document 'b': relevance 0\.73 is a "
                                         r"fractional grade, and the Spark engine reads integer "
                                         r"grades only.*local engine"):
        rs.evaluate(rs.read_run(spark, run_path), qrels, ["AP"]).collect()


def test_short_trec_line_is_refused(spark, tmp_path: Path) -> None:
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 a 1 2.0 tag\nq1 Q0 b 2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"run\.trec.*a line of query 'q1' has too few fields"):
        rs.evaluate(rs.read_run(spark, path), _qrels(spark, tmp_path), ["AP"]).collect()
