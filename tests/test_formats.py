"""One format per quantity, user strings shown literally, changes drawn the way they go."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranklens.document.html_shell import markdown
from ranklens.formats import (
    Card,
    direction,
    format_delta,
    format_percent,
    format_value,
    literal,
    plain,
    spans,
)

HOSTILE = "click me **bold** $x^2$.trec"


def test_power_reads_as_a_percentage_with_one_decimal() -> None:
    assert format_percent(0.44316) == "44.3%"
    assert format_percent(0.8) == "80.0%"
    assert format_percent(1.0) == "100.0%"


def test_negative_numbers_use_a_real_minus() -> None:
    assert format_delta(-0.5101) == "\u22120.5101"
    assert format_value(-0.0033) == "\u22120.0033"
    assert "-" not in format_delta(-1e-9) + format_value(-2.5)


def test_a_markdown_and_latex_file_name_is_escaped() -> None:
    assert literal(HOSTILE) == "click me \\*\\*bold\\*\\* \\$x^2\\$.trec"
    assert literal("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert\\(1\\)&gt;"
    assert literal("bm25_tuned v1.2") == "bm25_tuned v1.2"  # ordinary names unchanged
    assert literal("a\n# b") == "a # b"  # no new block


@given(st.text(max_size=60))
def test_literal_reads_back_as_the_same_characters(value: str) -> None:
    assert plain(literal(value)) == re.sub(r"[\r\n\u2028\u2029]+", " ", value)


def test_the_dialect_reads_back_for_cli_and_html() -> None:
    source = f"Run **{literal(HOSTILE)}** is in [the Methods page](/methods#mde)."
    assert plain(source) == f"Run {HOSTILE} is in the Methods page."
    assert [span.bold for span in spans(source)] == [False, True, False, False, False]
    assert markdown(source) == ("Run <strong>click me **bold** $x^2$.trec</strong> is in the "
                                "Methods page.")
    assert markdown(literal("<b>&</b>")) == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert markdown("[docs](https://example.org)") == '<a href="https://example.org">docs</a>'


@pytest.mark.parametrize(("trend", "better", "expected"), [
    (-0.5101, "up", ("down", "red")),  # B worse: a red arrow down, whatever the text says
    (+0.0300, "up", ("up", "green")),
    (-0.0033, "down", ("down", "green")),  # a narrower interval is good
    (+0.0033, "down", ("up", "red")),
    (0.0, "up", ("off", "gray")),
    (None, "up", ("off", "gray")),
    (-1.0, "neither", ("down", "gray")),
])
def test_a_change_is_drawn_from_its_number(trend: float | None, better: str,
                                           expected: tuple[str, str]) -> None:
    card = Card("B", "0.4", 0.4, delta=format_delta(trend or 0.0), trend=trend,
                better=better)  # type: ignore[arg-type]
    assert tuple(direction(card)) == expected


@pytest.mark.parametrize(("alpha", "expected"), [(0.05, "95%"), (0.1, "90%"), (0.01, "99%"),
                                                  (0.025, "97.5%"), (0.00125, "99.88%")])
def test_a_level_is_written_one_way(alpha: float, expected: str) -> None:
    from ranklens.formats import format_level, level_number

    assert format_level(1 - alpha) == expected
    assert level_number(1 - alpha) + "%" == expected
