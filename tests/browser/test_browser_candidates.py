"""Several candidates in Chromium: the demo's leaderboard, picking a candidate, renaming a run,
the HTML export and a share link, each against the CLI's JSON report of the same files (the
leaderboard and picking a candidate on test_legible_at_1400's load of the demo)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from ranklens import demo
from ranklens.compare import html as html_report
from ranklens.compare.coverage_words import BANNER_TITLE
from ranklens.formats import format_delta, format_p
from tests.support.browser_reference import cli_compare
from tests.support.compare_page import (
    assert_headline_equals,
    headline,
    leaderboard_plot,
    leaderboard_table,
    segment_table,
)
from tests.support.offline_report import assert_opens_offline
from tests.support.share_page import share_link
from tests.support.streamlit_page import (
    assert_no_error,
    axis_labels,
    expect_rerun,
    open_app,
    open_section,
    widget,
)

NAMES = ("bm25_baseline", "neural_reranker", "dense_retriever")


def _demo_report(names: tuple[str, ...] = ()) -> dict:
    paths = demo.paths()
    return cli_compare(paths["run_a"], paths["run_b"], paths["run_dense"], qrels=paths["qrels"],
                       segments=paths["segments"], segment_column="intent", names=names)


def _candidate(expected: dict, candidate: int) -> dict:
    """One candidate's part of a report of several, shaped as a two-run report."""
    names = expected["run_names"]
    comparison = next(c for c in expected["comparisons"] if c.get("candidate", 1) == candidate)
    return {"run_names": [names[0], names[candidate]], "comparisons": [comparison]}


def _assert_leaderboard(page: Page, expected: dict) -> None:
    names = expected["run_names"]
    family = expected["families"][0]
    rows = leaderboard_table(page)
    assert [row["Run"] for row in rows] == [f"{names[0]} (A, baseline)", *names[1:]]
    for row, pair in zip(rows[1:], family["pairs"], strict=True):
        result = pair["result"]
        assert row["Run"] == names[pair["b"]]
        assert float(row["B \u2212 A"]) == result["delta"]
        assert row["Interval"] == (f"{format_delta(result['ci_low'])} to "
                                   f"{format_delta(result['ci_high'])}")
        assert row["Adjusted p"] == format_p(pair["adjusted_p"])
        assert row["p"] == format_p(result["p_value"])
        assert row["W / T / L"] == (f"{result['wins']:,} / {result['ties']:,} / "
                                    f"{result['losses']:,}")
    labels = [re.sub(r"\s+", " ", label) for label in axis_labels(leaderboard_plot(page))]
    for name, pair in zip(names[1:], family["pairs"], strict=True):
        assert f"{name} ({pair['result']['mean_b']:.4f})" in labels


# Checked in test_legible_at_1400's one load of the demo, around its own checks (each load of
# the demo costs seconds): the arrival first, then the second candidate once it is picked.
def leaderboard_and_first_candidate_as_the_cli_reports_them(page: Page) -> dict:
    """On arrival: the leaderboard, then the first candidate's verdict and cards, no coverage
    banner. Returns the CLI's report, for `second_candidate_as_the_cli_reports_it`."""
    expected = _demo_report()
    assert tuple(expected["run_names"]) == NAMES
    _assert_leaderboard(page, expected)
    # on arrival, the first candidate's verdict, segments and queries
    assert headline(page) == "neural_reranker is better than bm25_baseline on nDCG@10."
    assert_headline_equals(page, _candidate(expected, 1))
    expect(page.get_by_test_id("stAlertContainer").filter(has_text=BANNER_TITLE)
           ).to_have_count(0)
    return expected


def second_candidate_as_the_cli_reports_it(page: Page, expected: dict) -> None:
    """Once "Look into" has picked dense_retriever: its verdict, cards and segment finding,
    its own coverage banner, and the query it loses most picked."""
    assert headline(page) == "bm25_baseline is better than dense_retriever on nDCG@10."
    assert_headline_equals(page, _candidate(expected, 2))
    assert segment_table(page)[0]["Finding"] == "B worse"
    # its judgement coverage is its own: the banner shows in its section only
    expect(page.get_by_test_id("stAlertContainer").filter(has_text=BANNER_TITLE)
           ).to_have_count(1)
    values = expected["per_query"]["nDCG@10"]
    deltas = {q: values["c"][q] - values["a"][q] for q in values["a"]}
    worst = min(deltas, key=lambda q: (deltas[q], q))
    open_section(page, "One query, both rankings")  # drawn once opened
    expect(widget(page, "stSelectbox", "Query").get_by_role("combobox")).to_have_value(
        re.compile(rf"^{worst}\b"))
    assert_no_error(page)


def test_renamed_run_reaches_leaderboard_export_and_share_link(page: Page, browser: Browser,
                                                                app_url: str,
                                                                tmp_path: Path) -> None:
    open_app(page, app_url)
    page.get_by_test_id("stExpander").filter(has_text="Run names").locator(
        "summary").click()  # opens the expander; no rerun
    field = widget(page, "stTextInput", "Name of run C").locator("input")
    expect(field).to_be_visible()
    with expect_rerun(page):
        field.fill("dense v2")
        field.press("Enter")
    expected = _demo_report(names=("bm25_baseline", "neural_reranker", "dense v2"))
    _assert_leaderboard(page, expected)
    expect(widget(page, "stRadio", "Look into").get_by_text("dense v2",
                                                            exact=True)).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("button", name="Report (HTML)").click()
    saved = tmp_path / "report.html"
    download.value.save_as(saved)
    document = saved.read_text()
    assert 'id="leaderboard-ndcg-10"' in document
    # the leaderboard and each candidate's forest plot, drawn without a network
    assert_opens_offline(browser, saved, figures=3, words="is better than")
    exported = html_report.embedded_report(document)
    assert exported.run_names == ("bm25_baseline", "neural_reranker", "dense v2")
    assert exported.family("nDCG@10").pairs[1].adjusted_p == \
        expected["families"][0]["pairs"][1]["adjusted_p"]

    link = share_link(page)
    other = page.context.new_page()
    open_app(other, link)
    _assert_leaderboard(other, expected)
    assert_no_error(other)
    assert_no_error(page)
