"""Leaderboard page: many runs ranked, with which differences are real.

Sidebar: where the runs come from (the demo's five runs, a simulated sweep of 200 checkpoints,
or the user's runs with their qrels, or per-query tables), the metric and alpha. Main area per
metric: how the board was made (the leaderboard section's words), three figures (runs, runs
that could be the best, tiers), the rank intervals beside the means (one row per run: a
200-run board reads at 1400 px), the exact table with a filter, and the board's downloads.
The thinking is in ``ranklens.compare.leaderboard`` and ``ranklens.stats.ranks``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import streamlit as st

from ranklens.app import markup, widgets
from ranklens.app import state as app_state
from ranklens.app.blocks import show_block, show_blocks, show_chart, show_table
from ranklens.app.entrypoint import run_through_app
from ranklens.compare.leaderboard import (
    MAX_BOARD_RUNS,
    LeaderboardReport,
    RankRow,
    leaderboard_report,
    score_runs,
)
from ranklens.compare.leaderboard_export import leaderboard_document
from ranklens.compare.sections.leaderboard import (
    board_key,
    leaderboard_sections,
)
from ranklens.document.blocks import Chart, Paragraph, Section, Table
from ranklens.io import InputError, InputFile

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

DEMO_RUNS, SIMULATED, UPLOAD = ("The demo's 5 runs", "Simulated: 200 checkpoints", "My files")
SIMULATED_CAPTION = ("200 simulated checkpoints of one model on 500 queries (made by "
                     "`ranklens.demo.board`, seed 0): true means in a few plateaus with ties "
                     "and a weaker tail. It shows what a big board looks like; it says nothing "
                     "about real runs.")
DEMO_CAPTION = ("The bundled demo's runs on 400 queries: BM25, the dense retriever, and the "
                "neural re-ranker trained with three seeds.")
CHART_CAPTION = ("Each row is a run, from the highest mean down. The bar spans the ranks its "
                 "true mean could hold, all runs' bars holding together; the black mark is "
                 "the rank its mean got. Red: the bar reaches rank 1.")
DOWNLOADS = {"markdown": ("Markdown", "md", "text/markdown"),
             "latex": ("LaTeX (booktabs)", "tex", "text/x-tex"),
             "json": ("JSON", "json", "application/json"),
             "html": ("Report (HTML)", "html", "text/html")}

Scored = list[dict[str, dict[str, float]]]


@dataclass(frozen=True)
class Chosen:
    """What the sidebar chose: the runs (a cache key, their names, how to score them), the
    metrics, alpha, the baselines and the uploaded files (for their size limits)."""

    key: tuple[object, ...]
    names: list[str]
    scored: Callable[[], Scored]
    metrics: list[str]
    alpha: float
    files: list[InputFile] = field(default_factory=list)
    baselines: tuple[str, ...] = ()


def choose_board() -> Chosen | None:
    """Sidebar: the runs, metrics, alpha and baselines; None (with a word in the main area)
    until the uploads are complete."""
    with st.sidebar:
        source = st.radio("Runs", (DEMO_RUNS, SIMULATED, UPLOAD), key="board_source")
        chosen = _runs_chosen(source)
        baselines: list[str] = []
        if chosen is not None:
            baselines = st.multiselect(
                "Baselines (optional)", chosen.names, key="board_baselines",
                help="Each other run is also tested against each baseline, all of those "
                     "differences as one family (several baselines at once).")
    if chosen is None:
        st.info("Upload two runs or more in the sidebar (and their judgements), or pick the "
                "demo or the simulated sweep under **Runs**.")
        return None
    if not chosen.metrics:
        st.info("Pick at least one metric in the sidebar.")
        return None
    if len(baselines) >= len(chosen.names):
        st.info("Leave at least one run out of the baselines: it is what they are compared "
                "with.")
        return None
    return replace(chosen, baselines=tuple(baselines))


def _runs_chosen(source: str) -> Chosen | None:
    """The widgets of ``source`` (in the sidebar) and the board they make; None until two
    runs are uploaded."""
    if source == SIMULATED:
        st.caption(SIMULATED_CAPTION)
        from ranklens.demo.board import SIMULATED_METRIC, simulated_board

        names, values = simulated_board(200, 500, seed=0)
        return Chosen(("simulated", 200, 500, 0), names, lambda: values, [SIMULATED_METRIC],
                      widgets.alpha("board_alpha"))
    metrics = widgets.metrics("board_metrics")
    alpha = widgets.alpha("board_alpha")
    if source == DEMO_RUNS:
        st.caption(DEMO_CAPTION)
        return _demo_board(metrics, alpha)
    return _uploaded_board(metrics, alpha)


def _uploaded_board(metrics: list[str], alpha: float) -> Chosen | None:
    """The upload widgets and the board they make; None until two runs are there."""
    uploads = st.file_uploader(
        f"Runs (2 to {MAX_BOARD_RUNS})", accept_multiple_files=True, key="board_runs",
        help="Each file one run, named by its file name. " + widgets.FORMATS_HELP)
    qrels = st.file_uploader(
        "Judgements (qrels)", key="board_qrels",
        help="Leave empty when the runs are per-query metric tables (query_id and one column "
             "per metric).")
    if not uploads or len(uploads) < 2:
        return None
    files = [app_state.input_file("run", upload) for upload in uploads]
    judged = None if qrels is None else app_state.input_file("qrels", qrels)
    seen: dict[str, int] = {}
    names = [_numbered(Path(f.name).stem, seen) for f in files]
    every = [*files, *([] if judged is None else [judged])]
    limit = app_state.upload_limit_bytes()
    return Chosen((app_state.input_key(every), tuple(metrics)), names,
                  lambda: score_runs([f.data for f in files],
                                     None if judged is None else judged.data, metrics,
                                     max_bytes=limit),
                  metrics, alpha, every)


def _demo_board(metrics: list[str], alpha: float) -> Chosen:
    from ranklens import demo

    paths = demo.paths()
    runs = [paths["run_a"], paths["run_dense"], *demo.seed_paths()]
    names = [path.stem for path in runs]  # bm25_baseline, dense_retriever, neural_reranker...
    return Chosen(("demo", tuple(metrics)), names,
                  lambda: score_runs(runs, paths["qrels"], metrics), metrics, alpha)


def board(chosen: Chosen) -> LeaderboardReport:
    """The leaderboard of the chosen runs, once per runs, metrics, alpha and baselines for
    every session (the app's cache)."""
    def compute() -> LeaderboardReport:
        return leaderboard_report(chosen.scored(), chosen.names, chosen.metrics,
                                  alpha=chosen.alpha, baselines=chosen.baselines)

    size = app_state.files_size(chosen.files)
    return app_state.cached("leaderboard", (chosen.key, chosen.alpha, chosen.baselines),
                            compute, input_size=size, files=chosen.files,
                            label="Testing every pair of runs…")


def _numbered(name: str, seen: dict[str, int]) -> str:
    """``name``, or ``name (2)`` when a run of that name came before (two files ``run.trec``)."""
    seen[name] = seen.get(name, 0) + 1
    return name if seen[name] == 1 else f"{name} ({seen[name]})"


def show_board(section: Section, report: LeaderboardReport, metric: str) -> None:
    """One metric's board: the section's blocks, with the page's own parts beside them (three
    figures under the words, a caption under the chart, a filter over the table)."""
    rows = report.ranks[metric]
    st.subheader(section.title, anchor=False)
    for block in section.blocks:
        if isinstance(block, Chart):
            show_chart(block, key=f"board_chart_{metric}")
            st.caption(CHART_CAPTION)
        elif isinstance(block, Table):
            wanted = st.text_input("Find runs", key=f"board_find_{metric}",
                                   placeholder="part of a run's name").strip().lower()
            kept = tuple(r for r in block.records if wanted in str(r["run"]).lower())
            show_table(replace(block, records=kept), key=f"board_table_{metric}")
        else:
            show_block(block)
            if isinstance(block, Paragraph):
                show_figures(report, metric, rows)


def show_figures(report: LeaderboardReport, metric: str, rows: Sequence[RankRow]) -> None:
    """How many runs could be the best, how many tiers, how many ranks are known exactly."""
    best = sum(r.rank_low == 1 for r in rows)
    tiers = report.params.get("tiers", {}).get(metric, 0)
    exact = sum(r.rank_low == r.rank_high for r in rows)
    cells = st.columns(3)
    cells[0].metric("Could be the best", f"{best} of {len(rows)}",
                    help="Runs whose rank interval reaches 1: the queries do not tell them "
                         "from the top run.")
    cells[1].metric("Tiers", f"{tiers:,}" if tiers else "not drawn",
                    help="Groups of runs no two of which are told apart; a run can sit in "
                         "several.")
    cells[2].metric("Rank known exactly", f"{exact} of {len(rows)}",
                    help="Runs whose rank interval is a single rank.")


def show_downloads(report: LeaderboardReport) -> None:
    cells = st.columns(len(DOWNLOADS))
    for cell, (form, (label, suffix, mime)) in zip(cells, DOWNLOADS.items(), strict=True):
        cell.download_button(label, data=partial(leaderboard_document, report, form),
                             file_name=f"ranklens-leaderboard.{suffix}", mime=mime,
                             on_click="ignore", icon=":material/download:",
                             key=f"board_download_{form}")


def main() -> None:
    st.title("Leaderboard: which differences are real?")
    st.caption("Many runs on the same queries: where could each really stand, and which cannot "
               "be told apart? Every pair is tested at once (step-down max-t over sign flips "
               "of whole queries), so all rank intervals and tiers hold together.")
    chosen = choose_board()
    if chosen is None:
        return
    try:
        report = board(chosen)
    except InputError as error:
        st.error(f"**This file cannot be read.** {markup.text(error)}", icon=":material/error:")
        st.caption("Replace the file in the sidebar, or pick the demo under **Runs**.")
        return
    except ValueError as error:  # a metric name not known, runs with no query in common
        st.error(f"**No leaderboard for these runs.** {markup.text(error)}",
                 icon=":material/error:")
        return
    for warning in report.warnings:
        st.warning(markup.text(warning), icon=":material/warning:")
    boards = {board_key(metric): metric for metric in report.ranks}
    for section in leaderboard_sections(report):
        if section.key in boards:
            show_board(section, report, boards[section.key])
        else:
            st.subheader(section.title, anchor=False)
            show_blocks(section)
    show_downloads(report)


main()
