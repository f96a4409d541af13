"""The PPI page's labelling in rounds: the gold labels of a plan's rounds turned into B - A after
each round, whether the question is answered, and the next round to label (issue 47).

Collects a plan file from an earlier round (optional: without one, the plan the page just drew)
and the gold labels of every round so far, and shows what ``ranklens.ppi.rounds`` decides, in
the words ``ranklens ppi --design`` prints (`look_sentence`) and, while the rule allows another
round, the next round as ``ranklens plan-labels --design PLAN --gold-qrels GOLD`` draws it.
It computes nothing itself; each result is kept in the app's cache by the inputs' digests and
the settings.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app import state as app_state
from ranklens.app.state import cached, input_key, parsed_qrels, parsed_run
from ranklens.formats import literal
from ranklens.io import InputError, InputFile
from ranklens.ppi.labelling import LabelPlan, PlanError, plan_csv
from ranklens.ppi.rounds import design_looks, look_sentence, plan_next_round, read_plan_file


def show_rounds(plan: LabelPlan, run_a: InputFile, run_b: InputFile, proxy: InputFile,
                alpha: float) -> None:
    """Uploads of a plan file from an earlier round and of the gold labels so far; once the
    gold labels are given, B - A after each round in the library's sentences and, when the
    question is open and rounds are left, the next round's words and plan file. A file that
    does not fit the plan is refused in words. Every file is parsed once per upload
    (`ranklens.app.state.parsed_run`, `parsed_qrels`; the plan file by its digest too)."""
    design_upload = st.file_uploader(
        "Plan file of an earlier round (CSV, optional)", type=["csv"], key="plan_design",
        help="To label in rounds: the plan file the last round gave (it holds every round's "
             "rows). Without one, the plan above is round 1.")
    upload = st.file_uploader(
        "Gold labels of the plan's documents", key="plan_gold",
        help="The judgements of the listed documents of every round so far (TREC qrels or a "
             "table): each drawn query then counts with the inverse of its probability.")
    if upload is None:
        return
    gold_file = app_state.input_file("qrels_gold", upload)
    plan_file = (None if design_upload is None
                 else app_state.input_file("label_plan", design_upload))
    runs_proxy = (parsed_run(run_a), parsed_run(run_b), parsed_qrels(proxy))
    try:
        design = plan.design if plan_file is None else cached(
            "plan-file", plan_file.key, lambda: read_plan_file(plan_file.data, plan_file.name),
            files=(plan_file,))
        key = (input_key((run_a, run_b, proxy, gold_file)), plan.metric, plan.budget,
               plan.seed, plan.rounds.max_rounds, plan.rounds.effect, alpha,
               None if plan_file is None else plan_file.key)
        gold = parsed_qrels(gold_file)
        looks, _ = cached("design-looks", key, lambda: design_looks(
            design, *runs_proxy, gold, alpha=alpha, gold_name=gold_file.name,
            plan_name="this plan"),
            label="Weighting the drawn queries…")
    except (PlanError, InputError) as error:
        st.error(f"**Cannot use these gold labels.** {literal(error)}", icon=":material/error:")
        return
    st.markdown("\n".join(f"- {literal(look_sentence(look, plan.metric))}" for look in looks))
    last = looks[-1]
    if last.answer is not None or last.round >= last.max_rounds:
        return
    try:
        following = cached("plan-next-round", key, lambda: plan_next_round(
            design, *runs_proxy, gold,
            budget_queries=plan.budget, seed=plan.seed, alpha=alpha,
            plan_name="this plan", gold_name=gold_file.name),
            label="Drawing the next round…")
    except PlanError as error:
        st.error(f"**Cannot draw the next round.** {literal(error)}", icon=":material/error:")
        return
    st.markdown(f"**Round {following.rounds.round}** (the same budget and seed as above):\n"
                + "\n".join(f"- {line}" for line in following.summary_lines()))
    st.download_button(f"Plan with round {following.rounds.round} (CSV)",
                       data=lambda: plan_csv(following.design),
                       file_name=f"ranklens-plan-round{following.rounds.round}.csv",
                       mime="text/csv", on_click="ignore", icon=":material/download:",
                       key="plan_next_csv",
                       help="Every round's rows: label the new round's documents, then give "
                            "this file and the gold labels of all rounds above.")


__all__ = ["show_rounds"]
