"""The Compare page in Chromium with the demo's texts (issue 30): the query picker found by
typing a query's words, the query text beside its id, document titles in both rankings and
the mark of a tie group that crosses the cutoff."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ranklens import demo
from ranklens.compare.analysis import load_inputs
from ranklens.io import read_documents, read_queries
from ranklens.metrics import cutoff_ties
from tests.support.streamlit_page import (
    assert_no_error,
    expect_rerun,
    grid_rows,
    open_app,
    widget,
)


def ranking_of_a(page: Page) -> Locator:
    """A's ranking: the first data frame with a Label column (B's is the second; the grid
    lists only the columns in view, so the frame is found by one it shows first)."""
    frames = page.get_by_test_id("stDataFrame").filter(
        has=page.locator('table[role="grid"] th', has_text=re.compile(r"^Label$")))
    expect(frames).to_have_count(2)
    return frames.first


def test_demo_shows_query_text_document_titles_and_a_tie_mark(page: Page,
                                                              app_url: str) -> None:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    query = str(cutoff_ties(inputs.run_a, 10).query_ids[0])  # A's rank 10 is inside a tie
    text = read_queries(demo.text_paths()["queries"]).queries[query]
    open_app(page, app_url)
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
