"""Strict JSON: a report with an infinite effect size parses in every strict parser.

Two per-query tables of 30 queries, every value of B 0.1 above A: the per-query differences
have no spread, so the effect size (mean over standard deviation) is infinite. The JSON of
``ranklens compare --format json`` and the JSON embedded in the HTML export must parse with
``parse_constant`` refusing ``Infinity``/``NaN`` (as a browser's ``JSON.parse`` does), say in
words which number was non-finite, and read back to an equal report.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ranklens import codec
from ranklens.compare import html as report_html
from ranklens.compare.report import Report
from ranklens.document.html_shell import embedded_json
from tests.support.cli_helpers import Runner


def _refuse(constant: str) -> float:
    raise ValueError(f"strict JSON has no {constant}")


def strict(text: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(text, parse_constant=_refuse)
    return data


@pytest.fixture
def shifted_tables(tmp_path: Path) -> list[Path]:
    """Per-query tables of 30 queries, B = A + 0.1 on every query (exactly, in decimal)."""
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    lines_a, lines_b = ["query,ndcg@10"], ["query,ndcg@10"]
    for i in range(30):
        value = (10 + 2 * i) / 100  # 0.10 .. 0.68
        lines_a.append(f"q{i},{value:.2f}")
        lines_b.append(f"q{i},{value + 0.1:.2f}")
    paths[0].write_text("\n".join(lines_a) + "\n")
    paths[1].write_text("\n".join(lines_b) + "\n")
    return paths


def test_cli_json_is_strict_and_names_the_infinite_effect_size(
        ranklens: Runner, shifted_tables: list[Path]) -> None:
    done = ranklens("compare", *shifted_tables, "--format", "json")
    assert done.code == 0, done.err
    assert "Infinity" not in done.out and "NaN" not in done.out
    data = strict(done.out)
    overall = data["comparisons"][0]["overall"]  # type: ignore[index]
    assert overall["effect_size"] is None
    assert overall["delta"] == pytest.approx(0.1, abs=1e-12)
    # a constant shift has no spread: the t-test is undefined (0.3, issue 45), named as such
    assert data["non_finite"] == {"/comparisons/0/overall/effect_size": "infinite",
                                  "/comparisons/0/overall/t_p_value": "not a number",
                                  "/comparisons/0/overall/t_ci_low": "not a number",
                                  "/comparisons/0/overall/t_ci_high": "not a number"}
    report = Report.from_json(done.out)
    assert math.isinf(report.comparisons[0].overall.effect_size)
    assert report.comparisons[0].overall.effect_size > 0
    # NaN equals nothing, so the round trip is checked on the text
    assert Report.from_json(report.to_json()).to_json() == report.to_json()
    assert report.to_json() + "\n" == done.out


def test_html_export_embeds_strict_json(ranklens: Runner,
                                        shifted_tables: list[Path]) -> None:
    done = ranklens("compare", *shifted_tables, "--format", "html")
    assert done.code == 0, done.err
    embedded = embedded_json(done.out, report_html.JSON_ID)
    data = strict(embedded)
    assert data["comparisons"][0]["overall"]["effect_size"] is None  # type: ignore[index]
    report = report_html.embedded_report(done.out)
    assert math.isinf(report.comparisons[0].overall.effect_size)
    json_report = Report.from_json(ranklens("compare", *shifted_tables, "-f", "json").out)
    assert report.to_json() == json_report.to_json()


def test_reports_written_with_infinity_literals_still_read(
        ranklens: Runner, shifted_tables: list[Path]) -> None:
    """Text written before the strict codec (``Infinity`` literal, no "non_finite")."""
    report = Report.from_json(ranklens("compare", *shifted_tables, "-f", "json").out)
    old = json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=True)
    assert "Infinity" in old and "non_finite" not in old
    assert Report.from_json(old).to_json() == report.to_json()  # NaN t-test: compare the text


def test_codec_round_trip_and_pointer_escapes() -> None:
    data = {"a/b": [1.0, math.inf, {"~x": -math.inf}], "n": math.nan, "ok": 0.5}
    text = codec.dumps(data)
    body = strict(text)
    assert body["non_finite"] == {"/a~1b/1": "infinite", "/a~1b/2/~0x": "minus infinite",
                                  "/n": "not a number"}
    back = codec.loads(text)
    assert back["a/b"] == [1.0, math.inf, {"~x": -math.inf}]
    assert math.isnan(back["n"]) and back["ok"] == 0.5
    assert codec.loads(codec.dumps({"x": 1})) == {"x": 1}
    assert codec.non_finite_words(data)[0] == "a~1b/1 is infinite (written as null)"


def test_codec_refuses_a_pointer_to_a_number() -> None:
    with pytest.raises(ValueError, match="holds 1"):
        codec.decode({"x": 1, "non_finite": {"/x": "infinite"}})
    with pytest.raises(ValueError, match="not one of"):
        codec.decode({"x": None, "non_finite": {"/x": "big"}})


def test_the_text_output_says_in_words_that_the_effect_size_is_infinite(
        ranklens: Runner, shifted_tables: list[Path]) -> None:
    done = ranklens("compare", *shifted_tables)
    assert done.code == 0, done.err
    text = " ".join(done.out.split())  # the sentence is wrapped to the width
    assert ("The effect size (Cohen's d_z) is infinite (overall): B \u2212 A is the same on "
            "every query") in text
    assert '"non_finite"' in text


def test_finite_effect_sizes_get_no_such_sentence(ranklens: Runner, tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("query,ndcg@10\n" + "".join(f"q{i},0.{i + 10}\n" for i in range(30)))
    b.write_text("query,ndcg@10\n" + "".join(f"q{i},0.{(i * 7) % 30 + 40}\n" for i in range(30)))
    done = ranklens("compare", a, b)
    assert done.code == 0, done.err
    assert "effect size" not in done.out.lower()
