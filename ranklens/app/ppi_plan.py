"""The PPI page's "Which queries to label next": a labelling plan drawn from the page's runs
and proxy judgements (issue 47).

Collects the budget and the seed and shows what ``ranklens.ppi.labelling.plan_labels``
decides, in its own words (`LabelPlan.summary_lines`, the same lines ``ranklens
plan-labels`` prints): the queries drawn, why, and the plan as the CSV that ``ranklens ppi
--design`` reads back with the gold labels. It computes nothing itself; the plan is kept in
the app's cache by the inputs' digests and the settings, and each input is parsed once per
upload (`ranklens.app.state.parsed_run`), not on every change of the budget or the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from ranklens.app.ppi_rounds import show_rounds
from ranklens.app.state import cached, input_key, parsed_qrels, parsed_run
from ranklens.formats import literal
from ranklens.io import InputFile
from ranklens.ppi.analysis import with_plan
from ranklens.ppi.labelling import LabelPlan, PlanError, Rounds, plan_csv, plan_labels
from ranklens.ppi.payload import plan_options

TITLE = "Which queries to label next"
SHOWN_COLUMNS = {"query_id": "Query", "probability": "Probability", "n_docs": "Documents",
                 "proxy_delta": "Proxy B − A", "uncertainty": "Uncertainty"}


def label_plan(run_a: InputFile, run_b: InputFile, proxy: InputFile, metric: str,
               alpha: float, budget: float, seed: int, max_rounds: int = 1,
               effect: float | None = None) -> LabelPlan:
    """The plan of these files and settings (round 1 of ``max_rounds``, the smallest B - A
    that matters ``effect``), once per (digests, settings)."""
    files = (run_a, run_b, proxy)
    rounds = Rounds(max_rounds=max_rounds, effect=effect)
    return cached("label-plan", (input_key(files), metric, alpha, budget, seed, max_rounds,
                                 effect),
                  lambda: plan_labels(parsed_run(run_a), parsed_run(run_b),
                                      parsed_qrels(proxy), metric=metric,
                                      budget_queries=budget, seed=seed, alpha=alpha,
                                      rounds=rounds),
                  label="Drawing the queries to label…")


def show_plan(run_a: InputFile, run_b: InputFile, proxy: InputFile, metric: str,
              alpha: float, n_queries: int,
              chosen: PlanChoice | None = None) -> LabelPlan | None:
    """An expander with the budget, the seed, the rounds planned and the smallest B - A that
    matters (``chosen``: a share link's, else 10% of the queries, 0, one round and none), the
    plan's words, its drawn queries, the plan as a CSV download and its rounds' gold labels
    (`ranklens.app.ppi_rounds.show_rounds`); the plan drawn, for the HTML export and the share
    link (None when there is none)."""
    with st.expander(TITLE, icon=":material/checklist:"):
        st.caption("Before labelling more: draw the queries whose gold B − A can differ most "
                   "from the proxy's, each with a known probability, and label only their "
                   "documents that can move B − A. `ranklens ppi … --design plan.csv` (or "
                   "`ranklens.ppi.rounds.design_estimate_from_gold`) turns their gold "
                   "labels into B − A with a valid interval. To label in rounds, plan more "
                   "than one round: after each, give the gold labels so far (and the last "
                   "round's plan file) to see whether the question is answered and to draw "
                   "the next round.")
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
        max_rounds = left.number_input(
            "Rounds planned", min_value=1, max_value=10,
            value=1 if chosen is None else chosen[2], step=1, key="plan_rounds",
            help="Each round's interval is at level 1 − α / rounds, so stopping at the first "
                 "round that answers the question is wrong with probability at most α.")
        effect = right.number_input(
            "Smallest B − A that matters (0: none)", min_value=0.0, max_value=1.0,
            value=0.0 if chosen is None or chosen[3] is None else chosen[3], step=0.005,
            format="%.4f", key="plan_effect",
            help="With rounds: an interval inside ±this answers the question too (no "
                 "difference that matters).")
        try:
            plan = label_plan(run_a, run_b, proxy, metric, alpha, float(budget), int(seed),
                              int(max_rounds), float(effect) or None)
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
        st.download_button("Plan (CSV)", data=lambda: plan_csv(plan.documents),
                           file_name=f"ranklens-plan-seed{int(seed)}.csv", mime="text/csv",
                           on_click="ignore", icon=":material/download:", key="plan_csv",
                           help="One row per document to judge: query_id, doc_id, probability "
                                "(the query's), why, the ranks, the proxy grade and the "
                                "settings that draw the plan again.")
        show_rounds(plan, run_a, run_b, proxy, alpha)
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


PlanChoice = tuple[float, int, int, float | None]
"""A plan's budget, seed, rounds planned and smallest B - A that matters (None: none)."""


def link_choice(result: Mapping[str, Any] | None) -> PlanChoice | None:
    """The labelling plan's settings a share link stored with its numbers, if any (links
    made before rounds were on the page: one round, no effect)."""
    settings = (result or {}).get("settings") or {}
    if "label_plan_budget" not in settings:
        return None
    effect = settings.get("label_plan_effect")
    return (float(settings["label_plan_budget"]), int(settings.get("label_plan_seed", 0)),
            int(settings.get("label_plan_rounds", 1)), None if effect is None else float(effect))


def show_stored_plan(data: Mapping[str, Any]) -> None:
    """The plan a share link stored (`ranklens.ppi.payload.label_plan_data`): its budget and
    seed, its words and its drawn queries, as the sharer saw them."""
    with st.expander(TITLE, icon=":material/checklist:"):
        st.caption(f"The plan as shared: an expected {float(data['budget']):g} queries, seed "
                   f"{int(data['seed'])} (`ranklens plan-labels … {plan_options(data)}` draws "
                   "it again).")
        st.markdown("\n".join(f"- {literal(line)}" for line in data["lines"]))
        drawn = pd.DataFrame(data["drawn"], columns=list(SHOWN_COLUMNS))
        st.dataframe(drawn.rename(columns=SHOWN_COLUMNS), hide_index=True,
                     height=min(35 * (len(drawn) + 1) + 3, 320))


__all__ = ["TITLE", "default_budget", "label_plan", "link_choice", "plan_beside", "show_plan",
           "show_stored_plan"]
