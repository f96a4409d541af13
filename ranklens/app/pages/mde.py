"""MDE page: is this many queries enough to see the difference I care about?

Sidebar: where the spread of per-query differences comes from (the bundled pilot runs, your
pilot runs + judgements, your per-query tables, or a number typed in), the number of queries,
alpha, power and the z or t method. Main area: the MDE, the queries a target difference needs,
the methods page's table, MDE against the number of queries and power against the true
difference. The thinking is in ``ranklens.plan.analysis``; this page collects and draws.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from ranklens.app import downloads, inputs_view, mde_seeds, share_widget, widgets
from ranklens.app import state as app_state
from ranklens.app.cards import show_card
from ranklens.app.entrypoint import run_through_app
from ranklens.formats import literal
from ranklens.io import InputError, InputFile
from ranklens.methods import methods_link
from ranklens.metrics.ordering import ORDERS
from ranklens.plan import analysis as planning
from ranklens.plan import charts as plan_charts
from ranklens.plan import export as plan_export
from ranklens.plan import html as html_plan
from ranklens.plan import views as plan_views
from ranklens.plan.settings import PlanSettings, SpreadSource, default_deltas
from ranklens.share.differences import payload_changes
from ranklens.share.links import Shared
from ranklens.stats import POWER_METHODS, InsufficientSampleError

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

DEMO, PILOT, TABLES, TYPED = ("Demo pilot runs", "My pilot runs", "My per-query table(s)",
                              "Type it in")
DIFFERENCES_ONLY = "(none: column B already holds B − A)"
TYPED_QUERIES = 200  # a typed-in spread starts at the Methods page's example (sd 0.1, n 200)
ORDER_LABELS = {"score": "score (trec_eval)", "rank": "rank column"}
METHOD_LABELS = {"auto": "auto", "z": "z (normal)", "t": "t (noncentral)"}


# ---- results, kept in the app's cache ---------------------------------------------------------

def plan_for(sd: float, n_queries: int, deltas: tuple[float, ...], alpha: float, power: float,
             method: str) -> planning.QueryPlan:
    return app_state.cached(
        "mde_plan", (sd, n_queries, deltas, alpha, power, method),
        lambda: planning.plan_queries(sd, n_queries=n_queries, deltas=deltas, alpha=alpha,
                                      target_power=power, method=method),
        label="Computing the plan…")


def curves_for(plan: planning.QueryPlan) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two charts' points of ``plan`` (``ranklens.plan.export.curves``), once per plan."""
    key = (plan.sd, plan.n_queries, tuple(row.delta for row in plan.rows), plan.alpha,
           plan.power, plan.method)
    return app_state.cached("mde_curves", key, lambda: plan_export.curves(plan))


# ---- inputs -----------------------------------------------------------------------------------

def choose_spread() -> planning.Pilot | float | None:
    """Sidebar: the spread, measured on a pilot or typed in. None until uploads are complete."""
    with st.sidebar:
        st.subheader("Spread of per-query differences", anchor=False)
        source = st.radio(
            "Spread from", (DEMO, PILOT, TABLES, TYPED), key="mde_source",
            help="The standard deviation of the per-query differences B − A decides the MDE. "
                 "Measure it on a pilot (two runs you have now) or type it in.")
        if source == TYPED:
            return float(st.number_input(
                "sd of per-query differences", min_value=0.0001, max_value=2.0, value=0.1,
                step=0.01, format="%.4f", key="mde_sd",
                help=f"The example on the {methods_link('mde')} uses 0.1 (nDCG@10 "
                     "differences)."))
        if source == DEMO:
            st.caption("Bundled demo: a BM25 baseline against a neural re-ranker on 400 "
                       "queries with graded judgements.")
            demo = app_state.demo_files()
            metric, order = widgets.metric("mde_metric"), choose_order()
            return app_state.pilot(demo["run_a"], demo["run_b"], demo["qrels"], metric, order)
        if source == PILOT:
            help_text = widgets.FORMATS_HELP
            run_a, run_b, qrels = (
                st.file_uploader("Pilot run A", key="mde_run_a", help=help_text),
                st.file_uploader("Pilot run B", key="mde_run_b", help=help_text),
                st.file_uploader("Judgements (qrels)", key="mde_qrels",
                                 help="query_id, doc_id, grade. " + help_text))
            metric, order = widgets.metric("mde_metric"), choose_order()
            if run_a is None or run_b is None or qrels is None:
                st.info("Upload both pilot runs and their judgements.")
                return None
            return app_state.pilot(app_state.input_file("run_a", run_a),
                                   app_state.input_file("run_b", run_b),
                                   app_state.input_file("qrels", qrels), metric, order)
        return choose_tables()


def choose_order() -> str:
    return str(st.radio("Order documents by", ORDERS, format_func=ORDER_LABELS.__getitem__,
                        key="mde_order", horizontal=True,
                        help="Score, ties broken by doc id as trec_eval does; or the runs' "
                             "rank column, for runs whose scores do not carry their order."))


def choose_tables() -> planning.Pilot | None:
    upload_a = st.file_uploader(
        "Per-query table", key="mde_table_a",
        help="query_id and one column per metric (or query_id, metric, value, or trec_eval "
             "-q output). One table with a column per run, or one table per run.")
    upload_b = st.file_uploader("Second table (run B, optional)", key="mde_table_b",
                                help="When run B is in its own table.")
    if upload_a is None:
        st.info("Upload a per-query table.")
        return None
    first = app_state.input_file("table_a", upload_a)
    columns_a = app_state.per_query_columns(first)
    if upload_b is not None:
        second = app_state.input_file("table_b", upload_b)
        columns_b = app_state.per_query_columns(second)
        common = planning.common_columns((first.name, list(columns_a)),
                                         (second.name, list(columns_b)))
        metric = st.selectbox("Metric", common, key="mde_table_metric")
        return planning.pilot_from_columns(columns_a[metric], columns_b[metric],
                                           files=(first.name, second.name))
    names = list(columns_a)
    column_b = st.selectbox("Column of run B", names, index=min(1, len(names) - 1),
                            key="mde_column_b")
    others = [DIFFERENCES_ONLY, *(name for name in names if name != column_b)]
    column_a = st.selectbox("Column of run A", others, index=min(1, len(others) - 1),
                            key="mde_column_a")
    return planning.pilot_from_columns(
        None if column_a == DIFFERENCES_ONLY else columns_a[column_a], columns_a[column_b])


def choose_settings(default_n: int) -> tuple[int, float, float, str, float]:
    """Sidebar: number of queries, alpha, power, method and the user's target difference.

    The number of queries follows ``default_n`` (the pilot's, or the Methods page's example
    for a typed-in spread) until the user types one of their own.
    """
    with st.sidebar:
        st.subheader("Test", anchor=False)
        widgets.follow_default("mde_n", default_n)
        n_queries = st.number_input(
            "Number of queries", min_value=2, max_value=10_000_000, step=50, key="mde_n",
            help="How many queries the comparison will have. Default: the pilot's, or "
                 f"{TYPED_QUERIES} for a typed-in spread; a number you type stays.")
        alpha = widgets.alpha("mde_alpha", two_sided_test=True)
        power = st.slider("Power", min_value=0.5, max_value=0.99, value=0.8, step=0.01,
                          key="mde_power",
                          help="Chance that a true difference of the MDE comes out significant.")
        method = st.radio(
            "Method", ("auto", *POWER_METHODS), key="mde_method", horizontal=True,
            format_func=METHOD_LABELS.__getitem__,
            help=planning.METHOD_NOTE)
        target = st.number_input(
            "Target difference", min_value=0.0001, max_value=1.0, value=0.01, step=0.001,
            format="%.4f", key="mde_target",
            help="The smallest improvement worth detecting, in metric units.")
    return int(n_queries), float(alpha), float(power), str(method), float(target)


# ---- share links: the spread's inputs as a snapshot, and back --------------------------------

SOURCE_KEYS = {DEMO: "demo", PILOT: "pilot", TABLES: "tables", TYPED: "typed"}
PILOT_ROLES = (("run_a", "mde_run_a"), ("run_b", "mde_run_b"), ("qrels", "mde_qrels"))


def spread_snapshot() -> tuple[SpreadSource, tuple[InputFile, ...]]:
    """The spread's settings and files as chosen in the sidebar (after `choose_spread`)."""
    state = st.session_state
    source = SOURCE_KEYS[state["mde_source"]]
    if source == "typed":
        return SpreadSource(source, sd=float(state["mde_sd"])), ()
    if source == "demo":
        demo = app_state.demo_files()
        return (SpreadSource(source, metric=str(state["mde_metric"]),
                             order=str(state["mde_order"])),
                tuple(demo[role] for role, _ in PILOT_ROLES))
    if source == "pilot":
        return (SpreadSource(source, metric=str(state["mde_metric"]),
                             order=str(state["mde_order"])),
                tuple(app_state.input_file(role, state[key]) for role, key in PILOT_ROLES))
    files = tuple(app_state.input_file(role, state[key]) for role, key
                  in (("table_a", "mde_table_a"), ("table_b", "mde_table_b"))
                  if state.get(key) is not None)
    if len(files) == 2:
        return SpreadSource(source, metric=str(state["mde_table_metric"])), files
    return (SpreadSource(source, column_a=str(state["mde_column_a"]),
                         column_b=str(state["mde_column_b"])), files)


def shared_spread(spread: SpreadSource, shared: Shared) -> planning.Pilot | float:
    """The spread of a shared MDE page (``spread``: its settings), measured again on its
    files."""
    if spread.sd is not None:  # typed in
        return spread.sd
    files = {f.role: f for f in shared.files}
    if spread.order is not None:  # demo or pilot runs
        assert spread.metric is not None
        return app_state.pilot(files["run_a"], files["run_b"], files["qrels"], spread.metric,
                               spread.order)
    columns_a = app_state.per_query_columns(files["table_a"])
    if spread.metric is not None:  # one table per run
        columns_b = app_state.per_query_columns(files["table_b"])
        return planning.pilot_from_columns(columns_a[spread.metric], columns_b[spread.metric],
                                           files=(files["table_a"].name, files["table_b"].name))
    assert spread.column_a is not None and spread.column_b is not None
    return planning.pilot_from_columns(
        None if spread.column_a == DIFFERENCES_ONLY else columns_a[spread.column_a],
        columns_a[spread.column_b])


def stored_export(shared: Shared | None) -> html_plan.MdeExport | None:
    """The plan a shared link stored, when the viewer looks at the stored numbers; None for
    the user's own page, a recomputation, or a link that stored no numbers."""
    if shared is None or shared.result is None or share_widget.recompute_wanted(shared):
        return None
    try:
        return html_plan.export_from_payload(shared.result, shared.files)
    except ValueError as error:
        share_widget.show_unreadable_result(
            f"The numbers stored with this link (computed by ranklens {shared.computed_by}) "
            f"cannot be read by this version ({error})")
        return None


def offer_actions(places: tuple[Any, Any], export: html_plan.MdeExport,
                  shared: Shared | None, stored: html_plan.MdeExport | None) -> None:
    """The HTML download, and the Share button (own page) or what a recomputation changed,
    in ``places`` (the actions row, and the place above it for the recomputation's note)."""
    actions, notice = places
    offer_html(actions.container(width="content"), export)
    if shared is None:
        with actions.container():
            share_widget.share_action("mde", export.settings, export.inputs,
                                      html_plan.payload(export))
    elif stored is None and shared.result is not None:
        with notice:
            share_widget.show_recomputed(
                shared, payload_changes(shared.result, html_plan.payload(export)))


# ---- output -----------------------------------------------------------------------------------

def show_spread(measured: planning.Pilot | float) -> float:
    if isinstance(measured, planning.Pilot):
        st.caption(plan_views.spread_caption(measured.sd, measured.note,
                                             measured.mean_delta))
        warned = inputs_view.warning_lines(measured.warnings, measured.inputs)
        if warned:
            st.warning("\n".join(f"- {literal(m)}" for m in warned), icon=":material/warning:")
        inputs_view.show_inputs(measured.inputs)
        return measured.sd
    st.caption(plan_views.spread_caption(measured, None, None))
    return measured


def show_headline(plan: planning.QueryPlan, target_row: planning.PlanRow,
                  other_mde: float) -> None:
    with st.container(border=True):
        for cell, card in zip(st.columns(4), plan_views.mde_cards(plan, target_row,
                                                                      other_mde), strict=True):
            show_card(cell, card)
        st.markdown(plan_views.mde_sentence(plan, other_mde))


def show_table(plan: planning.QueryPlan) -> None:
    assert plan.n_queries is not None
    st.dataframe(
        plan_views.plan_table(plan), hide_index=True, width="stretch", key="mde_table",
        column_config={
            "queries needed": st.column_config.NumberColumn(format="localized"),
            plan_views.power_column(plan):
                st.column_config.ProgressColumn(format="%.1f%%", min_value=0, max_value=100),
        })


def offer_html(place: Any, export: html_plan.MdeExport) -> None:
    """The "Report (HTML)" button in ``place``: this plan as one offline file."""
    downloads.html_button(
        lambda: html_plan.render(export), file_name="ranklens-mde.html", container=place,
        key="mde_html",
        help="The spread, MDE, queries-needed table, both charts, the z-or-t note, the pilot "
             "files with digests and every setting in one file that opens without a network.")


def show_table_and_method(plan: planning.QueryPlan) -> None:
    """The queries-needed table beside the z-or-t note."""
    table_column, note_column = st.columns([3, 2], gap="large")
    with table_column:
        st.subheader("Queries needed per target difference", anchor=False)
        show_table(plan)
    with note_column:
        st.subheader("z or t?", anchor=False)
        st.markdown(planning.METHOD_SUMMARY)
        with st.expander("The two formulas"):
            st.markdown(planning.METHOD_NOTE)


def show_charts(plan: planning.QueryPlan, mde_curve: pd.DataFrame,
                power_curve: pd.DataFrame) -> None:
    """The MDE against the number of queries, beside the power at the plan's n."""
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader("MDE against the number of queries", anchor=False)
        st.altair_chart(plan_charts.mde_chart(mde_curve, plan), width="stretch",
                        key="mde_chart")
        st.caption(plan_views.MDE_CHART_CAPTION)
    with right:
        st.subheader(f"Power with {plan.n_queries:,} queries", anchor=False)
        st.altair_chart(plan_charts.power_chart(power_curve, plan), width="stretch",
                        key="mde_power_chart")
        st.caption(plan_views.power_chart_caption(plan.alpha))


def main() -> None:
    st.title("How many queries? Minimum detectable effect")
    st.caption("Asked before labelling: which difference can this many queries resolve, and "
               "how many queries does the difference I care about need?")
    shared = share_widget.shared_for("mde")  # a ?report= link: its inputs and settings
    try:  # links of every version since share links began, defaults of old ones filled in
        shared_plan = (None if shared is None
                       else PlanSettings.from_dict(shared.settings, written_by=shared.version))
    except ValueError as error:
        st.error(f"**Cannot open this link's settings.** {literal(error)}",
                 icon=":material/error:")
        return
    stored = stored_export(shared)  # ... and its numbers, drawn as stored
    measured: planning.Pilot | float | None
    try:
        if stored is not None:
            measured = stored.pilot if stored.pilot is not None else stored.plan.sd
        elif shared is None or shared_plan is None:
            measured = choose_spread()
        else:
            measured = shared_spread(shared_plan.spread, shared)
    except (InputError, InsufficientSampleError, ValueError) as error:
        st.error(f"**Cannot measure the spread.** {literal(error)}", icon=":material/error:")
        return
    if measured is None:
        return
    files: tuple[InputFile, ...]
    if shared is None or shared_plan is None:
        default_n = (measured.n_queries if isinstance(measured, planning.Pilot)
                     else TYPED_QUERIES)
        n_queries, alpha, power, method, target = choose_settings(max(2, default_n))
        spread, files = spread_snapshot()
        if isinstance(measured, planning.Pilot) and spread.metric is not None:
            # resolved: the canonical metric name
            spread = dataclasses.replace(spread, metric=measured.metric)
        # every setting resolved, the table's target differences included: a link shows
        # what its author chose even after a default changes
        settings = PlanSettings(spread, n_queries, alpha, power, method, target,
                                default_deltas(target))
    else:
        settings, files = shared_plan, tuple(shared.files)
    n_queries, alpha, power, method, target = (settings.n_queries, settings.alpha,
                                               settings.power, settings.method, settings.target)
    sd = show_spread(measured)
    places = (st.container(horizontal=True), st.container())  # filled once the plan is ready
    plan = (stored.plan if stored is not None
            else plan_for(sd, n_queries, settings.deltas, alpha, power, method))
    target_row = next(row for row in plan.rows if row.delta == target)
    other_mde = stored.other_mde if stored is not None else plan_views.other_method_mde(plan)
    export = html_plan.MdeExport(plan, target, other_mde,
                                 measured if isinstance(measured, planning.Pilot) else None,
                                 settings, files)
    if sd < planning.NO_SPREAD_SD:  # nothing to plan: say so instead of an MDE of 0
        st.warning(planning.no_spread_sentence(
            sd, measured if isinstance(measured, planning.Pilot) else None),
            icon=":material/block:")
        offer_actions(places, export, shared, stored)
        return
    show_headline(plan, target_row, other_mde)
    show_table_and_method(plan)

    if stored is not None and stored.mde_curve is not None and stored.power_curve is not None:
        mde_curve, power_curve = stored.mde_curve, stored.power_curve
    else:
        mde_curve, power_curve = curves_for(plan)
    offer_actions(places,
                  dataclasses.replace(export, mde_curve=mde_curve, power_curve=power_curve),
                  shared, stored)
    show_charts(plan, mde_curve, power_curve)
    # the seeds' plan has no "auto": it takes the method the MDE above was computed with
    mde_seeds.show(alpha=alpha, power=power,
                   method=plan.method if plan.method in POWER_METHODS else "z", target=target,
                   metric=measured.metric if isinstance(measured, planning.Pilot)
                   and measured.metric else "nDCG@10")


main()
