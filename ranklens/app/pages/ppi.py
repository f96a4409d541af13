"""PPI page: cheap (proxy) judgements on every query, corrected by a random gold sample.

Sidebar: runs A and B, proxy qrels covering all queries, gold qrels on a random sample (the
bundled demo by default), the metric and alpha; the random-sample assumption is stated right
where the gold sample is chosen. Main area: the PPI++ difference with its interval, p, the
weight lambda and the query counts; the four intervals on one chart; the proxy's measured bias;
warnings; the gold-budget planner; which queries to label next (a labelling plan,
``ranklens.app.ppi_plan``). The thinking is in ``ranklens.ppi.analysis`` and
``ranklens.ppi.labelling``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pandas as pd
import streamlit as st

from ranklens.app import downloads, inputs_view, ppi_judge, ppi_plan, share_widget, widgets
from ranklens.app import state as app_state
from ranklens.app.cards import show_card
from ranklens.app.entrypoint import run_through_app
from ranklens.formats import literal
from ranklens.io import InputError, InputFile
from ranklens.metrics.ordering import ORDERS
from ranklens.ppi import charts as ppi_charts
from ranklens.ppi import html as html_ppi
from ranklens.ppi import verdict_words
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import PPIAnalysis, budget_curve
from ranklens.ppi.settings import PPISettings
from ranklens.share.differences import payload_changes
from ranklens.share.links import Shared
from ranklens.stats import MIN_GOLD, InsufficientSampleError

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

ROLES = ("run_a", "run_b", "qrels_proxy", "qrels_gold")
ORDER_LABELS = {"score": "score (trec_eval)", "rank": "rank column"}


def choose_inputs() -> tuple[tuple[InputFile, ...], PPISettings] | None:
    """Sidebar: the four files, metric, alpha and order (the metric as typed: the analysis
    resolves its name). None until the uploads are complete."""
    with st.sidebar:
        files: tuple[InputFile, ...] | None = None
        demo = widgets.uses_demo(
            "ppi_source", "Bundled demo: BM25 against a neural re-ranker on 400 queries; proxy "
            "labels from an “LLM judge” that over-rates long documents, gold labels on a random "
            "15% of the queries; the judge checked per query length.")
        if demo:
            bundled = app_state.demo_files()
            files = tuple(bundled[role] for role in ROLES)
        else:
            help_text = widgets.FORMATS_HELP
            uploads = [
                st.file_uploader("Run A (baseline)", key="ppi_run_a", help=help_text),
                st.file_uploader("Run B (candidate)", key="ppi_run_b", help=help_text),
                st.file_uploader("Proxy judgements (all queries)", key="ppi_proxy",
                                 help="Cheap labels — an LLM, one assessor — on every query. "
                                      + help_text),
                st.file_uploader("Gold judgements (a random sample)", key="ppi_gold",
                                 help="Trusted labels on a random sample of the queries; each "
                                      "gold query needs proxy labels too. " + help_text),
            ]
            if all(upload is not None for upload in uploads):
                files = tuple(app_state.input_file(role, upload)
                              for role, upload in zip(ROLES, uploads, strict=True)
                              if upload is not None)
        st.warning(ppi_views.RANDOM_SAMPLE_WARNING, icon=":material/casino:")
        segments, segment_column = ppi_judge.choose_segments(demo=demo)
        metric = widgets.metric("ppi_metric")
        alpha = widgets.alpha("ppi_alpha")
        order = st.radio("Order documents by", ORDERS, format_func=ORDER_LABELS.__getitem__,
                         key="ppi_order", horizontal=True,
                         help="Score, ties broken by doc id as trec_eval does; or the runs' "
                              "rank column, for runs whose scores do not carry their order.")
    if files is None:
        st.info("Upload run A, run B, the proxy judgements and the gold judgements in the "
                "sidebar, or switch **Data** back to the demo.")
        return None
    return ((*files, *(() if segments is None else (segments,))),
            PPISettings(metric=str(metric), alpha=float(alpha), order=str(order),
                        segment_column=segment_column))


def show_headline(analysis: PPIAnalysis) -> None:
    with st.container(border=True):
        st.subheader(ppi_views.ppi_title(analysis), anchor=False)
        cells = st.columns([1, 1.8, 0.8, 0.7, 1.1])
        for cell, card in zip(cells, ppi_views.ppi_cards(analysis), strict=True):
            show_card(cell, card)
        for sentence in verdict_words.ppi_sentences(analysis)[1:]:
            st.markdown(sentence)


def show_intervals(analysis: PPIAnalysis) -> None:
    st.subheader("Four estimates of the same difference", anchor=False)
    st.altair_chart(ppi_charts.intervals_chart(analysis), width="stretch",
                    key="ppi_intervals")
    table = ppi_views.intervals_table(analysis, ppi_charts.intervals_data(analysis))
    st.dataframe(table, hide_index=True, width="stretch", key="ppi_table")
    st.caption(verdict_words.intervals_note(analysis))
    note = ppi_views.lambda_note(analysis)
    if note:
        st.caption(note)
    st.caption(ppi_views.INTERVALS_CAPTION)


def show_bias(analysis: PPIAnalysis) -> None:
    bias, sentence = analysis.bias, ppi_views.bias_sentence(analysis)
    if bias is None or sentence is None:
        return
    st.subheader("The proxy's bias on this difference", anchor=False)
    for cell, card in zip(st.columns([1, 1.4, 0.8]), ppi_views.bias_cards(bias), strict=True):
        show_card(cell, card)
    st.markdown(sentence)
    st.caption(verdict_words.BIAS_MEANING)


def show_warnings(analysis: PPIAnalysis) -> None:
    """The analysis's warnings in a warning box; a reassuring note only as a caption."""
    messages = ppi_views.ppi_warnings(analysis)
    note = ppi_views.enough_gold_note(analysis)
    if messages:
        st.warning("\n".join(f"- {literal(m)}" for m in messages), icon=":material/warning:")
    if note:
        st.caption(note)


def show_budget(analysis: PPIAnalysis, files: Mapping[str, InputFile] | None = None
                ) -> tuple[ppi_views.GoldBudget, pd.DataFrame] | None:
    """The gold-budget planner; answers the budget chosen and the chart's curve (the uniform
    one: the export keeps that). With the page's ``files`` the chart also draws the labelling
    plan's curve (`ppi_plan.plan_beside`)."""
    model = analysis.model
    if model is None:
        return None
    best = analysis.estimate("ppi++").result
    pool = model.n_gold + model.n_proxy_only
    st.subheader("Gold budget: how many gold queries are worth labelling?", anchor=False)
    left, right = st.columns([2, 1], gap="large")
    with right:
        planned = st.number_input(
            "Gold queries you could label", min_value=2, max_value=pool,
            value=ppi_views.default_planned(model), step=10, key="ppi_planned_gold",
            help=f"Out of the same {pool:,} queries; the rest keep proxy labels only.")
        budget = ppi_views.gold_budget(model, int(planned))
        for card in ppi_views.budget_cards(budget):
            show_card(st, card)
        st.caption(ppi_views.correlation_note(model))
    with left:
        curve = budget_curve(model)
        drawn = curve if files is None else ppi_plan.plan_beside(
            curve, files["run_a"], files["run_b"], files["qrels_proxy"], analysis.metric,
            model.alpha, pool)
        st.altair_chart(ppi_charts.budget_chart(drawn, best.n_gold, model.realised_width,
                                                     min_gold=MIN_GOLD),
                        width="stretch", key="ppi_budget")
        st.caption(ppi_views.budget_caption(model, plan="plan" in drawn.columns))
    return budget, curve


# Payload parts the viewer of a page sets (the gold-budget planner), not the version.
VIEWER_CHOICES = ("budget", "planned_gold_queries", "label_plan", "label_plan_budget",
                  "label_plan_seed", "label_plan_rounds", "label_plan_effect")


def stored_analysis(shared: Shared | None) -> PPIAnalysis | None:
    """The analysis a shared link stored, when the viewer looks at the stored numbers; None
    for the user's own page, a recomputation, or a link that stored no numbers."""
    if shared is None or shared.result is None or share_widget.recompute_wanted(shared):
        return None
    try:
        return html_ppi.analysis_from_payload(shared.result)
    except ValueError as error:
        share_widget.show_unreadable_result(
            f"The numbers stored with this link (computed by ranklens {shared.computed_by}) "
            f"cannot be read by this version ({error})")
        return None


def main() -> None:
    st.title("Cheap labels, corrected on gold (PPI++)")
    st.caption("My labels are cheap (an LLM, one assessor). What does a small random sample of "
               "trusted labels say about B − A, and about the cheap labels' bias?")
    st.caption(f"{ppi_views.FILL_OR_CORRECT} [{ppi_views.FILL_LINK_LABEL}](/)")
    shared = share_widget.shared_for("ppi")  # a ?report= link: its inputs and settings
    chosen: tuple[tuple[InputFile, ...], PPISettings] | None
    if shared is None:
        chosen = choose_inputs()
    else:
        try:  # links of every version since share links began, defaults of old ones filled in
            chosen = shared.files, PPISettings.from_dict(shared.settings,
                                                         written_by=shared.version)
        except ValueError as error:
            st.error(f"**Cannot open this link's settings.** {literal(error)}",
                     icon=":material/error:")
            return
    if chosen is None:
        return
    files, chosen_settings = chosen
    stored = stored_analysis(shared)  # a link's numbers, drawn as stored
    try:
        by_role = {f.role: f for f in files}
        analysis = stored if stored is not None else app_state.ppi_analysis(
            by_role["run_a"], by_role["run_b"], by_role["qrels_proxy"], by_role["qrels_gold"],
            chosen_settings.metric, chosen_settings.alpha, chosen_settings.order,
            by_role.get("segments") if chosen_settings.segment_column else None,
            chosen_settings.segment_column)
    except (InputError, InsufficientSampleError, ValueError) as error:
        st.error(f"**Cannot correct these labels.** {literal(error)}", icon=":material/error:")
        return
    name_a, name_b = analysis.run_names
    st.caption(f"**{literal(name_b)}** (B) against **{literal(name_a)}** (A) on "
               f"{literal(analysis.metric)}")
    # resolved: the canonical metric name (the analysis's), not what was typed
    settings = (dataclasses.replace(chosen_settings, metric=analysis.metric) if shared is None
                else chosen_settings)
    actions = st.container(horizontal=True)
    html_place = actions.container(width="content")  # filled once the budget is chosen
    share_place, notice_place = actions.container(), st.container()
    show_headline(analysis)
    show_warnings(analysis)
    show_intervals(analysis)
    show_bias(analysis)
    ppi_judge.show_judge(analysis)
    budget, curve = show_budget(analysis, by_role if stored is None else None) or (None, None)
    label_plan = None
    stored_result = None if shared is None else shared.result
    if stored is None and analysis.model is not None:  # a stored link shows what it stored
        label_plan = ppi_plan.show_plan(by_role["run_a"], by_role["run_b"],
                                        by_role["qrels_proxy"], analysis.metric,
                                        chosen_settings.alpha,
                                        analysis.model.n_gold + analysis.model.n_proxy_only,
                                        ppi_plan.link_choice(stored_result))
    elif stored is not None and stored_result and stored_result.get("label_plan"):
        ppi_plan.show_stored_plan(stored_result["label_plan"])
    inputs_view.show_inputs(analysis.inputs)
    export = html_ppi.PPIExport(analysis, settings, tuple(files), budget, curve,
                                label_plan=label_plan)
    if shared is None:
        with share_place:
            share_widget.share_action("ppi", settings, files, html_ppi.payload(export))
    elif stored is None and shared.result is not None:
        with notice_place:
            share_widget.show_recomputed(shared, payload_changes(
                shared.result, html_ppi.payload(export), viewer_choices=VIEWER_CHOICES))
    downloads.html_button(
        lambda: html_ppi.render(export), file_name="ranklens-ppi.html", container=html_place,
        key="ppi_html",
        help="The verdict, the four estimates, the proxy's bias, the gold budget, the inputs "
             "with digests and every setting in one file that opens without a network.")


main()
