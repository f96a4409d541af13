"""``ranklens compare --discover`` (issue 48): the JSON contract, and the text, Markdown and
HTML faces saying the same slices with the same numbers."""

from __future__ import annotations

import json

from ranklens import demo
from tests.support.cli_helpers import Runner


def _args():
    paths = demo.paths()
    return [paths["run_a"], paths["run_b"], "--qrels", paths["qrels"], "--segments",
            f"{paths['segments']}:intent", "--discover", "--n-resamples", 200,
            "--n-permutations", 200]


def test_the_json_lists_the_slices_and_the_params_say_how(ranklens: Runner):
    done = ranklens("compare", *_args(), "--format", "json")
    assert done.code == 0, done.err
    report = json.loads(done.out)
    how = report["params"]["discover"]
    assert how["split"] == 0.5 and how["seed"] == 0 and how["searched"] > 10
    assert how["search_queries"] + how["confirm_queries"] == 400
    found = report["discovered"]
    assert how["method"] == "cross-fitted" and how["tests"] == 6
    assert 1 <= len(found) <= 6
    for item in found:
        assert set(item) >= {"columns", "n_queries", "delta", "ci_low", "ci_high", "p_value",
                             "q_value"}
        assert item["ci_low"] <= item["delta"] <= item["ci_high"] and item["n_queries"] >= 20
    assert {"intent": "navigational"} in [item["columns"] for item in found]


def test_text_markdown_and_html_say_the_same_slices(ranklens: Runner, tmp_path):
    report = json.loads(ranklens("compare", *_args(), "--format", "json").out)
    from ranklens.formats import format_delta

    first = report["discovered"][0]
    number = format_delta(first["delta"])
    for fmt in ("text", "markdown", "html"):
        out = tmp_path / f"report.{fmt}"
        done = ranklens("compare", *_args(), "--format", fmt, "--output", out)
        assert done.code == 0, done.err
        page = out.read_text(encoding="utf-8")
        assert "Where B differs most" in page and number in page, fmt
        assert "(a segment of the forest plot)" in page, fmt


def test_without_discover_nothing_is_added(ranklens: Runner):
    args = [a for a in _args() if a != "--discover"]
    report = json.loads(ranklens("compare", *args, "--format", "json").out)
    assert "discovered" not in report and "discover" not in report["params"]
