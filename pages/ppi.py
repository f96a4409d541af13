"""PPI page: cheap (proxy) judgements on every query, corrected by a random gold sample.

Sidebar: runs A and B, proxy qrels covering all queries, gold qrels on a random sample (the
bundled demo by default), the metric and alpha; the random-sample assumption is stated right
where the gold sample is chosen. Main area: the PPI++ difference with its interval, p, the
weight lambda and the query counts; the four intervals on one chart; the proxy's measured bias;
warnings; the gold-budget planner. The thinking is in ``ranklens.ppi_analysis``.
"""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from ranklens import planning_charts
from ranklens.analysis import InputFile
from ranklens.analysis import demo_files as bundled_files
from ranklens.io import InputError
from ranklens.ppi_analysis import (
    RANDOM_SAMPLE_ASSUMPTION,
    PPIAnalysis,
    analyse_ppi,
    budget_curve,
)
from ranklens.render import ppi_sentences
from ranklens.stats import MIN_GOLD, InsufficientSampleError
from ranklens.ui import share_widget
from ranklens.ui.entrypoint import run_through_app
from ranklens.verdict import format_delta, format_p

run_through_app()  # a bookmarked page opened first after a server start still runs in app.py

DEMO, UPLOAD = "Demo data", "My files"
COMMON_METRICS = ("nDCG@10", "nDCG@5", "nDCG@20", "AP", "RR", "P@10", "R@100")
ALPHAS = (0.01, 0.05, 0.10)
ROLES = ("run_a", "run_b", "qrels_proxy", "qrels_gold")
FORMATS_HELP = ("TREC format, CSV, TSV, Parquet or JSON lines (gzip is fine); columns are "
                "found by name.")


def as_file(role: str, upload: UploadedFile) -> InputFile:
    return InputFile(role, upload.name, upload.getvalue())


@st.cache_resource(max_entries=8, show_spinner="Scoring both runs under proxy and gold labels…")
def cached_analysis(key: tuple[str, ...], metric: str, alpha: float,
                    _files: tuple[InputFile, ...]) -> PPIAnalysis:
    return analyse_ppi(*_files, metric, alpha=alpha)


def choose_inputs() -> tuple[tuple[InputFile, ...], str, float] | None:
    """Sidebar: the four files, metric and alpha. None until the uploads are complete."""
    with st.sidebar:
        source = st.radio("Data", (DEMO, UPLOAD), horizontal=True, key="ppi_source")
        if source == DEMO:
            st.caption("Bundled demo: BM25 against a neural re-ranker on 400 queries; proxy "
                       "labels from an “LLM judge” that over-rates long documents, gold labels "
                       "on a random 15% of the queries.")
            demo = bundled_files()
            files: tuple[InputFile, ...] | None = tuple(demo[role] for role in ROLES)
        else:
            uploads = [
                st.file_uploader("Run A (baseline)", key="ppi_run_a", help=FORMATS_HELP),
                st.file_uploader("Run B (candidate)", key="ppi_run_b", help=FORMATS_HELP),
                st.file_uploader("Proxy judgements (all queries)", key="ppi_proxy",
                                 help="Cheap labels — an LLM, one assessor — on every query. "
                                      + FORMATS_HELP),
                st.file_uploader("Gold judgements (a random sample)", key="ppi_gold",
                                 help="Trusted labels on a random sample of the queries; each "
                                      "gold query needs proxy labels too. " + FORMATS_HELP),
            ]
            files = None
            if all(upload is not None for upload in uploads):
                files = tuple(as_file(role, upload)
                              for role, upload in zip(ROLES, uploads, strict=True)
                              if upload is not None)
        st.warning(f"**Gold queries must be a random sample.** {RANDOM_SAMPLE_ASSUMPTION}",
                   icon=":material/casino:")
        metric = st.selectbox("Metric", COMMON_METRICS, key="ppi_metric",
                              accept_new_options=True,
                              help="Type another (nDCG@3, P(rel=2)@10, map_cut_100 ...).")
        alpha = st.selectbox("Significance level (alpha)", ALPHAS, index=1, key="ppi_alpha",
                             format_func=lambda a: f"{a:g}  ({round(100 * (1 - a))}% intervals)")
    if files is None:
        st.info("Upload run A, run B, the proxy judgements and the gold judgements in the "
                "sidebar, or switch **Data** back to the demo.")
        return None
    return files, str(metric), float(alpha)


def show_headline(analysis: PPIAnalysis) -> None:
    best = analysis.estimate("ppi++").result
    level = round(100 * (1 - best.alpha))
    sentences = ppi_sentences(analysis)
    with st.container(border=True):
        st.subheader(sentences[0].split(":")[0] + ".", anchor=False)
        cells = st.columns([1, 1.8, 0.8, 0.7, 1.1])
        cells[0].metric(f"PPI++ {analysis.metric}, B − A", format_delta(best.delta))
        cells[1].metric(f"{level}% interval", f"{format_delta(best.ci_low, 3)} … "
                        f"{format_delta(best.ci_high, 3)}",
                        help="Normal approximation with the PPI++ variance.")
        cells[2].metric("p", format_p(best.p_value), help="Two-sided, normal approximation.")
        cells[3].metric("Weight λ", f"{best.lam:.2f}",
                        help="Weight of the proxy part: 0 is gold only, 1 is classic PPI; "
                             "estimated to minimise the variance (clipped to [0, 1]).")
        cells[4].metric("Gold / proxy-only", f"{best.n_gold:,} / {best.n_proxy:,}",
                        help="Queries with gold labels (and proxy labels) / queries with "
                             "proxy labels only.")
        for sentence in sentences[1:]:
            st.markdown(sentence)


def show_intervals(analysis: PPIAnalysis) -> None:
    st.subheader("Four estimates of the same difference", anchor=False)
    st.altair_chart(planning_charts.intervals_chart(analysis), width="stretch",
                    key="ppi_intervals")
    data = planning_charts.intervals_data(analysis)
    table = pd.DataFrame({
        "estimate": data["label"],
        "B − A": [format_delta(v) for v in data["delta"]],
        "interval": [f"{format_delta(lo)} to {format_delta(hi)}"
                     for lo, hi in zip(data["low"], data["high"], strict=True)],
        "p": [format_p(analysis.estimate(k).result.p_value) for k in data["key"]],
        "λ": ["—" if pd.isna(v) else f"{v:.2f}" for v in data["lam"]],
        "measured on": data["queries"],
    })
    st.dataframe(table, hide_index=True, width="stretch", key="ppi_table")
    best = analysis.estimate("ppi++").result
    if best.lam in (0.0, 1.0):
        twin = "classic PPI" if best.lam == 1.0 else "gold only"
        st.caption(f"λ was estimated at {best.lam:.2f} (the estimate is kept within [0, 1]), so "
                   f"PPI++ and {twin} coincide here.")
    st.caption("The uncorrected proxy interval is narrow around the wrong number when the "
               "proxy is biased: resampling queries cannot see a labelling error. Gold only is "
               "unbiased but wide; PPI++ keeps gold's unbiasedness and borrows the proxy's "
               "precision as far as the two agree.")


def show_bias(analysis: PPIAnalysis) -> None:
    bias = analysis.bias
    if bias is None:
        return
    level = round(100 * (1 - bias.alpha))
    st.subheader("The proxy's bias on this difference", anchor=False)
    left, right = st.columns([1, 2.2], vertical_alignment="center")
    left.metric("Proxy − gold, on gold queries", format_delta(bias.bias),
                help=f"Mean proxy delta minus mean gold delta over the {bias.n_gold:,} gold "
                     "queries; paired t-interval.")
    direction = "overstates" if bias.bias > 0 else "understates"
    right.markdown(
        f"On the {bias.n_gold:,} queries with both labels the proxy {direction} B − A by "
        f"**{format_delta(bias.bias)}** ({level}% interval {format_delta(bias.low)} to "
        f"{format_delta(bias.high)}, p {format_p(bias.p_value)}). This is the bias of the "
        "difference, not of the labels: a proxy can over-rate both runs and still get B − A "
        "right. The proxy-vs-PPI++ gap in the box above is a different number: the proxy over "
        "all queries against the corrected estimate.")


def show_warnings(analysis: PPIAnalysis) -> None:
    messages = [m for m in analysis.warnings if m != RANDOM_SAMPLE_ASSUMPTION]
    best = analysis.estimate("ppi++").result
    if messages:
        st.warning("\n".join(f"- {m}" for m in messages), icon=":material/warning:")
    elif best.n_gold >= MIN_GOLD:
        st.caption(f"{best.n_gold:,} gold queries: at or above the {MIN_GOLD} below which the "
                   "correction is too noisy to rely on.")


def show_budget(analysis: PPIAnalysis) -> None:
    model = analysis.model
    if model is None:
        return
    best = analysis.estimate("ppi++").result
    pool = model.n_gold + model.n_proxy_only
    st.subheader("Gold budget: how many gold queries are worth labelling?", anchor=False)
    left, right = st.columns([2, 1], gap="large")
    with right:
        planned = st.number_input(
            "Gold queries you could label", min_value=2, max_value=pool,
            value=min(pool, 2 * model.n_gold), step=10, key="ppi_planned_gold",
            help=f"Out of the same {pool:,} queries; the rest keep proxy labels only.")
        planned = int(planned)
        expected = model.width(planned, pool - planned)
        gold_only = model.width(planned, pool - planned, lam=0.0)
        st.metric(f"Expected PPI++ width with {planned:,} gold", f"{expected:.4f}",
                  delta=f"{expected - model.realised_width:+.4f} vs now",
                  delta_color="inverse")
        st.metric(f"Gold only with {planned:,} gold", f"{gold_only:.4f}")
        st.caption(f"Correlation of gold and proxy deltas so far: **{model.correlation:.2f}** "
                   f"on {model.n_gold:,} gold queries. The higher it is, the more each proxy "
                   "label is worth.")
    with left:
        curve = budget_curve(model)
        st.altair_chart(planning_charts.budget_chart(curve, best.n_gold, model.realised_width,
                                                     min_gold=MIN_GOLD),
                        width="stretch", key="ppi_budget")
        st.caption(f"Expected width of the {round(100 * (1 - model.alpha))}% interval if n of "
                   f"the {pool:,} queries had gold labels (the methods page's PPI++ variance "
                   "with the spreads and correlation observed so far, pinned to today's "
                   "interval at the red point, never above gold only). Dotted grey: the "
                   f"{MIN_GOLD}-gold-query warning line. A prediction, not a promise.")


def main() -> None:
    st.title("Cheap labels, corrected on gold (PPI++)")
    st.caption("My labels are cheap (an LLM, one assessor). What does a small random sample of "
               "trusted labels say about B − A, and about the cheap labels' bias?")
    shared = share_widget.shared_for("ppi")  # a ?report= link: its inputs and settings
    chosen = (choose_inputs() if shared is None else
              (shared.files, str(shared.settings["metric"]), float(shared.settings["alpha"])))
    if chosen is None:
        return
    files, metric, alpha = chosen
    key = tuple(hashlib.sha256(f.data).hexdigest() for f in files)
    try:
        analysis = cached_analysis(key, metric, alpha, files)
    except (InputError, InsufficientSampleError, ValueError) as error:
        st.error(str(error), icon=":material/error:")
        return
    name_a, name_b = analysis.run_names
    st.caption(f"**{name_b}** (B) against **{name_a}** (A) on {analysis.metric}")
    share_widget.share_action("ppi", {"metric": metric, "alpha": alpha}, files)
    show_headline(analysis)
    show_warnings(analysis)
    show_intervals(analysis)
    show_bias(analysis)
    show_budget(analysis)


main()
