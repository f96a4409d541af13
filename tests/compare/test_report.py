"""ranklens.compare.report: the JSON form is a faithful, byte-stable copy of the report."""

import csv
import io
import json

import numpy as np

from ranklens.compare.csv_report import CSV_COLUMNS, render_csv
from ranklens.compare.report import InputRecord, Report, result_row
from ranklens.compare.report_tables import SEGMENT_COLUMNS, segment_table
from ranklens.compare.segments import SegmentOptions, compare_metrics
from ranklens.data import MetricResult
from ranklens.io import sha256_hex
from ranklens.stats.options import PairedOptions
from ranklens.stats.results import ROW_KEYS


def _report(seed: int = 0) -> Report:
    rng = np.random.default_rng(5)
    queries = [f"q{i}" for i in range(60)]
    a = MetricResult("nDCG@10", dict(zip(queries, rng.uniform(0, 1, 60), strict=True)))
    b = MetricResult("nDCG@10", dict(zip(queries, rng.uniform(0, 1, 60), strict=True)))
    segments = {q: ("s1" if i % 3 else "s2") for i, q in enumerate(queries)}
    comparisons = compare_metrics({"nDCG@10": a}, {"nDCG@10": b}, segments, SegmentOptions(
        PairedOptions(seed=seed, n_resamples=1000, n_permutations=1000)))
    return Report(
        params={"metrics": ["nDCG@10"], "alpha": 0.05, "seed": seed},
        inputs=(InputRecord("run_a", "a.trec", sha256_hex(b"x"), 1, {"rows": 1}),),
        comparisons=comparisons,
        per_query={"nDCG@10": {"a": dict(a.per_query), "b": dict(b.per_query)}},
        warnings=("something to say",),
        run_names=("bm25", "reranker"),
    )


def test_json_round_trip_is_equal_and_byte_stable():
    report = _report()
    text = report.to_json()
    again = Report.from_json(text)
    assert again == report
    assert again.to_json() == text
    restored = again.comparisons[0].segments[0].result.seed
    assert restored.entropy == report.comparisons[0].segments[0].result.seed.entropy


def test_same_inputs_and_seed_give_the_same_bytes_and_another_seed_does_not():
    assert _report(0).to_json() == _report(0).to_json()
    assert _report(0).to_json() != _report(1).to_json()


def test_floats_survive_exactly():
    report = _report()
    data = json.loads(report.to_json())
    assert data["comparisons"][0]["overall"]["ci_low"] == report.comparisons[0].overall.interval.low


def test_unknown_schema_is_refused_with_a_reason():
    data = _report().to_dict()
    data["schema"] = 99
    try:
        Report.from_dict(data)
    except ValueError as error:
        assert "schema" in str(error)
    else:
        raise AssertionError("schema 99 was accepted")


def test_a_schema_1_report_still_reads_with_no_snapped_deltas():
    data = _report().to_dict()
    data["schema"] = 1
    for comparison in data["comparisons"]:
        del comparison["overall"]["n_snapped"]
        for row in comparison["segments"]:
            if row["result"] is not None:
                del row["result"]["n_snapped"]
    report = Report.from_dict(data)
    assert report.comparisons[0].overall.n_snapped == 0
    assert report.comparisons[0].overall.delta == _report().comparisons[0].overall.delta


def test_the_json_of_a_result_is_its_row() -> None:
    report = _report()
    data = report.to_dict()
    stored = [data["comparisons"][0]["overall"],
              *(row["result"] for row in data["comparisons"][0]["segments"])]
    results = [row.result for row in report.comparisons[0].rows]
    assert len(stored) == len(results) == 3
    for plain, result in zip(stored, results, strict=True):
        assert result is not None
        assert tuple(plain) == tuple(result.row()) == ROW_KEYS
        assert {k: v for k, v in plain.items() if k != "seed"} == {
            k: v for k, v in result.row().items() if k != "seed"}


FCR_KEYS = ("ci_level", "fcr_low", "fcr_high", "fcr_level")


LIFT_KEYS = ("lift", "lift_low", "lift_high")


def test_csv_and_segment_table_take_every_number_from_result_row() -> None:
    report = _report()
    comparison = report.comparisons[0]
    lines = list(csv.DictReader(io.StringIO(render_csv(report))))
    table = segment_table(comparison, report.run_names)
    placement = {"metric", "segment_column", "segment", "n_queries", "note",
                 *FCR_KEYS,  # the FCR interval and the levels: views.interval_levels
                 *LIFT_KEYS}  # the row's lift: report_tables.lift_cells
    assert set(CSV_COLUMNS) - placement <= set(result_row(comparison.overall))
    assert set(SEGMENT_COLUMNS) - placement - {"overall", "finding"} <= set(
        result_row(comparison.overall))
    assert len(lines) == len(comparison.rows) == 3
    for line, row in zip(lines, comparison.rows, strict=True):
        assert row.result is not None
        values = result_row(row.result)
        for column in set(CSV_COLUMNS) - placement:
            expected = "" if values[column] is None else str(values[column])
            assert line[column] == expected, column
        shown = table[table["segment"] == row.segment].iloc[0]
        assert row.lift is not None
        lift = (row.lift.estimate, row.lift.low, row.lift.high)
        assert tuple(float(line[key]) for key in LIFT_KEYS) == lift
        assert tuple(shown[key] for key in LIFT_KEYS) == lift
        for column in set(SEGMENT_COLUMNS) - placement - {"overall", "finding"}:
            expected = np.nan if values[column] is None else values[column]
            assert shown[column] == expected or (np.isnan(shown[column]) and np.isnan(expected))
