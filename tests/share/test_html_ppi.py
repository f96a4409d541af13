"""The PPI++ analysis as HTML: self-contained, the page's numbers and words, its JSON."""

from __future__ import annotations

import dataclasses

import pytest

from ranklens import __version__
from ranklens.formats import format_delta, format_p, plain
from ranklens.ppi import html as html_ppi
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import RANDOM_SAMPLE_ASSUMPTION, analyse_ppi, budget_curve
from ranklens.ppi.settings import PPISettings
from ranklens.ppi.verdict_words import ppi_sentences
from tests.support.html_outline import (
    assert_self_contained,
    cards,
    page_text,
    strict_payload,
    table_rows,
)
from tests.support.share_helpers import ppi_files

SETTINGS = PPISettings(metric="nDCG@10", alpha=0.05, order="score")


@pytest.fixture(scope="module")
def demo_export() -> html_ppi.PPIExport:
    """What the PPI page hands to the renderer on the demo, computed as the page does."""
    files = ppi_files()
    analysis = analyse_ppi(*files, "nDCG@10", alpha=0.05)
    assert analysis.model is not None
    budget = ppi_views.gold_budget(analysis.model,
                                        ppi_views.default_planned(analysis.model))
    return html_ppi.PPIExport(analysis, SETTINGS, files, budget, budget_curve(analysis.model))


@pytest.fixture(scope="module")
def document(demo_export: html_ppi.PPIExport) -> str:
    return html_ppi.render(demo_export)


def test_self_contained(document: str) -> None:
    assert_self_contained(document)


def test_verdict_cards_as_the_page_shows_them(document: str,
                                              demo_export: html_ppi.PPIExport) -> None:
    best = demo_export.analysis.estimate("ppi++").result
    shown = cards(document)
    assert shown["PPI++ nDCG@10, B − A"] == (repr(best.delta), format_delta(best.delta))
    assert shown["95% interval"][1] == (f"{format_delta(best.ci_low)} to "
                                        f"{format_delta(best.ci_high)}")
    assert shown["p"] == (repr(best.p_value), format_p(best.p_value))
    assert shown["Weight λ"] == (repr(best.lam), f"{best.lam:.2f}")
    assert shown["Gold / proxy-only"][1] == f"{best.n_gold:,} / {best.n_proxy:,}" == "60 / 340"
    text = page_text(document)
    assert plain(ppi_views.ppi_title(demo_export.analysis)) in text
    for sentence in ppi_sentences(demo_export.analysis)[1:]:
        assert " ".join(plain(sentence).split()) in text


def test_four_estimates_table_and_chart(document: str,
                                        demo_export: html_ppi.PPIExport) -> None:
    analysis = demo_export.analysis
    rows = table_rows(document, 0)
    # the demo's bias interval holds 0: the proxy's row does not call it biased
    assert [row[0][1] for row in rows] == ["PPI++ (λ estimated)", "gold only (λ = 0)",
                                           "classic PPI (λ = 1)", "proxy, uncorrected"]
    for row, key in zip(rows, ("ppi++", "gold", "ppi", "proxy"), strict=True):
        result = analysis.estimate(key).result
        assert row[1] == (repr(result.delta), format_delta(result.delta))
        assert row[2][1] == f"{format_delta(result.ci_low)} to {format_delta(result.ci_high)}"
        assert row[3][1] == {"ppi++": "t, 58 df", "gold": "t, 59 df", "ppi": "t, 59 df",
                             "proxy": "paired t"}[key]  # the demo's 60 gold queries
        assert row[4] == (repr(result.p_value), format_p(result.p_value))
        assert row[5] == (("", "—") if key == "proxy"
                          else (repr(result.lam), f"{result.lam:.2f}"))
    assert document.count("<svg") == 2  # the four intervals and the gold budget
    intervals_svg = document.split("<svg")[1].split("</svg>")[0]
    assert "proxy, uncorrected" in intervals_svg and "biased" not in intervals_svg
    best = analysis.estimate("ppi++").result
    assert (f"{format_delta(best.delta, 4)} ({format_delta(best.ci_low, 4)} to "
            f"{format_delta(best.ci_high, 4)})") in intervals_svg


def test_bias_budget_and_random_sample_warning(document: str,
                                               demo_export: html_ppi.PPIExport) -> None:
    analysis, budget = demo_export.analysis, demo_export.budget
    assert analysis.bias is not None and analysis.model is not None and budget is not None
    shown = cards(document)
    assert shown["Proxy − gold, on gold queries"][1] == format_delta(analysis.bias.bias)
    assert shown["Expected PPI++ width with 120 gold"] == (repr(budget.expected),
                                                           f"{budget.expected:.4f}")
    assert shown["Gold only with 120 gold"][1] == f"{budget.gold_only:.4f}"
    text = page_text(document)
    assert f"{format_delta(budget.change)} vs now" in text  # a real minus
    assert budget.change < 0 and 'class="delta green" data-direction="down"' in document
    assert f"so far: {analysis.model.correlation:.2f} on 60 gold queries" in text
    assert " ".join(RANDOM_SAMPLE_ASSUMPTION.split()) in text
    assert "Gold queries must be a random sample." in text
    # no warning in the demo: no Warnings section; the reassuring note sits under Notes
    assert 'id="warnings"' not in document
    notes = document.split('<section id="notes">')[1].split("</section>")[0]
    assert "60 gold queries: at or above the 30" in notes
    budget_svg = document.split("<svg")[2]
    assert f"now: 60 gold → {analysis.model.realised_width:.4f}" in budget_svg


def test_inputs_with_digests_and_every_setting(document: str,
                                               demo_export: html_ppi.PPIExport) -> None:
    text = page_text(document)
    assert len(demo_export.inputs) == 4
    for file in demo_export.inputs:
        assert file.sha256 in text and file.name in text
    assert "metric nDCG@10" in text and "alpha 0.05" in text
    assert "planned_gold_queries 120" in text
    assert f"ranklens {__version__}" in text


def test_embedded_json_holds_the_analysis(document: str,
                                          demo_export: html_ppi.PPIExport) -> None:
    embedded = strict_payload(document, html_ppi.JSON_ID, "ppi")
    analysis = demo_export.analysis
    estimates = {e["key"]: e["result"] for e in embedded["analysis"]["estimates"]}
    for key in ("ppi++", "ppi", "gold", "proxy"):
        result = analysis.estimate(key).result
        assert estimates[key]["delta"] == result.delta
        assert estimates[key]["lam"] == result.lam
        assert estimates[key]["ci_low"] == result.ci_low
    assert analysis.bias is not None and demo_export.budget is not None
    assert embedded["analysis"]["bias"]["bias"] == analysis.bias.bias
    assert embedded["budget"]["expected"] == demo_export.budget.expected
    assert embedded["budget"]["planned"] == 120
    assert demo_export.budget_curve is not None
    assert embedded["budget"]["curve"]["ppi"] == list(demo_export.budget_curve["ppi"])
    assert embedded["verdict"] == [plain(s) for s in ppi_sentences(analysis)]
    assert [f["sha256"] for f in embedded["inputs"]] == [f.sha256 for f in demo_export.inputs]


def test_run_names_are_escaped(demo_export: html_ppi.PPIExport) -> None:
    evil = "<script>alert(1)</script>"
    hostile = dataclasses.replace(
        demo_export, analysis=dataclasses.replace(demo_export.analysis,
                                                  run_names=(evil, "<b>B</b>")))
    document = html_ppi.render(hostile)
    assert evil not in document and "<b>B</b>" not in document
    assert evil in page_text(document)
    assert html_ppi.embedded(document)["analysis"]["run_names"] == [evil, "<b>B</b>"]


def test_rendering_is_deterministic(document: str, demo_export: html_ppi.PPIExport) -> None:
    assert html_ppi.render(demo_export) == document
