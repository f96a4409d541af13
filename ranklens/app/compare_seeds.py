"""Compare page, systems trained with several seeds: the run slots, the demo's seeds, both answers.

A run slot takes one file or one per training seed; `slot_files` turns the slots into the
pipeline's roles (run_a, run_b, ... in order) and the ``seed_runs`` of `CompareSettings`
(None when every slot holds one file, a comparison as ever). The demo's neural re-ranker
comes with three seeds (`demo_toggle`, `demo_files`). `show_answers` draws the report's seeds
section for one metric: the two answers side by side, named for what they answer, the
disagreement sentence, the forest of both answers and each seed, the variance components
(numbers and a chart); `show_leaderboard` the new-run answers of several candidates with
their family-wise adjusted p. The numbers are the library's (``ranklens.compare.seeds``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from ranklens.app import chart_cache, markup
from ranklens.app import state as app_state
from ranklens.compare import seed_charts, seed_views
from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.family import run_role
from ranklens.compare.report import Report
from ranklens.compare.seed_inputs import split_seed_table
from ranklens.compare.seed_section import (
    NEW_RUN,
    NEW_RUN_QUESTION,
    THESE_RUNS,
    THESE_RUNS_QUESTION,
)
from ranklens.compare.seeds import system_name, system_slices
from ranklens.formats import format_delta, format_interval, format_p, level_number
from ranklens.io import InputFile
from ranklens.io.objects import input_file

SLOT_HELP = ("One file, or one per training seed of the same recipe (select them together): "
             "the report then says whether a new training run would beat the other system, "
             "beside the answer for these trained runs.")
DEMO_SEEDS_LABEL = "Neural re-ranker: three training seeds"
DEMO_SEED_RUNS = (1, 3)
SEEDS_LEAVE_OUT = ("Two systems: BM25 against the neural re-ranker's three seeds. The dense "
                   "retriever, trained once, is left out of this view; switch the seeds off "
                   "to compare it again.")


def run_slot(label: str, key: str, help: str) -> list[Any]:
    """A run slot: one upload or several (the training seeds of one system)."""
    return list(st.file_uploader(label, key=key, accept_multiple_files=True,
                                 help=f"{help} {SLOT_HELP}") or [])


def slot_files(slots: Sequence[Sequence[Any]], extra: dict[str, InputFile], *,
               tables: bool) -> tuple[dict[str, InputFile], tuple[int, ...] | None]:
    """The uploads of each slot (a system) as input files by role, and their ``seed_runs``.

    ``extra`` holds the other inputs (qrels, segments, proxy). With per-query tables
    (``tables``) a table with a seed column gives one run per seed.
    """
    systems: list[list[InputFile]] = []
    for slot in slots:
        files = [app_state.input_file("run", upload) for upload in slot]
        systems.append([part for f in files for part in (split_seed_table(f) if tables
                                                          else (f,))])
    flat = [f for runs in systems for f in runs]
    files_by_role = {run_role(i): input_file(f, run_role(i)) for i, f in enumerate(flat)}
    seed_runs = (None if all(len(runs) == 1 for runs in systems)
                 else tuple(len(runs) for runs in systems))
    return {**files_by_role, **extra}, seed_runs


def demo_toggle() -> bool:
    """Sidebar, demo: whether the neural re-ranker comes as its three training seeds."""
    on = bool(st.toggle(DEMO_SEEDS_LABEL, key="demo_seeds",
                        help="BM25 against the neural re-ranker trained three times (seeds "
                             "1, 2, 3): is it better, or was seed 1 lucky? The page then "
                             "gives both answers side by side."))
    if on:  # said, not silent (issue 51): the seeds view is a two-system comparison
        st.caption(SEEDS_LEAVE_OUT)
    return on


def demo_files() -> dict[str, InputFile]:
    """The demo with the neural re-ranker's three seeds: BM25 (run_a), the seeds (run_b,
    run_c, run_d), the qrels, the segment map and the proxy labels."""
    files = app_state.demo_compare_files(candidates=("run_b",))
    seeds = [app_state.relabelled(file, run_role(k + 1))
             for k, file in enumerate(app_state.demo_seed_files())]
    return {"run_a": files["run_a"], **{f.role: f for f in seeds},
            **{role: f for role, f in files.items() if not role.startswith("run_")}}


def with_systems(settings: CompareSettings, seed_runs: tuple[int, ...] | None,
                 inputs: LoadedInputs) -> CompareSettings:
    """The settings for systems of ``seed_runs`` runs each: the runs' names (as the user
    set them) become the systems' names."""
    if seed_runs is None:
        return settings
    names = settings.run_names or inputs.default_run_names
    slices = system_slices(seed_runs, inputs.n_runs)
    systems = tuple(system_name([names[i] for i in group]) for group in slices)
    if len(set(systems)) != len(systems):
        systems = tuple(f"{name} ({run_role(s)[-1].upper()})" for s, name in enumerate(systems))
    return dataclasses.replace(settings, seed_runs=seed_runs, run_names=systems)


def shown_inputs(inputs: LoadedInputs, report: Report, candidate: int = 1) -> LoadedInputs:
    """The inputs the per-query detail shows for ``candidate``: with seeds, the first run of
    the baseline system and the first run of the candidate's."""
    if report.seeds is None:
        return inputs.pair(candidate) if report.several else inputs
    sizes = [len(runs) for runs in report.seeds.runs]
    first = sum(sizes[:candidate])
    return inputs.pair(first) if inputs.n_runs > 2 else inputs


def _answer_card(column: Any, title: str, question: str, delta: str, interval: str,
                 p: str, note: str) -> None:
    with column.container(border=True):
        st.markdown(f"**{title}**")
        st.caption(question)
        cells = st.columns(2)
        cells[0].metric("B \u2212 A", delta)
        cells[1].metric("p", p)
        st.metric("Interval", interval)
        st.caption(note)


def show_answers(report: Report, metric: str, scope: str = "") -> None:
    """The seeds section of one metric (nothing for a report without seeds)."""
    if report.seeds is None:
        return
    answer = report.seeds.answer(metric)
    names = report.pair_names
    comparison = answer.comparison
    these = comparison.these_runs
    level = level_number(1 - these.alpha)
    st.subheader("Two answers: these trained runs, and a new training run", anchor=False)
    left, right = st.columns(2)
    _answer_card(left, THESE_RUNS, THESE_RUNS_QUESTION.capitalize(), format_delta(these.delta),
                 format_interval(these.interval.low, these.interval.high),
                 format_p(these.p_value),
                 f"{level}% interval on the per-query mean over {comparison.n_seeds_b} run(s) "
                 f"of {names[1]} and {comparison.n_seeds_a} of {names[0]}.")
    new_run = comparison.new_run
    if new_run is None:
        with right.container(border=True):
            st.markdown(f"**{NEW_RUN}**")
            st.caption(NEW_RUN_QUESTION.capitalize())
            st.info("The seed variance cannot be measured with one run per system: only the "
                    "answer for these trained runs is shown.", icon=":material/info:")
    else:
        _answer_card(right, NEW_RUN, NEW_RUN_QUESTION.capitalize(),
                     format_delta(new_run.estimate), format_interval(new_run.low, new_run.high),
                     format_p(new_run.p_value),
                     f"{level}% random-effects interval (generalized pivots, effective df "
                     f"{new_run.df:.1f}): counts the queries and the seeds.")
    words = seed_views.sentences(answer, names)
    if words and comparison.answers_disagree:
        st.warning(markup.text(words[0]), icon=":material/casino:")
        words = words[1:]
    for sentence in words if new_run is not None else ():
        st.markdown(markup.text(sentence))
    chart_cache.show_altair(
        lambda: seed_charts.seeds_forest(answer, metric=metric, names=names, alpha=these.alpha),
        (answer,), ("seeds_forest", metric, names, these.alpha),
        key=f"seeds_forest:{metric}{scope}")
    if answer.measured:
        st.markdown("**Variance components**")
        left, right = st.columns([3, 2])
        header, rows = seed_views.components_table(answer)
        left.dataframe(pd.DataFrame(rows, columns=header), hide_index=True,
                       width="stretch")
        chart_cache.show_altair(lambda: seed_charts.components_chart(answer, names),
                                (answer,), ("seeds_components", names),
                                key=f"seeds_components:{metric}{scope}", place=right)
    with st.expander(f"Each run of {names[1]} against the mean of {names[0]}'s runs"):
        header, rows = seed_views.per_seed_table(answer)
        st.dataframe(pd.DataFrame(rows, columns=header), hide_index=True,
                     width="stretch")


def show_leaderboard(report: Report, metric: str) -> None:
    """Several candidates with seeds: each one's new-run answer, with the Holm-adjusted p."""
    if report.seeds is None:
        return
    st.markdown(f"**{NEW_RUN}** against **{markup.text(report.run_names[0])}** (p adjusted "
                "for the candidates by Holm)")
    header, rows = seed_views.leaderboard_table(report, metric)
    st.dataframe(pd.DataFrame(rows, columns=header), hide_index=True, width="stretch")
