"""The MDE page under streamlit.testing (AppTest): every number shown is the library's."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from ranklens.compare.analysis import demo_files
from ranklens.formats import format_percent
from ranklens.plan.analysis import (
    METHOD_NOTE,
    METHOD_SUMMARY,
    NON_SIGNIFICANT_MEANING,
    Pilot,
    pilot_from_files,
    plan_queries,
)
from ranklens.stats import minimum_detectable_effect, power, required_queries
from tests.support.page_testing import metric_cards, run_page

PAGE = Path(__file__).resolve().parents[2] / "pages" / "mde.py"


def start() -> AppTest:
    return run_page(PAGE)


shown = metric_cards


def typed(at: AppTest, sd: float, n_queries: int) -> AppTest:
    at.radio(key="mde_source").set_value("Type it in").run()
    at.number_input(key="mde_sd").set_value(sd).run()
    at.number_input(key="mde_n").set_value(n_queries).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table(at: AppTest):  # type: ignore[no-untyped-def]
    """The MDE table: the page's first; the seeds section's grid (tests/app/test_mde_seeds_page)
    is the second and last."""
    assert len(at.dataframe) == 2
    return at.dataframe[0].value


@pytest.fixture(scope="module")
def demo_pilot() -> Pilot:
    files = demo_files()
    return pilot_from_files(files["run_a"], files["run_b"], files["qrels"], "nDCG@10")


def test_first_visit_shows_the_demo_pilots_numbers(demo_pilot: Pilot) -> None:
    at = start()
    n = demo_pilot.n_queries
    values = shown(at)
    assert values[f"MDE with {n} queries"] == f"{minimum_detectable_effect(demo_pilot.sd, n):.4f}"
    assert values["sd of differences"] == f"{demo_pilot.sd:.4f}"
    assert values["Queries needed for +0.0100"] == f"{required_queries(0.01, demo_pilot.sd):,}"
    assert values["Power for +0.0100 now"] == format_percent(power(0.01, demo_pilot.sd, n))
    assert any(f"sd {demo_pilot.sd:.4f}" in caption.value for caption in at.caption)


def test_typed_spread_gives_the_methods_page_table() -> None:
    at = typed(start(), 0.1, 200)
    assert shown(at)["MDE with 200 queries"] == "0.0198"
    rows = table(at)
    assert list(rows["target difference"]) == ["+0.0200", "+0.0100", "+0.0050"]
    assert list(rows["queries needed"]) == [197, 785, 3140]


def test_mde_follows_n_and_spread() -> None:
    at = typed(start(), 0.1, 200)
    at.number_input(key="mde_n").set_value(800).run()
    assert shown(at)["MDE with 800 queries"] == f"{minimum_detectable_effect(0.1, 800):.4f}"
    at.number_input(key="mde_sd").set_value(0.25).run()
    assert shown(at)["MDE with 800 queries"] == f"{minimum_detectable_effect(0.25, 800):.4f}"
    assert shown(at)["sd of differences"] == "0.2500"


def test_t_method_alpha_power_and_target_reach_the_numbers() -> None:
    at = typed(start(), 0.1, 15)
    at.radio(key="mde_method").set_value("t").run()
    at.selectbox(key="mde_alpha").set_value(0.01).run()
    at.slider(key="mde_power").set_value(0.9).run()
    at.number_input(key="mde_target").set_value(0.03).run()
    assert not at.exception
    plan = plan_queries(0.1, n_queries=15, deltas=(0.02, 0.01, 0.005, 0.03), alpha=0.01,
                        target_power=0.9, method="t")
    values = shown(at)
    assert plan.mde is not None
    assert values["MDE with 15 queries"] == f"{plan.mde:.4f}"
    assert plan.mde > minimum_detectable_effect(0.1, 15, alpha=0.01, power=0.9, method="z")
    assert values["Queries needed for +0.0300"] == f"{plan.rows[-1].queries_needed:,}"
    assert list(table(at)["queries needed"]) == [row.queries_needed for row in plan.rows]


def test_says_what_a_non_significant_result_means() -> None:
    at = typed(start(), 0.1, 200)
    assert any(NON_SIGNIFICANT_MEANING in block.value for block in at.markdown)
    assert any("z or t?" in header.value for header in at.subheader)
    assert METHOD_SUMMARY in [block.value for block in at.markdown]
    assert [e.label for e in at.expander] == ["The two formulas"]
    assert METHOD_NOTE in [block.value for block in at.expander[0].markdown]


def test_both_charts_are_drawn_with_the_curve_through_the_choice() -> None:
    at = typed(start(), 0.1, 200)
    charts = list(at.get("vega_lite_chart"))
    assert len(charts) == 2
    datasets = [convert_arrow_bytes_to_pandas_df(d.data.data)
                for d in charts[0].proto.datasets]
    curve = next(frame for frame in datasets if "mde" in frame and len(frame) > 10)
    at_200 = float(curve.loc[curve["n_queries"] == 200, "mde"].iloc[0])
    assert at_200 == pytest.approx(minimum_detectable_effect(0.1, 200))


def test_a_per_query_table_with_two_columns_gives_their_spread() -> None:
    text = "query_id,bm25,neural\n" + "".join(
        f"q{i},{0.3 + 0.01 * (i % 7)},{0.35 + 0.013 * (i % 5)}\n" for i in range(60))
    at = start()
    at.radio(key="mde_source").set_value("My per-query table(s)").run()
    at.file_uploader(key="mde_table_a").upload("pilot.csv", text.encode())
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="mde_column_b").set_value("neural").run()
    at.selectbox(key="mde_column_a").set_value("bm25").run()
    deltas = [(0.35 + 0.013 * (i % 5)) - (0.3 + 0.01 * (i % 7)) for i in range(60)]
    sd = statistics.stdev(deltas)
    assert shown(at)["sd of differences"] == f"{sd:.4f}"


def test_a_bad_pilot_file_is_an_error_in_words() -> None:
    at = start()
    at.radio(key="mde_source").set_value("My pilot runs").run()
    at.file_uploader(key="mde_run_a").upload("a.trec", b"q1 Q0 d1 1 oops tag\n")
    at.file_uploader(key="mde_run_b").upload("b.trec", b"q1 Q0 d1 1 2.0 tag\n")
    at.file_uploader(key="mde_qrels").upload("q.trec", b"q1 0 d1 1\n")
    at.run()
    assert not at.exception
    assert len(at.error) == 1 and "a.trec" in at.error[0].value
    assert "Traceback" not in at.error[0].value


def test_report_html_download_sits_beside_share_and_renders_on_click() -> None:
    at = start()
    downloads = [b.proto for b in at.get("download_button") if b.proto.label == "Report (HTML)"]
    assert len(downloads) == 1
    assert downloads[0].deferred_file_id and downloads[0].ignore_rerun  # built on click only
    assert [b.label for b in at.button] == ["Share"]
    typed_in = typed(start(), 0.1, 200)  # a typed-in spread has the download too
    assert [b.proto.label for b in typed_in.get("download_button")] == ["Report (HTML)"]


def test_the_pilots_files_are_listed_as_compare_lists_them(demo_pilot: Pilot) -> None:
    # issue 26: the pilot carries its read summaries; the page shows Compare's expander
    from ranklens.app.markup import text

    at = start()
    (inputs,) = [e for e in at.expander if e.label.startswith("Inputs:")]
    assert inputs.label == "Inputs: 3 files read"
    assert [block.value for block in inputs.markdown] == [
        f"**{r.role.replace('_', ' ')}** · {text(r.summary['description'])}  \n"
        f"<small>sha256 {r.sha256[:16]}… · {r.size:,} bytes</small>" for r in demo_pilot.inputs]
    assert [r.summary["description"] for r in demo_pilot.inputs] == [
        "bm25_baseline.trec (trec-run): 40,000 rows, 400 queries.",
        "neural_reranker.trec (trec-run): 40,000 rows, 400 queries.",
        "qrels.trec (trec-qrels): 24,071 rows, 400 queries, 21,411 documents."]
