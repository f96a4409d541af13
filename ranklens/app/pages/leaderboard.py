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
from functools import partial
from pathlib import Path

import streamlit as st

from ranklens.app import markup, widgets
from ranklens.app import state as app_state
from ranklens.app.blocks import show_block
from ranklens.app.entrypoint import run_through_app
from ranklens.compare.leaderboard import (
    MAX_BOARD_RUNS,
    LeaderboardReport,
    RankRow,
    leaderboard_report,
    score_runs,
)
from ranklens.compare.leaderboard_chart import rank_data, rank_interval_chart
from ranklens.compare.leaderboard_export import leaderboard_document
from ranklens.compare.sections.leaderboard import leaderboard_sections, rank_text
from ranklens.document.blocks import Paragraph
from ranklens.io import InputError, InputFile

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

DEMO_RUNS, SIMULATED, UPLOAD = ("The demo's 5 runs", "Simulated: 200 checkpoints", "My files")
SIMULATED_CAPTION = ("200 simulated checkpoints of one model on 500 queries (made by "
                     "`ranklens.demo.board`, seed 0): true means in a few plateaus with ties "
                     "and a weaker tail. It shows what a big board looks like; it says nothing "
                     "about real runs.")
DEMO_CAPTION = ("The bundled demo's runs on 400 queries: BM25, the dense retriever, and the "
                "neural re-ranker trained with three seeds.")
DOWNLOADS = {"markdown": ("Markdown", "md", "text/markdown"),
             "latex": ("LaTeX (booktabs)", "tex", "text/x-tex"),
             "json": ("JSON", "json", "application/json"),
             "html": ("Report (HTML)", "html", "text/html")}

Scored = tuple[list[str], list[dict[str, dict[str, float]]]]
# what the sidebar chose: the cache key, how to score the runs, metrics, alpha, uploads
Board = tuple[tuple[object, ...], Callable[[], Scored], list[str], float, list[InputFile]]


def choose_board() -> Board | None:
    """Sidebar: the runs, metrics and alpha (a `Board`); None until the uploads are
    complete."""
    with st.sidebar:
        source = st.radio("Runs", (DEMO_RUNS, SIMULATED, UPLOAD), key="board_source")
        if source == SIMULATED:
            st.caption(SIMULATED_CAPTION)
            from ranklens.demo.board import SIMULATED_METRIC, simulated_board

            alpha = widgets.alpha("board_alpha")
            return (("simulated", 200, 500, 0), lambda: simulated_board(200, 500, seed=0),
                    [SIMULATED_METRIC], alpha, [])
        metrics = widgets.metrics("board_metrics")
        alpha = widgets.alpha("board_alpha")
        if source == DEMO_RUNS:
            st.caption(DEMO_CAPTION)
            return _demo_board(metrics, alpha)
        uploads = st.file_uploader(
            f"Runs (2 to {MAX_BOARD_RUNS})", accept_multiple_files=True, key="board_runs",
            help="Each file one run, named by its file name. " + widgets.FORMATS_HELP)
        qrels = st.file_uploader(
            "Judgements (qrels)", key="board_qrels",
            help="Leave empty when the runs are per-query metric tables (query_id and one "
                 "column per metric).")
    if not metrics:
        st.info("Pick at least one metric in the sidebar.")
        return None
    if not uploads or len(uploads) < 2:
        st.info("Upload two runs or more in the sidebar (and their judgements), or pick the "
                "demo or the simulated sweep under **Runs**.")
        return None
    files = [app_state.input_file("run", upload) for upload in uploads]
    judged = None if qrels is None else app_state.input_file("qrels", qrels)
    names = [Path(f.name).stem for f in files]
    every = [*files, *([] if judged is None else [judged])]
    limit = app_state.upload_limit_bytes()
    return ((app_state.input_key(every), tuple(metrics)),
            lambda: (names, score_runs([f.data for f in files],
                                       None if judged is None else judged.data, metrics,
                                       max_bytes=limit)),
            metrics, alpha, every)


def _demo_board(metrics: list[str], alpha: float) -> Board:
    from ranklens import demo

    paths = demo.paths()
    runs = [paths["run_a"], paths["run_dense"], *demo.seed_paths()]
    names = ["bm25_baseline", "dense_retriever", "neural_reranker", "neural_reranker_seed2",
             "neural_reranker_seed3"]
    return (("demo", tuple(metrics)),
            lambda: (names, score_runs(runs, paths["qrels"], metrics)), metrics, alpha, [])


def board(key: tuple[object, ...], scored: Callable[[], Scored], metrics: Sequence[str],
          alpha: float, files: Sequence[InputFile]) -> LeaderboardReport:
    """The leaderboard of the chosen runs, once per runs, metrics and alpha for every
    session (the app's cache)."""
    def compute() -> LeaderboardReport:
        names, values = scored()
        if len(set(names)) < len(names):
            seen: dict[str, int] = {}
            names = [_numbered(name, seen) for name in names]
        return leaderboard_report(values, names, list(metrics), alpha=alpha)

    size = app_state.files_size(files)
    return app_state.cached("leaderboard", (key, alpha), compute, input_size=size,
                            files=files, label="Testing every pair of runs…")


def _numbered(name: str, seen: dict[str, int]) -> str:
    """``name``, or ``name (2)`` when a run of that name came before (two files ``run.trec``)."""
    seen[name] = seen.get(name, 0) + 1
    return name if seen[name] == 1 else f"{name} ({seen[name]})"


def show_metric(report: LeaderboardReport, metric: str, rows: Sequence[RankRow],
                lead: Paragraph) -> None:
    """One metric's board: the words, three figures, the chart and the table."""
    st.subheader(f"{metric}: {len(rows)} runs", anchor=False)
    show_block(lead)
    best = sum(r.rank_low == 1 for r in rows)
    tiers = len({letter for r in rows for letter in r.tier})
    exact = sum(r.rank_low == r.rank_high for r in rows)
    cells = st.columns(3)
    cells[0].metric("Could be the best", f"{best} of {len(rows)}",
                    help="Runs whose rank interval reaches 1: the queries do not tell them "
                         "from the top run.")
    cells[1].metric("Tiers (letters)", f"{tiers}",
                    help="Groups of runs no two of which are told apart; a run can sit in "
                         "several.")
    cells[2].metric("Rank known exactly", f"{exact} of {len(rows)}",
                    help="Runs whose rank interval is a single rank.")
    st.altair_chart(rank_interval_chart(rows, metric), key=f"board_chart_{metric}")
    st.caption("Each row is a run, from the highest mean down. The bar spans the ranks its "
               "true mean could hold, all runs' bars holding together; the black mark is the rank "
               "its mean got. Red: the bar reaches rank 1.")
    table = rank_data(rows)
    wanted = st.text_input("Find runs", key=f"board_find_{metric}",
                           placeholder="part of a run's name")
    if wanted:
        table = table[table["run"].str.contains(wanted, case=False, regex=False)]
    shown = table.assign(rank=[rank_text(lo, hi) for lo, hi in
                               zip(table["rank_low"], table["rank_high"], strict=True)])
    st.dataframe(shown[["rank", "tier", "mean", "run"]], hide_index=True, width="stretch",
                 height=min(420, 38 + 35 * len(shown)), key=f"board_table_{metric}",
                 column_config={
                     "rank": st.column_config.TextColumn("Rank interval"),
                     "tier": st.column_config.TextColumn("Tier", help="Runs sharing a letter "
                                                                     "are not told apart."),
                     "mean": st.column_config.NumberColumn(metric, format="%.4f"),
                     "run": st.column_config.TextColumn("Run")})


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
        report = board(*chosen)
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
    for section, (metric, rows) in zip(leaderboard_sections(report), report.ranks.items(),
                                       strict=True):
        lead = next(b for b in section.blocks if isinstance(b, Paragraph))
        show_metric(report, metric, rows, lead)
    show_downloads(report)


main()
