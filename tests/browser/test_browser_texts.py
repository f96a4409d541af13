"""The demo's Compare page in Chromium, three features checked on one load of the demo (each
load costs seconds), in an order where none changes what the next reads:

- issue 32: the forest plot draws FCR-adjusted intervals by default, and the toggle draws the
  marginal ones;
- issue 30: the query picker found by typing a query's words, the query text beside its id,
  document titles in both rankings and the mark of a tie group that crosses the cutoff;
- issue 31: the demo's three seeds of the neural re-ranker show both answers, with the
  numbers of the CLI's JSON on the same files.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page, expect

from ranklens import demo
from ranklens.app.segment_intervals import TOGGLE_LABEL
from ranklens.compare.analysis import load_inputs
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS
from ranklens.formats import format_interval, format_p
from ranklens.io import read_documents, read_queries
from ranklens.metrics import cutoff_ties
from tests.support.browser_reference import run_cli
from tests.support.compare_page import forest_plot
from tests.support.streamlit_page import (
    assert_no_error,
    chart_titles,
    expect_chart_text,
    expect_rerun,
    grid_rows,
    open_app,
    open_section,
    widget,
)

SEEDS_LABEL = "Neural re-ranker: three training seeds"


def test_demo_shows_fcr_intervals_query_texts_and_both_answers_of_its_seeds(
        page: Page, app_url: str) -> None:
    open_app(page, app_url)
    _forest_plot_shows_fcr_intervals_then_marginal_on_the_toggle(page)
    _demo_shows_query_text_document_titles_and_a_tie_mark(page)
    _demo_seeds_show_both_answers(page)


# ---- issue 32 ------------------------------------------------------------------------------

def _forest_plot_shows_fcr_intervals_then_marginal_on_the_toggle(page: Page) -> None:
    chart = forest_plot(page)
    # the demo by intent: BH selects 4 of 6 segments, so 1 - 4 x 0.05 / 6 = 96.67%
    expect_chart_text(chart, re.compile(r"segments: FCR-adjusted 96\.67% intervals"))
    caption = page.get_by_text(re.compile(r"^Segment intervals are FCR-adjusted"))
    expect(caption.first).to_be_visible()
    with expect_rerun(page):
        page.get_by_text(TOGGLE_LABEL, exact=True).first.click()
    chart = forest_plot(page)
    expect_chart_text(chart, re.compile(r"mean difference; marginal 95% intervals"))
    assert not any("FCR-adjusted" in title for title in chart_titles(chart))
    expect(page.get_by_text(re.compile(r"^Segment intervals are marginal")).first).to_be_visible()
    assert_no_error(page)


# ---- issue 30 ------------------------------------------------------------------------------

def ranking_of_a(page: Page) -> Locator:
    """A's ranking: the first data frame with a Label column (B's is the second; the grid
    lists only the columns in view, so the frame is found by one it shows first)."""
    frames = page.get_by_test_id("stDataFrame").filter(
        has=page.locator('table[role="grid"] th', has_text=re.compile(r"^Label$")))
    expect(frames).to_have_count(2)
    return frames.first


def _demo_shows_query_text_document_titles_and_a_tie_mark(page: Page) -> None:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    query = str(cutoff_ties(inputs.run_a, 10).query_ids[0])  # A's rank 10 is inside a tie
    text = read_queries(demo.text_paths()["queries"]).queries[query]
    open_section(page, "One query, both rankings")  # drawn once opened
    box = widget(page, "stSelectbox", "Query")
    with expect_rerun(page):
        box.get_by_role("combobox").click()
        page.keyboard.type(text)  # searched by the query's words
        page.get_by_role("option", name=re.compile(rf"^{query} · {re.escape(text)}\s+\(")
                         ).click()
    expect(page.get_by_text(f"\u201c{text}\u201d").first).to_be_visible()
    # the grids fill their screen-reader tables only when in view
    page.get_by_text("A: bm25_baseline", exact=True).first.scroll_into_view_if_needed()
    table = ranking_of_a(page)
    rows = grid_rows(table)
    assert len(rows) == 10
    titles = read_documents(demo.text_paths()["documents"]).lookup(r["Document"] for r in rows)
    assert [r["Title"] for r in rows] == [titles[r["Document"]].title if r["Document"] in titles
                                          else "" for r in rows]
    assert any(r["Title"] for r in rows)
    assert any(r["Tie"].endswith("\u2702") for r in rows)
    expect(page.get_by_text(re.compile(r"^\u2702 marks a group of equal scores that rank 10 "
                                       r"falls inside"))).to_be_visible()
    assert_no_error(page)


# ---- issue 31 ------------------------------------------------------------------------------

def _cli_seeds() -> dict:
    paths = demo.paths()
    seeds = ",".join(str(p) for p in demo.seed_paths())
    return json.loads(run_cli(
        ["compare", f"bm25_baseline={paths['run_a']}", f"neural_reranker={seeds}",
         "--qrels", str(paths["qrels"]), "--segments", f"{paths['segments']}:intent",
         "--format", "json"]))


def _demo_seeds_show_both_answers(page: Page) -> None:
    toggle = widget(page, "stCheckbox", SEEDS_LABEL)
    with expect_rerun(page):
        toggle.get_by_text(SEEDS_LABEL, exact=True).click()
    assert_no_error(page)
    expect(page.locator("strong", has_text=THESE_RUNS)).to_be_visible()
    expect(page.locator("strong", has_text=NEW_RUN)).to_be_visible()
    expected = _cli_seeds()["seeds"]["answers"][0]["comparison"]
    new_run = expected["new_run"]
    these = expected["these_runs"]
    for shown in (format_interval(new_run["interval"]["low"], new_run["interval"]["high"]),
                  format_interval(these["ci_low"], these["ci_high"]),
                  format_p(new_run["p_value"])):
        expect(page.get_by_test_id("stMetricValue").filter(has_text=shown).first
               ).to_be_visible()
    expect(page.get_by_text("These runs differ; a new training run of neural_reranker may not "
                            "beat bm25_baseline")).to_be_visible()
    expect(page.locator("strong", has_text="Variance components")).to_be_visible()
