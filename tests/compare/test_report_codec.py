"""The report's JSON goes through the one codec (`ranklens.codec` forms): the demo's reports of
two and three runs, as main wrote them before issue 26, read back to objects that write the
same JSON again; every object of a report reads back equal."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranklens import codec
from ranklens.compare.coverage import CoverageRow
from ranklens.compare.report import Report

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "demo"


@pytest.mark.parametrize("name", ["compare_two", "compare_three"])
def test_the_demo_reports_main_wrote_read_back_and_write_the_same_json(name: str) -> None:
    text = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    written = json.loads(text)
    report = Report.from_json(text)
    assert report.several == (name == "compare_three")
    assert json.loads(report.to_json()) == written  # same keys, same order of lists, same numbers
    assert list(json.loads(report.to_json())) == list(written)  # same key order at the top
    again = Report.from_dict(report.to_dict())
    assert again == report
    # the objects themselves, not only their JSON, are equal (no NaN in the demo; segment
    # rows are left out: their seeds are numpy SeedSequences, which compare by identity)
    assert [c.overall for c in again.comparisons] == [c.overall for c in report.comparisons]
    assert again.coverage == report.coverage
    assert again.families == report.families


def test_keys_a_newer_version_adds_are_left_out_and_absent_optional_keys_default() -> None:
    data = json.loads((GOLDEN / "compare_two.json").read_text(encoding="utf-8"))
    newer = {**data, "a_later_versions_key": {"checks": ["unknown here"]}}
    assert Report.from_dict(newer) == Report.from_dict(data)
    older = {k: v for k, v in data.items() if k not in ("coverage", "warnings", "kind")}
    report = Report.from_dict(older)
    assert report.coverage is None and report.warnings == () and report.kind == "compare"


def test_a_malformed_report_is_a_value_error_naming_the_field() -> None:
    data = json.loads((GOLDEN / "compare_two.json").read_text(encoding="utf-8"))
    del data["comparisons"][0]["metric"]
    with pytest.raises(ValueError, match="metric is missing"):
        Report.from_dict(data)


finite_or_not = st.floats(allow_nan=False) | st.sampled_from([math.inf, -math.inf])


@given(judged=finite_or_not, shift=finite_or_not,
       residual=st.none() | st.floats(allow_nan=False, allow_infinity=False),
       could_change=st.booleans(), n=st.integers(0, 10**9))
def test_a_coverage_row_survives_strict_json_exactly(judged: float, shift: float,
                                                     residual: float | None,
                                                     could_change: bool, n: int) -> None:
    row = CoverageRow("s", n, judged, 0.5, 0.25, 1.0, shift, could_change, residual, None)
    text = codec.dumps({"row": row})
    assert "Infinity" not in text
    assert codec.rebuild(CoverageRow, codec.loads(text)["row"]) == row


@dataclasses.dataclass(frozen=True)
class _Point:
    x: float
    y: float = 0.0
    label: str = ""


def test_a_form_orders_keys_and_leaves_out_defaults_and_reads_back_equal() -> None:
    codec.register(_Point, codec.Form(order=("label",), omit_default=("y",)))
    assert list(codec.plain(_Point(1.0))) == ["label", "x"]
    assert codec.plain(_Point(1.0, 2.0, "p")) == {"label": "p", "x": 1.0, "y": 2.0}
    assert codec.rebuild(_Point, codec.plain(_Point(1.0))) == _Point(1.0)


def test_a_form_of_its_own_is_used_both_ways_and_must_come_in_pairs() -> None:
    codec.register(_Point, codec.Form(to_plain=lambda p: {"xy": [p.x, p.y]},
                                      from_plain=lambda d: _Point(*d["xy"])))
    assert codec.plain(_Point(1.0, 2.0)) == {"xy": [1.0, 2.0]}
    assert codec.rebuild(_Point, {"xy": [1.0, 2.0]}) == _Point(1.0, 2.0)
    with pytest.raises(ValueError, match="in _Point's form"):
        codec.rebuild(_Point, {"z": 1})
    with pytest.raises(ValueError, match="go together"):
        codec.register(_Point, codec.Form(to_plain=lambda p: {}))
