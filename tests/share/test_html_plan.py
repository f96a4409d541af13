"""The MDE plan as HTML: self-contained, the page's numbers and words, the plan as JSON."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ranklens import __version__
from ranklens.compare.analysis import demo_files
from ranklens.formats import format_percent, plain
from ranklens.plan import analysis as planning
from ranklens.plan import html as html_plan
from ranklens.plan import views as plan_views
from ranklens.plan.analysis import METHOD_NOTE, NON_SIGNIFICANT_MEANING
from ranklens.plan.settings import PlanSettings
from tests.support.html_outline import (
    assert_self_contained,
    cards,
    page_text,
    strict_payload,
    table_rows,
)

SETTINGS = {"source": "demo", "metric": "nDCG@10", "alpha": 0.05, "power": 0.8,
            "method": "z", "target": 0.01}


def export_for(sd: float, n_queries: int, *, pilot: planning.Pilot | None = None,
               inputs: tuple[Any, ...] = (), method: str = "z",
               target: float = 0.01) -> html_plan.MdeExport:
    """What the MDE page hands to the renderer, computed as the page does."""
    deltas = tuple(dict.fromkeys((*planning.DEFAULT_DELTAS, target)))
    plan = planning.plan_queries(sd, n_queries=n_queries, deltas=deltas, method=method)
    assert plan.mde is not None
    largest = max(row.queries_needed for row in plan.rows)
    up_to = max(2.5 * plan.mde, 1.2 * max(row.delta for row in plan.rows))
    kind = "t" if method == "t" else "z"
    return html_plan.MdeExport(
        plan, target, plan_views.other_method_mde(plan), pilot,
        PlanSettings.from_dict({**SETTINGS, "n_queries": n_queries, "method": method,
                                "target": target}), inputs,
        planning.mde_curve(sd, planning.n_grid(n_queries, largest), method=kind),
        planning.power_curve(sd, n_queries, method=kind, up_to=up_to))


@pytest.fixture(scope="module")
def demo_export() -> html_plan.MdeExport:
    files = demo_files()
    chosen = (files["run_a"], files["run_b"], files["qrels"])
    pilot = planning.pilot_from_files(*chosen, "nDCG@10")
    return export_for(pilot.sd, pilot.n_queries, pilot=pilot, inputs=chosen)


@pytest.fixture(scope="module")
def demo_document(demo_export: html_plan.MdeExport) -> str:
    return html_plan.render(demo_export)


@pytest.fixture(scope="module")
def typed_document() -> str:
    """The methods page's example: sd 0.1, 200 queries, typed in."""
    return html_plan.render(export_for(0.1, 200))


def test_self_contained(demo_document: str, typed_document: str) -> None:
    assert_self_contained(demo_document)
    assert_self_contained(typed_document)


def test_methods_page_numbers_as_the_page_shows_them(typed_document: str) -> None:
    shown = cards(typed_document)
    assert shown["MDE with 200 queries"][1] == "0.0198"
    assert shown["Queries needed for +0.0100"] == ("785", "785")
    assert shown["sd of differences"][1] == "0.1000"
    rows = table_rows(typed_document, 0)
    assert [row[0][1] for row in rows] == ["+0.0200", "+0.0100", "+0.0050"]
    assert [row[1] for row in rows] == [("197", "197"), ("785", "785"), ("3140", "3,140")]
    assert [row[3][1] for row in rows] == ["yes", "no", "no"]
    text = page_text(typed_document)
    assert "Spread: sd 0.1000, typed in." in text
    assert "Inputs" not in text  # a typed-in spread has no files


def test_demo_headline_table_and_sentence(demo_document: str,
                                          demo_export: html_plan.MdeExport) -> None:
    plan, row = demo_export.plan, demo_export.target_row
    assert plan.mde is not None and row.power_at_n is not None
    shown = cards(demo_document)
    exact, mde_text = shown["MDE with 400 queries"]
    assert mde_text == f"{plan.mde:.4f}" and float(exact or "nan") == plan.mde
    assert shown["Queries needed for +0.0100"][1] == f"{row.queries_needed:,}"
    assert shown["Power for +0.0100 now"][1] == format_percent(row.power_at_n)  # 25.2%
    assert shown["sd of differences"][1] == f"{plan.sd:.4f}"
    body = table_rows(demo_document, 0)
    for cells, plan_row in zip(body, plan.rows, strict=True):
        assert float(cells[0][0] or "nan") == plan_row.delta
        assert int(cells[1][0] or "-1") == plan_row.queries_needed
        assert float(cells[2][0] or "nan") == plan_row.power_at_n
    text = page_text(demo_document)
    assert f"a true difference smaller than {plan.mde:.4f} will often come out" in text
    # a method asked for by name (z here) keeps the other's MDE beside it, said as chosen
    assert ("Method: z-based, as chosen in the settings; with the t-method: "
            f"{demo_export.other_mde:.4f}") in text
    assert " ".join(NON_SIGNIFICANT_MEANING.split()) in text
    assert demo_export.pilot is not None and demo_export.pilot.note in text
    assert " ".join(plain(METHOD_NOTE).split()) in text


def test_both_charts_are_inline_svg(demo_document: str,
                                    demo_export: html_plan.MdeExport) -> None:
    assert demo_document.count("<svg") == 2 and demo_document.count("<figure") == 2
    first, second = demo_document.split("<svg")[1:]
    plan = demo_export.plan
    assert plan.mde is not None
    for row in plan.rows:  # the MDE chart's target rules, labelled with the queries needed
        assert f"needs {row.queries_needed:,} queries" in first
    assert f"MDE {plan.mde:.4f}: 80.0% power" in second


def test_inputs_with_digests_and_every_setting(demo_document: str,
                                               demo_export: html_plan.MdeExport) -> None:
    text = page_text(demo_document)
    for file in demo_export.inputs:
        assert file.sha256 in text and file.name in text and f"{len(file.data):,}" in text
    for key, value in demo_export.settings.to_dict().items():
        assert f"{key} {value}" in text
    assert f"ranklens {__version__}" in text


def test_embedded_json_holds_the_plan(demo_document: str,
                                      demo_export: html_plan.MdeExport) -> None:
    embedded = strict_payload(demo_document, html_plan.JSON_ID, "mde")
    plan = demo_export.plan
    assert embedded["plan"]["mde"] == plan.mde and embedded["plan"]["sd"] == plan.sd
    assert [r["queries_needed"] for r in embedded["plan"]["rows"]] == [
        r.queries_needed for r in plan.rows]
    assert embedded["other_method"] == {"method": "t", "mde": demo_export.other_mde}
    assert embedded["settings"] == demo_export.settings.to_dict()
    assert embedded["spread"]["pilot"]["n_queries"] == 400
    assert [f["sha256"] for f in embedded["inputs"]] == [f.sha256 for f in demo_export.inputs]
    assert demo_export.mde_curve is not None
    assert embedded["curves"]["mde"]["mde"] == list(demo_export.mde_curve["mde"])


def test_no_spread_has_no_charts_and_says_why() -> None:
    """Two identical pilot runs: the file says the spread is zero, not "MDE 0.0000"."""
    pilot = planning.Pilot("nDCG@10", 600, 0.0, 0.0, "pilot runs scored on the qrels")
    plan = planning.plan_queries(0.0, n_queries=600, pilot=pilot)
    export = html_plan.MdeExport(plan, 0.01, 0.0, pilot,
                                 PlanSettings.from_dict({**SETTINGS, "n_queries": 600}))
    document = html_plan.render(export)
    text = page_text(document)
    assert "<svg" not in document and "MDE with" not in text and "queries needed" not in text
    assert ("The 600 paired differences of nDCG@10 have no spread (sd 0: both runs score the "
            "same on every query), so nothing can be planned from them") in text
    assert html_plan.embedded(document)["curves"] == {"mde": None, "power": None}


def test_names_from_inputs_are_escaped(demo_export: html_plan.MdeExport) -> None:
    assert demo_export.pilot is not None
    evil = "<script>alert(1)</script>"
    hostile = dataclasses.replace(
        demo_export, pilot=dataclasses.replace(demo_export.pilot, metric=evil),
        settings=dataclasses.replace(
            demo_export.settings,
            spread=dataclasses.replace(demo_export.settings.spread, metric=evil)))
    document = html_plan.render(hostile)
    assert evil not in document  # escaped in the text, \u003c in the JSON
    assert evil in page_text(document)
    assert html_plan.embedded(document)["settings"]["metric"] == evil


def test_rendering_is_deterministic(demo_document: str,
                                    demo_export: html_plan.MdeExport) -> None:
    assert html_plan.render(demo_export) == demo_document
