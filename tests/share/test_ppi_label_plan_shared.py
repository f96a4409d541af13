"""The labelling plan the PPI page drew travels with its HTML export and its share link
(issue 47): a colleague sees which queries were drawn, with which budget and seed, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.io import read_qrels, read_run
from ranklens.ppi import html as html_ppi
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.labelling import Rounds, plan_labels
from ranklens.ppi.settings import PPISettings
from tests.share.test_share_app import click, markdown_text
from tests.support.html_outline import page_text, strict_payload
from tests.support.share_helpers import app, ppi_files, run_clean, shown_link, token_of

SETTINGS = PPISettings(metric="nDCG@10", alpha=0.05, order="score")


def _plan(budget: float, seed: int, rounds: Rounds | None = None):
    files = dict(zip(("run_a", "run_b", "qrels_proxy"), (
        f for f in ppi_files() if f.role in ("run_a", "run_b", "qrels_proxy")), strict=True))
    return plan_labels(read_run(files["run_a"].data)[0], read_run(files["run_b"].data)[0],
                       read_qrels(files["qrels_proxy"].data)[0], metric="nDCG@10",
                       budget_queries=budget, seed=seed, rounds=rounds)


@pytest.fixture(scope="module")
def analysis():
    return analyse_ppi(*ppi_files(), "nDCG@10", alpha=0.05)


def test_the_html_export_keeps_the_plan_its_budget_and_seed(analysis) -> None:
    plan = _plan(33, 7)
    document = html_ppi.render(html_ppi.PPIExport(analysis, SETTINGS, ppi_files(),
                                                  label_plan=plan))
    words = page_text(document)
    assert "Which queries to label next" in words
    assert "--budget-queries 33 --seed 7" in words
    for line in plan.summary_lines():
        assert line in words, line
    drawn = plan.queries[plan.queries["drawn"]]
    assert all(query in words for query in drawn["query_id"])
    data = strict_payload(document, html_ppi.JSON_ID, "ppi")
    assert data["label_plan"]["seed"] == 7 and data["label_plan"]["budget"] == 33
    assert sorted(row["query_id"] for row in data["label_plan"]["drawn"]) == sorted(
        drawn["query_id"])
    assert data["settings"]["label_plan_seed"] == 7
    assert words.index("Which queries to label next") < words.index("Inputs")

    in_rounds = _plan(33, 7, Rounds(max_rounds=3, effect=0.01))
    document = html_ppi.render(html_ppi.PPIExport(analysis, SETTINGS, ppi_files(),
                                                  label_plan=in_rounds))
    words = page_text(document)
    assert "--budget-queries 33 --seed 7 --max-rounds 3 --effect 0.01" in words
    assert in_rounds.summary_lines()[0].startswith("round 1 of at most 3")
    for line in in_rounds.summary_lines():
        assert line in words, line
    data = strict_payload(document, html_ppi.JSON_ID, "ppi")
    assert (data["settings"]["label_plan_rounds"], data["settings"]["label_plan_effect"]) == (
        3, 0.01)
    assert (data["label_plan"]["max_rounds"], data["label_plan"]["effect"]) == (3, 0.01)

    without = html_ppi.render(html_ppi.PPIExport(analysis, SETTINGS, ppi_files()))
    assert "Which queries to label next" not in page_text(without)
    assert "label_plan" not in strict_payload(without, html_ppi.JSON_ID, "ppi")


def test_a_share_link_shows_the_plan_as_drawn_with_its_seed(store_path: Path) -> None:
    at = run_clean(app())
    run_clean(at.switch_page("pages/ppi.py"))
    at.number_input(key="plan_budget").set_value(55)
    run_clean(at)
    at.number_input(key="plan_seed").set_value(9)
    run_clean(at)
    click(at, "share:ppi")
    reopened = run_clean(app(report=token_of(shown_link(at))))
    words = markdown_text(reopened).replace("\\", "")
    for line in _plan(55, 9).summary_lines():
        assert line in words, line
    captions = " ".join(c.value for c in reopened.caption)
    assert "--budget-queries 55 --seed 9" in captions


def test_a_recomputed_link_starts_from_the_stored_budget_and_seed() -> None:
    from ranklens.app.ppi_plan import link_choice

    # a link made before rounds were on the page: one round, no effect
    assert link_choice({"settings": {"label_plan_budget": 55.0, "label_plan_seed": 9}}) == (
        55.0, 9, 1, None)
    assert link_choice({"settings": {"label_plan_budget": 55.0, "label_plan_seed": 9,
                                     "label_plan_rounds": 3, "label_plan_effect": 0.01}}) == (
        55.0, 9, 3, 0.01)
    assert link_choice({"settings": {"metric": "AP"}}) is None and link_choice(None) is None
