"""The PPI page's "Which queries to label next": a labelling plan drawn from the page's runs
and proxy judgements (issue 47).

Collects the budget and the seed and shows what ``ranklens.ppi.labelling.plan_labels``
decides, in its own words (`LabelPlan.summary_lines`, the same lines ``ranklens
plan-labels`` prints): the queries drawn, why, and the plan as the CSV that ``ranklens ppi
--design`` reads back with the gold labels. It computes nothing itself; the plan is kept in
the app's cache by the inputs' digests and the settings, and each input is parsed once per
upload, not on every change of the budget or the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from ranklens.app import state as app_state
from ranklens.app.state import cached, input_key
from ranklens.data import Qrels, Run
from ranklens.formats import literal
from ranklens.io import InputError, InputFile, read_qrels, read_run
from ranklens.ppi.analysis import with_plan
from ranklens.ppi.labelling import (
    LabelPlan,
    PlanError,
    design_sentence,
    plan_labels,
)
from ranklens.ppi.rounds import design_estimate_from_gold

TITLE = "Which queries to label next"
SHOWN_COLUMNS = {"query_id": "Query", "probability": "Probability", "n_docs": "Documents",
                 "proxy_delta": "Proxy B − A", "uncertainty": "Uncertainty"}


def label_plan(run_a: InputFile, run_b: InputFile, proxy: InputFile, metric: str,
               alpha: float, budget: float, seed: int) -> LabelPlan:
    """The plan of these files and settings, once per (digests, settings)."""
    files = (run_a, run_b, proxy)
    return cached("label-plan", (input_key(files), metric, alpha, budget, seed),
                  lambda: plan_labels(parsed_run(run_a), parsed_run(run_b),
                                      parsed_qrels(proxy), metric=metric,
                                      budget_queries=budget, seed=seed, alpha=alpha),
                  label="Drawing the queries to label…")


def parsed_run(file: InputFile) -> Run:
    """``file``'s run, read once per upload (its digest) however often the budget or the
    seed change; the upload's limits are checked on that read."""
    return cached("plan-run", file.key, lambda: read_run(file.data, name=file.name)[0],
                  files=(file,))


def parsed_qrels(file: InputFile) -> Qrels:
    """``file``'s judgements, read once per upload (its digest), as `parsed_run`."""
    return cached("plan-qrels", file.key, lambda: read_qrels(file.data, name=file.name)[0],
                  files=(file,))


def show_plan(run_a: InputFile, run_b: InputFile, proxy: InputFile, metric: str,
              alpha: float, n_queries: int,
              chosen: tuple[float, int] | None = None) -> LabelPlan | None:
    """An expander with the budget and seed (``chosen``: a share link's, else 10% of the
    queries and 0), the plan's words, its drawn queries and the plan as a CSV download; the
    plan drawn, for the HTML export and the share link (None when there is none)."""
    with st.expander(TITLE, icon=":material/checklist:"):
        st.caption("Before labelling more: draw the queries whose gold B − A can differ most "
                   "from the proxy's, each with a known probability, and label only their "
                   "documents that can move B − A. `ranklens ppi … --design plan.csv` (or "
                   "`ranklens.ppi.rounds.design_estimate_from_gold`) turns their gold "
                   "labels into B − A with a valid interval. To label in rounds, plan with "
                   "`ranklens plan-labels … --max-rounds 3`, then draw each next round with "
                   "`--design plan.csv --gold-qrels gold.trec`.")
        left, right = st.columns(2)
        budget = left.number_input(
            "Queries to label (expected)", min_value=1, max_value=max(n_queries, 1),
            value=(default_budget(n_queries) if chosen is None
                   else max(1, min(n_queries, round(chosen[0])))), step=1, key="plan_budget",
            help="The expected number of drawn queries: each query is drawn on its own with "
                 "its probability, so the number drawn varies around it.")
        seed = right.number_input("Seed of the draw", min_value=0,
                                  value=0 if chosen is None else int(chosen[1]), step=1,
                                  key="plan_seed")
        try:
            plan = label_plan(run_a, run_b, proxy, metric, alpha, float(budget), int(seed))
        except PlanError as error:
            st.warning(f"No plan for {metric}: {error}", icon=":material/info:")
            return None
        st.markdown("\n".join(f"- {line}" for line in plan.summary_lines()))
        drawn = plan.queries[plan.queries["drawn"]].sort_values("probability",
                                                                 ascending=False)
        st.dataframe(drawn[list(SHOWN_COLUMNS)].rename(columns=SHOWN_COLUMNS),
                     hide_index=True, height=min(35 * (len(drawn) + 1) + 3, 320),
                     column_config={"Probability": st.column_config.NumberColumn(format="%.3f"),
                                    "Proxy B − A": st.column_config.NumberColumn(format="%+.4f"),
                                    "Uncertainty": st.column_config.NumberColumn(format="%.3f")})
        st.download_button("Plan (CSV)", data=lambda: _csv(plan.documents),
                           file_name=f"ranklens-plan-seed{int(seed)}.csv", mime="text/csv",
                           on_click="ignore", icon=":material/download:", key="plan_csv",
                           help="One row per document to judge: query_id, doc_id, probability "
                                "(the query's), why, the ranks, the proxy grade and the "
                                "settings that draw the plan again.")
        show_design_estimate(plan, run_a, run_b, proxy, alpha)
    return plan


def default_budget(n_queries: int) -> int:
    """The plan's starting budget: 10% of the queries (at least 1)."""
    return max(1, min(n_queries, round(0.1 * n_queries)))


def plan_beside(curve: pd.DataFrame, run_a: InputFile, run_b: InputFile, proxy: InputFile,
                metric: str, alpha: float, n_queries: int) -> pd.DataFrame:
    """The gold-budget ``curve`` with the labelling plan's widths at its budgets
    (`ranklens.ppi.analysis.with_plan`; the plan's rule does not depend on its budget or
    seed, so the expander's starting plan is used); as it is where no plan can be drawn."""
    try:
        plan = label_plan(run_a, run_b, proxy, metric, alpha,
                          float(default_budget(n_queries)), 0)
    except PlanError:
        return curve
    return with_plan(curve, plan)


def link_choice(result: Mapping[str, Any] | None) -> tuple[float, int] | None:
    """The labelling plan's budget and seed a share link stored with its numbers, if any."""
    settings = (result or {}).get("settings") or {}
    if "label_plan_budget" not in settings:
        return None
    return float(settings["label_plan_budget"]), int(settings.get("label_plan_seed", 0))


def show_stored_plan(data: Mapping[str, Any]) -> None:
    """The plan a share link stored (`ranklens.ppi.payload.label_plan_data`): its budget and
    seed, its words and its drawn queries, as the sharer saw them."""
    with st.expander(TITLE, icon=":material/checklist:"):
        st.caption(f"The plan as shared: an expected {float(data['budget']):g} queries, seed "
                   f"{int(data['seed'])} (`ranklens plan-labels … --budget-queries "
                   f"{float(data['budget']):g} --seed {int(data['seed'])}` draws it again).")
        st.markdown("\n".join(f"- {literal(line)}" for line in data["lines"]))
        drawn = pd.DataFrame(data["drawn"], columns=list(SHOWN_COLUMNS))
        st.dataframe(drawn.rename(columns=SHOWN_COLUMNS), hide_index=True,
                     height=min(35 * (len(drawn) + 1) + 3, 320))


def show_design_estimate(plan: LabelPlan, run_a: InputFile, run_b: InputFile,
                         proxy: InputFile, alpha: float) -> None:
    """An upload of the plan's gold labels and, once given, B - A from them in the library's
    sentence (`design_sentence`); a file that does not fit the plan is refused in words."""
    upload = st.file_uploader(
        "Gold labels of the plan's documents", key="plan_gold",
        help="The judgements of the listed documents only (TREC qrels or a table): each drawn "
             "query then counts with the inverse of its probability.")
    if upload is None:
        return
    gold_file = app_state.input_file("qrels_gold", upload)
    try:
        estimate = cached(
            "design-estimate",
            (input_key((run_a, run_b, proxy, gold_file)), plan.metric, plan.budget, plan.seed,
             alpha),
            lambda: design_estimate_from_gold(
                plan.documents, parsed_run(run_a), parsed_run(run_b), parsed_qrels(proxy),
                read_qrels(gold_file.data, name=gold_file.name)[0], alpha=alpha,
                gold_name=gold_file.name, plan_name="this plan")[0],
            label="Weighting the drawn queries…")
    except (PlanError, InputError) as error:
        st.error(f"**Cannot use these gold labels.** {literal(error)}", icon=":material/error:")
        return
    st.markdown(literal(design_sentence(estimate, plan.metric)))


def _csv(documents: pd.DataFrame) -> str:
    return documents.to_csv(index=False, float_format="%.6g")


__all__ = ["TITLE", "default_budget", "label_plan", "link_choice", "plan_beside", "show_plan",
           "show_stored_plan"]
