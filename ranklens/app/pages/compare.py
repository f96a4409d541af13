"""Compare page: is run B really better than run A, and where?

Inputs (the bundled demo, or uploaded runs + judgements + an optional segment map and proxy
judgements) and settings in the sidebar; in the main area per metric the judgement-coverage
banner when unjudged documents could change the verdict, the verdict, the forest plot of
segments with its table, the same comparison under three treatments of unjudged documents, and
per-query detail down to two rankings side by side. With more than one candidate the main area
opens with a leaderboard (a forest plot of the candidates against the baseline, each in its own
colour, the table with the family's adjusted p and every run's judgement coverage); picking a
candidate shows its banner, verdict, segments, robustness view and per-query detail as for two
runs. What differs (the discovery expander) and the inputs come after the metrics, in the
order of ``ranklens.compare.outline``. The page collects files and settings and draws what the
library returns: no statistics, no parsing here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ranklens.app import (
    compare_macro,
    compare_seeds,
    compare_texts,
    discovery_view,
    downloads,
    health_view,
    inputs_view,
    markup,
    share_widget,
    widgets,
)
from ranklens.app import state as app_state
from ranklens.app.blocks import show_block, show_blocks, show_section
from ranklens.app.cards import show_card
from ranklens.app.compare_queries import show_per_query
from ranklens.app.compare_tables import (
    as_shown,
    show_banner,
    show_leaderboard,
    show_robustness,
    show_segments,
)
from ranklens.app.entrypoint import run_through_app
from ranklens.compare import coverage_words
from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.coverage import TREATMENT_NAMES, Treatment
from ranklens.compare.family import Q_FAMILIES, run_key
from ranklens.compare.query_texts import Texts
from ranklens.compare.report import Report
from ranklens.compare.sections.all_metrics import all_metrics_section
from ranklens.compare.sections.ties import tie_banner
from ranklens.compare.sections.warnings import warnings_section
from ranklens.compare.tie_reading import with_ties
from ranklens.compare.verdict_words import (
    caveat,
    conclusion,
    headline,
    interval_note,
)
from ranklens.document.chart_style import run_colour
from ranklens.formats import Card, format_delta, format_interval, format_p, level_number
from ranklens.io import InputError, InputFile
from ranklens.metrics.ordering import Order
from ranklens.share.differences import report_changes
from ranklens.share.links import StoredResultError, compare_settings, stored_report
from ranklens.stats import FAMILIES, FAMILY_METHODS, MISSING_POLICIES

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

NO_SEGMENTS = "(none)"
# the choices are the library's (one declaration each); here only their labels
MISSING_LABELS = {
    "drop": "Leave out (compare queries in every run)",
    "zero": "Score 0 where missing (trec_eval -c)",
    "error": "Refuse (stop and name the queries)",
}
ORDER_LABELS = {"score": "Score (trec_eval)",
                "average": "Score, ties averaged (expected over tie orders)",
                "rank": "Rank column"}
ORDER_CHOICES = ("score", "average", "rank")  # "average": by score, tie-averaged metrics
FAMILY_LABELS = {"baseline": "Each candidate against the baseline",
                 "all-pairs": "Every pair of runs"}
FAMILY_METHOD_LABELS = {"max-t": "max-t (uses how the tests correlate)",
                        "holm": "Holm (simpler, more conservative)"}
Q_FAMILY_LABELS = {"segments": "Per candidate, across its segments",
                   "candidates-segments": "Across the segments of every candidate"}


# ---- inputs -------------------------------------------------------------------------------

def choose_files() -> tuple[dict[str, InputFile], str, tuple[int, ...] | None] | None:
    """Sidebar: the demo data or the user's files, and how many runs each system has (None:
    one each). None when uploads are not complete yet."""
    with st.sidebar:
        if widgets.uses_demo("data_source", "Bundled demo: a BM25 baseline against two "
                             "candidates, a neural re-ranker and a dense retriever that finds "
                             "many documents nobody judged, on 400 queries with graded "
                             "judgements, proxy labels of each run's top 20 and two segment "
                             "columns (intent, length)."):
            if compare_seeds.demo_toggle():
                return ({**compare_seeds.demo_files(), **compare_texts.demo_files()},
                        "demo data", compare_seeds.DEMO_SEED_RUNS)
            return ({**app_state.demo_compare_files(), **compare_texts.demo_files()},
                    "demo data", None)
        # A form: picking four files triggers no rerun until "Compare", so a 250 MB run is
        # not read again each time the next file arrives.
        with st.form("uploads", border=False):
            uploads = {
                "run_a": compare_seeds.run_slot("Run A (baseline)", "upload_run_a",
                                                "The run you compare against. "
                                                + widgets.FORMATS_HELP),
                "run_b": compare_seeds.run_slot("Run B (candidate)", "upload_run_b",
                                                "The run you want to know is better. "
                                                + widgets.FORMATS_HELP),
                "qrels": st.file_uploader(
                    "Judgements (qrels)", key="upload_qrels",
                    help="Relevance labels: query_id, doc_id, grade (TREC qrels or a table). "
                         "Leave empty when the two run files are per-query metric tables "
                         "(query_id and one column per metric, or trec_eval -q output)."),
                "segments": st.file_uploader(
                    "Segment map (optional)", key="upload_segments",
                    help="query_id and one or more segment columns (intent, market, "
                         "length...)."),
                "qrels_proxy": st.file_uploader(
                    "Proxy judgements (optional)", key="upload_proxy",
                    help="Cheap labels (an LLM judge) of documents nobody judged: the "
                         "robustness view then also fills the holes with them. Same formats as "
                         "the judgements."),
            }
            text_uploads = compare_texts.uploaders()
            more = st.file_uploader(
                "More candidates (optional)", key="upload_more", accept_multiple_files=True,
                help="Further candidates against the same baseline (runs C, D, ... in the "
                     "order given): a leaderboard with p-values adjusted for their number. "
                     + widgets.FORMATS_HELP)
            st.form_submit_button("Compare", type="primary", icon=":material/play_arrow:")
    if not uploads["run_a"] or not uploads["run_b"]:
        st.info("Choose run A, run B and the judgements in the sidebar, then **Compare**. "
                "Without judgements, the two files are read as per-query metric tables. "
                "Or switch **Data** back to the demo.")
        # A file over the limit never reaches the server (the browser refuses it and marks
        # it red, its reason in a tooltip): say here what the limit is and what to do.
        limit = f"{app_state.upload_limit_bytes() // 2**20:,} MB"  # as the uploaders say it
        st.caption(f"Each file can be up to {limit}, this server's upload limit (a gzip file "
                   "counts by its decompressed size). A larger file is marked red in its box "
                   "and is not sent: remove it (×) and choose a smaller one, or ask "
                   "whoever runs this app to raise `server.maxUploadSize`.")
        return None
    extra = {role: app_state.input_file(role, upload) for role, upload in uploads.items()
             if upload and not isinstance(upload, list)}
    extra.update({role: app_state.input_file(role, upload)
                  for role, upload in text_uploads.items() if upload is not None})
    slots = [uploads["run_a"], uploads["run_b"], *([u] for u in more or [])]
    files, seed_runs = compare_seeds.slot_files(
        [slot if isinstance(slot, list) else [slot] for slot in slots], extra,
        tables="qrels" not in extra)
    return files, "your files", seed_runs


def choose_settings(inputs: LoadedInputs, n_systems: int | None = None
                    ) -> CompareSettings | None:
    """Sidebar: metrics, segment column, run names and statistics. None without a metric.
    ``n_systems``: how many systems the runs form (several runs per system: training
    seeds), when not one per run."""
    # Widget keys name what their choices depend on, so new files reset exactly those widgets.
    tables = inputs.available_metrics
    segment_file = next((f.sha256[:16] for f in inputs.files if f.role == "segments"), "none")
    with st.sidebar:
        if tables is None:
            metrics = widgets.metrics("metrics:runs", help="One panel per metric.")
        else:
            options = list(tables)
            default = [m for m in options if m.lower() == "ndcg@10"] or options[:1]
            metrics = st.multiselect("Metrics", options, default=default,
                                     key=f"metrics:{'|'.join(options)}",
                                     help="The metric columns both per-query tables have.")
        columns = (NO_SEGMENTS, *inputs.segment_columns)
        segment = st.selectbox("Segment by", columns, index=1 if len(columns) > 1 else 0,
                               key=f"segment:{segment_file}",
                               help="One row of the forest plot per value of this column.")
        collection = compare_macro.choose_collection(inputs.segment_columns, segment_file)
        defaults = inputs.default_run_names
        with st.expander("Run names"):
            names = tuple(
                st.text_input(f"Name of run {run_key(i).upper()}"
                              + (" (baseline)" if i == 0 and len(defaults) > 2 else ""),
                              default, key=f"name_{run_key(i)}:{default}").strip() or default
                for i, default in enumerate(defaults))
        several: dict[str, Any] = {}
        with st.expander("Statistics", expanded=True):
            alpha = widgets.alpha("alpha")
            resamples = st.number_input(
                "Resamples", min_value=1_000, max_value=100_000, value=10_000, step=1_000,
                key="resamples",
                help="Bootstrap resamples for the interval and sign flips for the p-value.")
            seed = st.number_input("Seed", min_value=0, value=0, step=1, key="seed",
                                   help="Same inputs and seed, same numbers.")
            missing = st.radio("Queries missing from one run", MISSING_POLICIES,
                               format_func=MISSING_LABELS.__getitem__, key="missing")
            order = st.radio(
                "Order documents by", ORDER_CHOICES, format_func=ORDER_LABELS.__getitem__,
                key="order", disabled=tables is not None,
                help="Score, ties broken by doc id descending, as trec_eval does; score with "
                     "each group of equal scores averaged over all its orders (McSherry and "
                     "Najork: the metrics' names say ties=average; ERR, bpref and Judged "
                     "keep trec_eval's order); or the runs' rank column, for runs whose "
                     "scores do not carry their order (a constant score, ranks only).")
            if (n_systems or len(defaults)) > 2:
                several = choose_family()
        treatments = inputs.treatments
        unjudged: Treatment = "nonrelevant"
        if treatments:
            unjudged = st.radio(
                "Unjudged documents", treatments, format_func=TREATMENT_NAMES.__getitem__,
                key=f"unjudged:{len(treatments)}",
                help="How documents without a judgement are scored in the verdict, the "
                     "segments and the per-query view. The section "
                     f"\u201c{coverage_words.ROBUSTNESS_TITLE}\u201d shows all of them side by "
                     "side whatever you pick here.")
    if not metrics:
        st.info("Pick at least one metric in the sidebar.")
        return None
    if len(set(names)) != len(names):
        st.error("Two runs have the same name: give each its own in **Run names**.",
                 icon=":material/error:")
        return None
    ordered: Order = "rank" if order == "rank" else "score"
    if order == "average":
        metrics = list(with_ties(metrics, "average"))
    return CompareSettings(
        metrics=tuple(metrics),
        segment_column=None if segment == NO_SEGMENTS else segment,
        alpha=float(alpha), n_resamples=int(resamples), n_permutations=int(resamples),
        seed=int(seed), missing=missing, order=ordered, run_names=names,
        unjudged=unjudged, collection_column=collection, **several,
    )


def choose_family() -> dict[str, Any]:
    """Sidebar, several candidates: which comparisons the p-values are adjusted for, how,
    and which segment rows share q-values."""
    family = st.radio("Adjust p for", FAMILIES, format_func=FAMILY_LABELS.__getitem__,
                      key="family", help="The family whose chance of any false finding is "
                      "held at alpha: the candidates against the baseline, or every pair.")
    method = st.radio("Adjusted by", FAMILY_METHODS,
                      format_func=FAMILY_METHOD_LABELS.__getitem__, key="family_method",
                      help="max-t: step-down maximum of the pairs' t over random sign flips of "
                           "whole queries (knows the tests share the baseline and the "
                           "queries). Holm: on each candidate's own p, valid under any "
                           "dependence, blind to it.")
    q_family = st.radio("Segment q-values", Q_FAMILIES,
                        format_func=Q_FAMILY_LABELS.__getitem__, key="q_family",
                        help="Benjamini-Hochberg across each candidate's segments, or across "
                             "the segments of all candidates at once.")
    return {"family": family, "family_method": method, "q_family": q_family}


# ---- report sections ----------------------------------------------------------------------

def title_area() -> tuple[DeltaGenerator, DeltaGenerator]:
    """The page title; returns the places for the caption (left) and the downloads (right)."""
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    left.title("Compare runs")
    return left, right


def show_title(place: tuple[DeltaGenerator, DeltaGenerator], report: Report,
               origin: str) -> None:
    left, right = place
    queries = report.comparisons[0].overall.n_queries
    if report.several:
        left.caption(f"{len(report.candidates)} candidates against "
                     f"**{markup.text(report.run_names[0])}** (A, baseline) · {queries:,} "
                     f"paired queries · {origin}")
    else:
        name_a, name_b = markup.names(report.pair_names)
        left.caption(f"**{name_b}** (B) against **{name_a}** (A) · {queries:,} paired "
                     f"queries · {origin}")
    # built on click only: writing the report's JSON took ~15% of a rerun's CPU (issue 51)
    right.download_button("Report (JSON)", report.to_json, file_name="ranklens-report.json",
                          mime="application/json", on_click="ignore", icon=":material/download:",
                          help="Every input digest, parameter and number of this page.")
    downloads.html_download(report, container=right)


def show_warnings(report: Report) -> None:
    """Every warning of the report and every row a reader set aside, visible (the report's
    Warnings section, ``ranklens.compare.sections.warnings``)."""
    show_blocks(warnings_section(report))


def show_verdict(report: Report, metric: str) -> None:
    comparison = as_shown(report.comparison(metric))
    result = comparison.overall
    metric = comparison.metric
    name_a, name_b = shown = markup.names(report.pair_names)
    first = conclusion(comparison, shown)
    first, rest = health_view.verdict_words(
        report, first, headline(comparison, shown).removeprefix(first).strip())
    with st.container(border=True):
        st.subheader(first, anchor=False)
        st.markdown(rest)
        level = level_number(1 - result.alpha)
        cells = st.columns([1, 1, 2, 1, 1])
        mean_help = f"Mean {metric} over the {result.n_queries:,} paired queries."
        cells[0].metric(f"{name_a} (A)", f"{result.mean_a:.4f}", help=mean_help)
        # the delta's text has a real minus: its arrow and colour come from the number
        show_card(cells[1], Card(f"{name_b} (B)", f"{result.mean_b:.4f}", result.mean_b,
                                 help=mean_help, delta=format_delta(result.delta),
                                 trend=result.delta))
        cells[2].metric(f"{level}% interval of B \u2212 A",
                        format_interval(result.interval.low, result.interval.high),
                        help=interval_note(comparison))
        guarded = result.interval.method == "skew-guarded"
        cells[3].metric("p (skew-guarded)" if guarded else "p (permutation)",
                        format_p(result.p_value),
                        help=(f"Sign-flip permutation test, {result.n_permutations:,} flips"
                              + (", or Hall's skewness-corrected t-test when its p is larger."
                                 if guarded else ".")))
        cells[4].metric("p (t-test)", format_p(result.t_test.p_value), help="Paired t-test.")
        coverage = None if report.coverage is None else report.coverage.metric(metric)
        if coverage is not None:
            note = ("" if health_view.withholds(report)  # no verdict to change
                    else coverage_words.coverage_note(coverage, result, report.pair_names))
            st.caption(markup.text(coverage_words.coverage_line(coverage, report.pair_names)
                                   + (f" {note}" if note else "")))
        # trec_eval's tie rule and tie-averaging read otherwise
        ties = tie_banner(report, metric)
        if ties is not None:
            show_block(ties)
        st.caption(caveat(metric))


def choose_candidate(report: Report, metric: str) -> int:
    """The candidate whose segments and queries the page shows (the first by default)."""
    names = report.run_names
    picked = st.radio(
        "Look into", report.candidates, horizontal=True, key=f"candidate:{metric}",
        format_func=lambda j: markup.text(names[j]),
        help="Its verdict, segments and per-query detail against the baseline, below.")
    return int(picked if picked is not None else report.candidates[0])


def show_several(report: Report, metric: str, inputs: LoadedInputs,
                 segments: Mapping[str, str] | None, texts: Texts | None = None) -> None:
    """Several candidates: the leaderboard, then the picked candidate as a two-run report."""
    show_leaderboard(report, metric)
    compare_seeds.show_leaderboard(report, metric)
    show_candidate(report, metric, inputs, segments, texts)


# picking another candidate reruns this part only, not the page and its leaderboard (issue 51)
@st.fragment
def show_candidate(report: Report, metric: str, inputs: LoadedInputs,
                   segments: Mapping[str, str] | None, texts: Texts | None = None) -> None:
    """The picked candidate as a two-run report: its banner, verdict, segments, robustness
    view and per-query detail."""
    candidate = choose_candidate(report, metric)
    names = report.run_names
    st.markdown(
        f'<span style="color: {run_colour(candidate)}; font-size: 1.3rem">\u25cf</span> '
        f"**{markup.text(names[candidate])}** against **{markup.text(names[0])}**",
        unsafe_allow_html=True)
    show_metric(report.candidate_report(candidate), metric,
                compare_seeds.shown_inputs(inputs, report, candidate), segments,
                scope=f":{run_key(candidate)}", texts=texts)


# ---- page ---------------------------------------------------------------------------------

def show_metric(report: Report, metric: str, inputs: LoadedInputs,
                segments: Mapping[str, str] | None, scope: str = "",
                texts: Texts | None = None) -> None:
    """The banner, verdict, segments, robustness view and per-query detail of a two-run
    report; ``scope`` sets the widgets of one candidate apart from another's (each keeps its
    own picks)."""
    show_banner(report, metric, scope)
    show_verdict(report, metric)
    compare_seeds.show_answers(report, metric, scope)
    show_segments(report, metric, scope)
    show_robustness(report, metric, scope)
    show_per_query(report, metric, inputs, segments, scope, texts)


def main() -> None:
    place = title_area()
    shared = share_widget.shared_for("compare")  # a ?report= link: its inputs and settings
    chosen = (choose_files() if shared is None
              else ({f.role: f for f in shared.files}, "shared report", None))
    if chosen is None:
        return
    files, origin, seed_runs = chosen
    files, text_files = compare_texts.split_files(files)
    columns = (health_view.choose_id_columns() if shared is None  # a link: the ones it names
               else compare_settings(shared).id_columns())
    try:
        inputs = app_state.loaded_inputs(files, columns)
    except InputError as error:
        st.error(f"**This file cannot be read.** {markup.text(error)}", icon=":material/error:")
        st.caption("Replace the file in the sidebar and press **Compare** again, or switch "
                   "**Data** back to the demo.")
        return
    settings = (choose_settings(inputs, None if seed_runs is None else len(seed_runs))
                if shared is None else compare_settings(shared))
    if settings is None:
        return
    if shared is None:
        settings = health_view.with_health_choices(
            compare_seeds.with_systems(settings, seed_runs, inputs), columns)
    stored = None  # a shared link's report as its author saw it: drawn as stored
    if shared is not None:
        try:
            stored = stored_report(shared)
        except StoredResultError as error:
            share_widget.show_unreadable_result(str(error))
    recompute = stored is None or (shared is not None and share_widget.recompute_wanted(shared))
    try:
        report = app_state.cached_report(inputs, settings) if recompute else stored
    except ValueError as error:  # InputError, unknown metric, no common queries ...
        st.error(f"**Cannot compare these inputs.** {markup.text(error)}",
                 icon=":material/error:")
        return
    assert report is not None
    texts = compare_texts.loaded_texts(text_files, inputs, server=origin != "demo data")
    if recompute:
        report = compare_texts.drilldown_report(report, inputs, settings, texts)
    show_title(place, report, origin)
    if shared is None:
        share_widget.share_action("compare", settings,
                                  (*inputs.files,
                                   *compare_texts.share_files(texts, inputs, report)), report)
    elif stored is not None and recompute:
        share_widget.show_recomputed(shared, report_changes(stored, report))
    health_view.show_health(report)
    show_warnings(report)
    compare_macro.show_macro(report)  # several collections: the macro average leads
    show_section(all_metrics_section(report))  # two metrics or more: the paper's table
    show_metrics(report, inputs, settings, texts)
    discovery_view.show_discovery(report, inputs, settings, texts)  # issue 48: where B differs
    inputs_view.show_inputs(report.inputs)


def show_metrics(report: Report, inputs: LoadedInputs, settings: CompareSettings,
                 texts: Texts | None) -> None:
    """Every metric (several: a tab each, only the open one drawn), in the place the outline
    (``ranklens.compare.outline``) gives them: after the collections, before what differs and
    the inputs."""
    segments = (inputs.segment_maps.get(settings.segment_column)
                if settings.segment_column else None)
    if report.seeds is not None and not report.several:
        inputs = compare_seeds.shown_inputs(inputs, report)
    show = show_several if report.several else show_metric
    if len(report.metrics) == 1:
        show(report, report.metrics[0], inputs, segments, texts=texts)
        return
    # One tab per metric; only the open one is drawn (switching tabs reruns, from the caches).
    tabs = st.tabs([markup.text(m) for m in report.metrics], key="metric_tab",
                   on_change="rerun")
    for tab, metric in zip(tabs, report.metrics, strict=True):
        if tab.open is not False:
            with tab:
                show(report, metric, inputs, segments, texts=texts)

main()
