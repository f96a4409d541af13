"""MDE page: how many seeds and how many queries, for a new training run (issue 31).

Measures the variance components from pilot runs with seeds (the demo's neural re-ranker,
three seeds, against BM25, or the user's files: a slot per system taking one file per seed)
and answers with `ranklens.plan.seeds.seed_plan`: the MDE of a new-run comparison for S seeds
per system and n queries, the seeds needed for the target difference at the pilot's n, and a
grid of both. The page collects and draws; the numbers are the library's.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ranklens.app import state as app_state
from ranklens.formats import format_value, literal
from ranklens.io import InputError, InputFile
from ranklens.plan.seeds import components_from_inputs, seed_plan
from ranklens.stats.random_effects import VarianceComponents

TITLE = "How many seeds and how many queries? A new training run"
DEMO_SOURCE, OWN_SOURCE = "Demo: neural re-ranker (3 seeds) against BM25", "My runs with seeds"


def _components(source: str, metric: str) -> tuple[VarianceComponents, int] | None:
    """The pilot's components and its number of queries (None until the files are there)."""
    if source == DEMO_SOURCE:
        files = app_state.demo_files()  # read and hashed once per server process
        runs_a = [app_state.relabelled(files["run_a"], "run")]
        runs_b = list(app_state.demo_seed_files())
        qrels: InputFile | None = app_state.relabelled(files["qrels"], "qrels")
    else:
        left, middle, right = st.columns(3)
        a = left.file_uploader("System A runs", accept_multiple_files=True, key="seeds_a",
                               help="One file per training seed (one for a deterministic "
                                    "system such as BM25).")
        b = middle.file_uploader("System B runs", accept_multiple_files=True, key="seeds_b",
                                 help="One file per training seed.")
        q = right.file_uploader("Judgements (qrels)", key="seeds_qrels",
                                help="Leave empty when the runs are per-query tables.")
        if not a or not b:
            st.info("Choose the runs of both systems (several files per system: one per "
                    "seed).")
            return None
        runs_a = [app_state.input_file("run", u) for u in a]
        runs_b = [app_state.input_file("run", u) for u in b]
        qrels = None if q is None else app_state.input_file("qrels", q)
    key = (tuple(f.key for f in (*runs_a, *runs_b)), None if qrels is None else qrels.key,
           metric)
    components = app_state.cached(
        "mde_seed_components", key,
        lambda: components_from_inputs(runs_a, runs_b, qrels, metric),
        label="Measuring the seed variance…",
        files=(*runs_a, *runs_b, *(() if qrels is None else (qrels,))))
    return components, components.a.n_queries


def show(*, alpha: float, power: float, method: str, target: float, metric: str) -> None:
    """The section: the components measured, then the MDE and the seeds needed."""
    st.subheader(TITLE, anchor=False)
    st.caption("A model trained again with another seed gives another run: planning a "
               "comparison of training recipes needs seeds as well as queries. The variance "
               "components come from pilot runs with seeds; the MDE is that of the new-run "
               "interval (random-effects t), for the power and alpha set in the sidebar.")
    source = st.radio("Seed variance from", (DEMO_SOURCE, OWN_SOURCE), horizontal=True,
                      key="mde_seed_source")
    try:
        measured = _components(source, metric)
    except (InputError, ValueError) as error:
        st.error(f"**Cannot measure the seed variance.** {literal(error)}",
                 icon=":material/error:")
        return
    if measured is None:
        return
    components, pilot_n = measured
    left, right = st.columns(2)
    n_seeds = int(left.number_input("Seeds per system", min_value=2, max_value=100, value=3,
                                    step=1, key="mde_seeds_s"))
    n_queries = int(right.number_input("Queries", min_value=2, value=pilot_n, step=10,
                                       key="mde_seeds_n"))
    plan = seed_plan(components, n_seeds=n_seeds, n_queries=n_queries, delta=target,
                     alpha=alpha, power=power, method=method)
    cells = st.columns(3)
    cells[0].metric(f"MDE, {n_seeds} seeds × {n_queries:,} queries", format_value(plan.mde),
                    help="The smallest new-run difference detected with the sidebar's power.")
    cells[1].metric(f"Seeds for {format_value(target)} at {n_queries:,} queries",
                    "—" if plan.seeds_for_delta is None else f"{plan.seeds_for_delta}")
    cells[2].metric("Seed variance (B)", "—" if components.b.seed is None
                    else f"{components.b.seed:.3g}",
                    help=f"Query × seed {components.query_seed or 0:.3g}, per-query "
                         f"difference {components.difference:.3g}.")
    if plan.seeds_for_delta is None:
        st.warning(literal(plan.why), icon=":material/block:")
    grid = pd.DataFrame(plan.grid, columns=["seeds", "queries", "MDE"])
    table = grid.pivot(index="seeds", columns="queries", values="MDE")
    table.columns = [f"{n:,} queries" for n in table.columns]
    st.dataframe(table.map(format_value), width="stretch")
    st.caption("Extra seeds shrink only the seed part: however many, the MDE stays above "
               "what the queries alone allow.")
