"""Systems trained with several seeds in Chromium (issue 31): the demo's three seeds of the
neural re-ranker show both answers, with the numbers of the CLI's JSON on the same files."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from ranklens import demo
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS
from ranklens.formats import format_interval, format_p
from tests.support.browser_reference import run_cli
from tests.support.streamlit_page import assert_no_error, expect_rerun, open_app, widget

SEEDS_LABEL = "Neural re-ranker: three training seeds"


def _cli_seeds() -> dict:
    paths = demo.paths()
    seeds = ",".join(str(p) for p in demo.seed_paths())
    return json.loads(run_cli(
        ["compare", f"bm25_baseline={paths['run_a']}", f"neural_reranker={seeds}",
         "--qrels", str(paths["qrels"]), "--segments", f"{paths['segments']}:intent",
         "--format", "json"]))


def test_demo_seeds_show_both_answers(page: Page, app_url: str) -> None:
    open_app(page, app_url)
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
