"""Issue 32 on the pages (AppTest): the FCR toggle of the forest plot, the collections control
and the PPI page's judge check, each against the library on the demo."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from ranklens.app.segment_intervals import TOGGLE_LABEL
from ranklens.compare.analysis import demo_files
from ranklens.compare.sections.collections import MACRO_ROW, MACRO_TITLE
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.judge_views import JUDGE_TITLE, kappa_table
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]


def forest(at: AppTest) -> pd.DataFrame:
    """The data of the segments' forest plot (the chart whose rows carry an FCR interval)."""
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            data = convert_arrow_bytes_to_pandas_df(dataset.data.data)
            if "fcr_low" in data and "bar_low" in data and data["fcr_low"].notna().any():
                return data
    raise AssertionError("no forest plot with FCR intervals on the page")


@pytest.fixture(scope="module")
def compare_page() -> AppTest:
    return run_page(ROOT / "app.py")


def test_forest_plot_draws_fcr_intervals_by_default_and_marginal_on_the_toggle(
        compare_page: AppTest) -> None:
    at = compare_page
    data = forest(at)
    segments = data[data["kind"] == "segment"]
    assert (segments["bar_low"] == segments["fcr_low"]).all()
    assert (segments["bar_high"] == segments["fcr_high"]).all()
    assert (segments["fcr_low"] <= segments["ci_low"]).all()  # wider than the marginal ones
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Segment intervals are FCR-adjusted") for c in captions)
    toggle = next(t for t in at.toggle if t.label == TOGGLE_LABEL)
    assert toggle.value is False
    toggle.set_value(True).run()
    assert not at.exception
    data = forest(at)
    segments = data[data["kind"] == "segment"]
    assert (segments["bar_low"] == segments["ci_low"]).all()
    assert (segments["bar_high"] == segments["ci_high"]).all()
    assert any(c.value.startswith("Segment intervals are marginal") for c in at.caption)
    next(t for t in at.toggle if t.label == TOGGLE_LABEL).set_value(False).run()


def test_collections_control_leads_with_the_macro_average(compare_page: AppTest) -> None:
    at = compare_page
    next(s for s in at.selectbox if s.label == "Collections").set_value("length").run()
    assert not at.exception, [e.value for e in at.exception]
    titles = [s.value for s in at.subheader]
    macro_titles = [t for t in titles if t.startswith(MACRO_TITLE)]
    assert macro_titles, titles
    # the macro section comes before the leaderboard and the segments
    assert titles.index(macro_titles[0]) < next(i for i, t in enumerate(titles)
                                                if t.startswith("Leaderboard"))
    tables = [d.value for d in at.dataframe if "B \u2212 A" in d.value
              and MACRO_ROW in list(d.value.iloc[:, 0])]
    assert tables and list(tables[0].iloc[:, 0])[-1] == MACRO_ROW
    assert list(tables[0].iloc[:, 0])[:3] == ["head (1 term)", "tail (4+ terms)",
                                              "torso (2-3 terms)"]
    sentences = [m.value for m in at.markdown if "Macro average over 3 collections" in m.value]
    assert sentences and "Pooled over all 400 queries" in sentences[0]


def test_ppi_page_shows_the_judge_check_with_the_librarys_kappas() -> None:
    at = run_page(ROOT / "pages" / "ppi.py")
    assert not at.exception, [e.value for e in at.exception]
    assert JUDGE_TITLE in [s.value for s in at.subheader]
    assert next(s for s in at.selectbox if s.label == "Judge per segment of").value == "length"
    files = demo_files()
    analysis = analyse_ppi(files["run_a"], files["run_b"], files["qrels_proxy"],
                           files["qrels_gold"], "nDCG@10", segments=files["segments"],
                           segment_column="length")
    assert analysis.judge is not None
    expected = kappa_table(analysis.judge)[["weights", "kappa", "interval"]]
    shown = [d.value for d in at.dataframe if "weights" in d.value]
    assert len(shown) == 1
    pd.testing.assert_frame_equal(shown[0].reset_index(drop=True), expected)
    per_segment = next(d.value for d in at.dataframe if "gold queries" in d.value)
    assert list(per_segment["segment"]) == ["head (1 term)", "tail (4+ terms)",
                                            "torso (2-3 terms)"]
    assert list(per_segment["note"]) == [
        f"PPI++: {30 - row.n_gold} more gold needed"
        for row in analysis.judge.segments]
