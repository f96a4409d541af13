"""The column specs: one format per kind, alignment by kind, missing values as said."""

from __future__ import annotations

import math

import pandas as pd

from ranklens.compare import columns
from ranklens.compare.columns import Column


def test_each_kind_is_written_through_formats() -> None:
    record = {"n": 1234, "mean": 0.61861, "delta": -0.00291, "p": 0.00053, "q": 0.0483,
              "ci_low": 0.0151, "ci_high": 0.04512, "wins": 1239, "ties": 7, "losses": 154,
              "significant": True, "name": "local"}
    shown = [Column("name", "segment", "label"), Column("n", "n", "count"),
             Column("mean", "mean", "value"), Column("delta", "d", "delta"),
             Column("ci", "CI", "interval"), Column("p", "p", "p"), Column("q", "q", "p"),
             Column("wtl", "W/T/L", "wtl"), Column("significant", "", "mark")]
    assert columns.cells(shown, [record]) == [[
        "local", "1,234", "0.6186", "\u22120.0029", "+0.0151 to +0.0451", "< 0.001", "0.048",
        "1,239 / 7 / 154", "*"]]
    assert columns.right(shown) == {1, 2, 3, 5, 6, 7}


def test_missing_key_is_empty_and_missing_number_a_dash() -> None:
    shown = columns.pick(columns.SEGMENT_COLUMNS, ("delta", "ci", "q_value", "wtl"))
    nothing = {"delta": None, "ci_low": math.nan, "ci_high": math.nan, "q_value": None,
               "wins": math.nan, "ties": math.nan, "losses": math.nan}
    assert columns.cells(shown, [nothing]) == [["\u2014", "\u2014", "\u2014", ""]]
    assert columns.cells(shown, [{}]) == [["", "", "", ""]]
    assert columns.cell(shown[1], nothing, missing="") == ""


def test_headers_fill_names_and_level() -> None:
    shown = columns.pick(columns.SEGMENT_COLUMNS, ("segment", "mean_a", "delta", "ci"))
    names = {"segment": "intent", "rows": "Intent", "a": "bm25", "b": "neural", "level": 95}
    assert columns.headers(shown, names) == ["intent", "A: bm25", "B \u2212 A", "95% CI"]
    assert columns.headers(shown, names, long=True) == [  # the wide faces head it {rows}
        "Intent", "Mean bm25", "neural \u2212 bm25", "Interval"]


def test_display_frame_adds_text_beside_the_numbers() -> None:
    table = pd.DataFrame({"p_value": [0.2, math.nan], "ci_low": [-0.1, math.nan],
                          "ci_high": [0.3, math.nan], "wins": [3, 1], "ties": [0, 0],
                          "losses": [1, 2]})
    shown = columns.pick(columns.PAIR_COLUMNS, ("ci", "p_value", "wtl"))
    frame = columns.display_frame(table, shown)
    assert list(frame["ci_text"]) == ["\u22120.1000 to +0.3000", ""]
    assert list(frame["p_value_text"]) == ["0.200", ""]
    assert list(frame["wtl_text"]) == ["3 / 0 / 1", "1 / 0 / 2"]
    assert frame["p_value"].iloc[0] == 0.2
