"""The MDE and PPI++ pages in Chromium: inputs change the numbers and the charts follow."""

from __future__ import annotations

import math
import re
from pathlib import Path
from statistics import NormalDist

from playwright.sync_api import Locator, Page, expect

from ranklens import demo
from tests.support.browser_reference import cli_ppi
from tests.support.streamlit_page import (
    assert_no_error,
    assert_rounds_to,
    card,
    choose_radio,
    expect_chart_text,
    grid_rows,
    mark_texts,
    metric_values,
    numbers_in,
    open_app,
    set_number,
    submit_form,
    upload_file,
)

TARGET = 0.01  # the MDE page's default target difference
PPI_UPLOADERS = {"run_a": "Run A (baseline)", "run_b": "Run B (candidate)",
                 "qrels_proxy": "Proxy judgements (all queries)",
                 "qrels_gold": "Gold judgements (a random sample)"}
ESTIMATE_KEYS = {"PPI++": "ppi++", "gold only": "gold", "classic PPI": "ppi", "proxy": "proxy"}


def z_mde(sd: float, n_queries: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The methods page's MDE, (z(1 - alpha/2) + z(power)) * sd / sqrt(n), from scratch."""
    normal = NormalDist()
    return (normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power)) * sd / math.sqrt(n_queries)


def z_queries_needed(delta: float, sd: float) -> int:
    """Queries the z formula needs to detect ``delta`` (at least 2)."""
    return max(2, math.ceil((z_mde(sd, 1) / delta) ** 2))


def chart_with_title(page: Page, title_part: str) -> Locator:
    """The one Vega chart whose text contains ``title_part`` (an axis or chart title)."""
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text=title_part)
    expect(chart).to_have_count(1)
    return chart


def assert_mde_page_shows(page: Page, sd: float, n_queries: int) -> None:
    """Cards and both charts show the z-based plan for this spread and number of queries."""
    mde = z_mde(sd, n_queries)
    needed = z_queries_needed(TARGET, sd)
    values = metric_values(page)
    assert_rounds_to(card(values, f"MDE with {n_queries:,} queries"), mde)
    assert card(values, "Queries needed for +0.0100") == f"{needed:,}"
    assert_rounds_to(card(values, "sd of differences"), sd)
    curve = chart_with_title(page, "minimum detectable effect")
    expect_chart_text(curve, f"{n_queries:,} queries \u2192 MDE {mde:.4f}")
    expect_chart_text(curve, f"+0.0100 needs {needed:,} queries")
    expect_chart_text(chart_with_title(page, "power"), f"MDE {mde:.4f}: 80.0% power")


def test_mde_follows_number_of_queries_and_spread(page: Page, app_url: str) -> None:
    open_app(page, f"{app_url}/mde")  # the page's own URL: the demo's Compare run is not needed
    choose_radio(page, "Spread from", "Type it in")
    set_number(page, "sd of per-query differences", 0.1)
    set_number(page, "Number of queries", 800)
    assert_mde_page_shows(page, sd=0.1, n_queries=800)
    set_number(page, "sd of per-query differences", 0.25)
    assert_mde_page_shows(page, sd=0.25, n_queries=800)
    set_number(page, "Number of queries", 150)
    assert_mde_page_shows(page, sd=0.25, n_queries=150)
    assert_no_error(page)


def upload_ppi_inputs(page: Page, files: dict[str, Path]) -> None:
    """Switch Data to 'My files', upload runs, proxy and gold judgements (then submit, if the
    uploads are in a form)."""
    choose_radio(page, "Data", "My files")
    for role, label in PPI_UPLOADERS.items():
        upload_file(page, label, files[role])
    submit = page.get_by_test_id("stFormSubmitButton")
    if submit.count():
        submit_form(page, submit.inner_text().strip())


def test_ppi_shows_four_intervals_from_uploaded_labels(page: Page, app_url: str) -> None:
    # the demo's files with the runs swapped: every difference differs from the demo's
    files = {**demo.paths(), "run_a": demo.paths()["run_b"], "run_b": demo.paths()["run_a"]}
    open_app(page, f"{app_url}/ppi")
    upload_ppi_inputs(page, files)
    expected = {estimate["key"]: estimate["result"] for estimate in cli_ppi(
        files["run_a"], files["run_b"], proxy=files["qrels_proxy"], gold=files["qrels_gold"]
    )["estimates"]}
    assert expected["ppi++"]["delta"] < 0  # swapped: B is the weaker run

    table = grid_rows(page.get_by_test_id("stDataFrame").first)  # the page's one table
    assert len(table) == 4
    shown = {}
    for row in table:
        key = next(k for prefix, k in ESTIMATE_KEYS.items() if row["estimate"].startswith(prefix))
        shown[key] = row
        result = expected[key]
        assert_rounds_to(row["B \u2212 A"], result["delta"])
        low, high = row["interval"].split(" to ")
        assert_rounds_to(low, result["ci_low"])
        assert_rounds_to(high, result["ci_high"])
    assert set(shown) == set(ESTIMATE_KEYS.values())

    chart = chart_with_title(page, "with 95% interval")
    delta_text = f"{expected['ppi++']['delta']:+.4f}".replace("-", "\u2212")
    expect_chart_text(chart, re.compile(rf"^{re.escape(delta_text)} \("))  # "d (lo to hi)"
    drawn = [numbers_in(text) for text in mark_texts(chart) if text.startswith(("+", "\u2212"))]
    assert len(drawn) == 4
    for numbers, key in zip(drawn, ("ppi++", "gold", "ppi", "proxy"), strict=True):
        result = expected[key]
        for number, value in zip(numbers, (result["delta"], result["ci_low"], result["ci_high"]),
                                 strict=True):
            assert math.isclose(number, value, abs_tol=5e-5 + 1e-12), (key, numbers)
    assert_no_error(page)
