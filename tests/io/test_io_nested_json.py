"""ranx / BEIR JSON files, ``{query: {doc: score}}`` and ``{query: {doc: grade}}``: read like the
TREC files they stand for, refused in words when they are not that shape.

The JSON of a demo run holds the same rankings as its TREC file, so every per-query number and
the CLI's report must be equal; the other tests hold each refusal to its file and entry.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from ranklens import demo
from ranklens.cli import main
from ranklens.compare.report import Report
from ranklens.io import InputError, read_per_query, read_qrels, read_run, read_segments
from ranklens.metrics import evaluate

DEMO = demo.paths()


def trec_as_dict(path: Path, value_field: int) -> dict[str, dict[str, float | int]]:
    """A TREC run (score: field 4) or qrels (grade: field 3) as the nested dict ranx keeps."""
    nested: dict[str, dict[str, float | int]] = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        doc = fields[2]
        value = float(fields[4]) if value_field == 4 else int(fields[3])
        nested.setdefault(fields[0], {})[doc] = value
    return nested


@pytest.fixture(scope="module")
def json_demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("json_demo")
    files = {
        "run_a": (folder / "bm25.json", json.dumps(trec_as_dict(DEMO["run_a"], 4)).encode()),
        "run_b": (folder / "neural.json.gz",
                  gzip.compress(json.dumps(trec_as_dict(DEMO["run_b"], 4), indent=2).encode())),
        "qrels": (folder / "qrels.json", json.dumps(trec_as_dict(DEMO["qrels"], 3)).encode()),
    }
    for path, data in files.values():
        path.write_bytes(data)
    return {role: path for role, (path, _) in files.items()}


def test_a_run_json_over_64_kib_on_one_line_reads_as_its_trec_file(
        json_demo: dict[str, Path]) -> None:
    assert json_demo["run_a"].stat().st_size > 1 << 16  # the head cannot hold a whole line
    assert json_demo["run_a"].read_bytes().count(b"\n") == 0
    run, summary = read_run(json_demo["run_a"])
    trec, _ = read_run(DEMO["run_a"])
    qrels, qrels_summary = read_qrels(json_demo["qrels"])
    assert (summary.format, summary.rows, summary.queries) == ("json", len(trec),
                                                               len(trec.query_ids()))
    assert qrels_summary.format == "json"
    metrics = ["nDCG@10", "AP", "P@5", "RR"]
    got = evaluate(run, qrels, metrics)
    want = evaluate(trec, read_qrels(DEMO["qrels"])[0], metrics)
    for metric in metrics:
        np.testing.assert_array_equal(got[metric].values, want[metric].values)
        assert list(got[metric].query_ids) == list(want[metric].query_ids)


def test_cli_compare_of_json_files_equals_the_trec_report(
        json_demo: dict[str, Path], tmp_path: Path) -> None:
    reports = []
    for files in (json_demo, DEMO):
        out = tmp_path / f"report_{len(reports)}.json"
        code = main(["compare", str(files["run_a"]), str(files["run_b"]), "--qrels",
                     str(files["qrels"]), "--metric", "ndcg@10", "--format", "json",
                     "--output", str(out), "--name", "bm25", "--name", "neural"])
        assert code == 0
        reports.append(Report.from_json(out.read_text()))
    from_json, from_trec = reports
    assert from_json.comparisons == from_trec.comparisons
    assert [record.summary["format"] for record in from_json.inputs] == ["json"] * 3


def test_a_per_query_table_as_json_is_its_long_form() -> None:
    read = read_per_query(b'{"q1": {"nDCG@10": 0.5, "AP": 0.25}, "q2": {"nDCG@10": 1}}',
                          name="per_query.json")
    assert sorted(read.metrics) == ["AP", "nDCG@10"]
    assert read.metrics["nDCG@10"].per_query == {"q1": 0.5, "q2": 1.0}


def test_queries_without_documents_are_counted() -> None:
    _, summary = read_run(b'{"q1": {"d1": 1.0}, "q2": {}, "q3": {}}', name="run.json")
    assert summary.queries == 1
    assert "2 queries with no documents ('q2', 'q3')" in " ".join(summary.notes)


@pytest.mark.parametrize(("text", "said"), [
    ('{"q1": {"d1": 1.0, "d1": 2.0}}', "run.json: query 'q1' has document 'd1' twice"),
    ('{"q1": {"d1": 1.0}, "q1": {"d2": 2.0}}', "run.json: query 'q1' is given twice"),
    ('{"q1": {"d1": "high"}}', "query 'q1', document 'd1': the score is a string ('high')"),
    ('{"q1": {"d1": NaN}}', "query 'q1', document 'd1': the score nan is not a finite number"),
    ('{"q1": {"d1": true}}', "the score is a boolean"),
    ('{"q1": [["d1", 1.0]]}', "query 'q1' maps to a JSON array, not an object of documents"),
    ('{"q1": {"d1": 1.0}', "run.json, line 1: is not valid JSON"),
    ('{"q1": {}}', "has no documents: every query maps to an empty object"),
    ('{"q1": {"": 1.0}}', "a document id in query 'q1' is empty"),
])
def test_bad_run_json_is_refused_naming_the_entry(text: str, said: str) -> None:
    with pytest.raises(InputError) as raised:
        read_run(text.encode(), name="run.json")
    assert said in str(raised.value)


def test_fractional_grades_are_kept_or_refused_by_policy_and_segment_maps_refused() -> None:
    qrels, summary = read_qrels(b'{"q1": {"d1": 1.5, "d2": 2}}', name="qrels.json")
    assert qrels.relevance.tolist() == [1.5, 2.0] and qrels.fractional
    assert any(note.startswith("1 of 2 judgements have fractional grades (1.5)")
               for note in summary.notes)
    with pytest.raises(InputError, match=r"relevance 1\.5 is not an integer grade"):
        read_qrels(b'{"q1": {"d1": 1.5}}', name="qrels.json", grades="integer")
    with pytest.raises(InputError, match="not as a segment map"):
        read_segments(b'{"q1": {"intent": "nav"}}', name="segments.json")


def test_a_long_first_line_that_is_not_json_is_named_as_such() -> None:
    # the wrong diagnosis this replaces: "has no data line in its first 64 KiB: every line
    # there is blank"
    line = b"q1 Q0 " + b"d" * (1 << 17) + b" 1 1.0 tag\n"
    with pytest.raises(InputError, match="has a first line longer than 64 KiB"):
        read_run(line, name="long.trec")
