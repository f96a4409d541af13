"""A PPI++ analysis as plain JSON: what the HTML file embeds, a share link stores and the CLI
prints.

``payload(export)`` answers "the page's analysis as one JSON object" (kind ``ppi``, `SCHEMA`):
settings, the analysis (every estimate, the bias, the variance model), the verdict and
headline in words, the gold budget and its curve, the inputs. ``result_payload(analysis)`` is its
numbers, which is also what ``ranklens ppi --format json`` writes, so the CLI's JSON and the
page's stored analysis have one shape. ``analysis_from_payload`` reads a payload back,
numbers as stored. Non-finite numbers go through ``ranklens.codec`` (null, named in words under
``"non_finite"``); payloads written before it (no ``schema``, NaN already null) still read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ranklens import codec, formats
from ranklens._lazy import installed_version
from ranklens.document import html_shell as html_common
from ranklens.io import InputFile
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import PPIAnalysis
from ranklens.ppi.labelling import LabelPlan
from ranklens.ppi.settings import PPISettings
from ranklens.ppi.verdict_words import ppi_sentences
from ranklens.ppi.views import GoldBudget

SCHEMA = 1
"""Version 1 (issue 26): the payload of 0.x with a ``schema`` key and non-finite numbers
named under ``"non_finite"``. Payloads without ``schema`` are read as version 1."""


@dataclass(frozen=True)
class PPIExport:
    """What the PPI page shows, as the page computed it.

    ``budget`` is the gold-budget planner at the page's choice and ``budget_curve`` its chart's
    points (``ppi_analysis.budget_curve``); both None when the analysis has no variance model.
    ``settings`` are the page's settings, ``inputs`` the four files; ``label_plan`` the
    labelling plan the page drew (its budget and seed), None when it drew none.
    """

    analysis: PPIAnalysis
    settings: PPISettings
    inputs: tuple[InputFile, ...] = ()
    budget: GoldBudget | None = None
    budget_curve: pd.DataFrame | None = None
    version: str = field(default_factory=installed_version)
    label_plan: LabelPlan | None = None


def result_payload(analysis: PPIAnalysis, version: str | None = None) -> dict[str, Any]:
    """The analysis's numbers as the page stores them: ``kind``, ``schema``,
    ``ranklens_version`` and ``analysis`` (every estimate, the bias, the variance model). It
    is what ``ranklens ppi --format json`` writes; `payload` adds the page's settings, verdict,
    headline, gold budget and inputs around the same keys. Plain values, non-finite numbers
    still in place (`ranklens.codec.encode` names them). The judge check
    (`ranklens.ppi.judge.JudgeCheck`: confusion matrix, weighted kappas, per-segment bias and
    PPI++) is written under ``judge``, beside ``analysis``, when the analysis has one."""
    numbers = codec.plain(analysis)
    judge = numbers.pop("judge", None)  # its own key (issue 32): read back into the analysis
    return {"kind": "ppi", "schema": SCHEMA, "ranklens_version": version or installed_version(),
            "analysis": numbers, **({"judge": judge} if judge is not None else {})}


def settings_data(export: PPIExport) -> dict[str, Any]:
    """The analysis's settings and, when the page planned a gold budget, the viewer's choice
    of gold queries (not a setting of the analysis: a link does not store it)."""
    settings = export.settings.to_dict()
    if export.budget is not None:
        settings["planned_gold_queries"] = export.budget.planned
    if export.label_plan is not None:
        settings["label_plan_budget"] = export.label_plan.budget
        settings["label_plan_seed"] = export.label_plan.seed
        rounds = export.label_plan.rounds
        if rounds.max_rounds > 1 or rounds.effect is not None:  # older links: one, none
            settings["label_plan_rounds"] = rounds.max_rounds
            settings["label_plan_effect"] = rounds.effect
    return settings


def label_plan_data(plan: LabelPlan) -> dict[str, Any]:
    """The labelling plan as plain JSON: its settings, its words and its drawn queries (each
    with its probability, documents to judge, proxy B - A and uncertainty)."""
    drawn = plan.queries[plan.queries["drawn"]].sort_values(["probability", "query_id"],
                                                            ascending=[False, True])
    columns = ["query_id", "probability", "n_docs", "proxy_delta", "uncertainty"]
    rounds = ({} if plan.rounds.max_rounds == 1 and plan.rounds.effect is None else
              {"max_rounds": plan.rounds.max_rounds, "effect": plan.rounds.effect})
    return {"metric": plan.metric, "budget": plan.budget, "seed": plan.seed, **rounds,
            "lines": plan.summary_lines(),
            "drawn": codec.plain(drawn[columns].to_dict("records"))}


def plan_options(data: Mapping[str, Any]) -> str:
    """The ``ranklens plan-labels`` options that draw a plan again, from `label_plan_data`:
    its budget and seed, and its rounds and effect when it has them."""
    options = f"--budget-queries {float(data['budget']):g} --seed {int(data['seed'])}"
    if "max_rounds" in data:
        options += f" --max-rounds {int(data['max_rounds'])}"
    if data.get("effect") is not None:
        options += f" --effect {float(data['effect']):g}"
    return options


def _payload(export: PPIExport) -> dict[str, Any]:
    analysis = export.analysis
    budget = None
    if export.budget is not None:
        budget = {**codec.plain(export.budget), "change": export.budget.change,
                  "curve": None if export.budget_curve is None
                  else codec.plain(export.budget_curve.to_dict("list"))}
    result = result_payload(analysis, export.version)
    return codec.encode({
        "kind": result["kind"], "schema": result["schema"],
        "ranklens_version": result["ranklens_version"],
        "settings": codec.plain(settings_data(export)),
        "analysis": result["analysis"],
        **({"judge": result["judge"]} if "judge" in result else {}),
        "verdict": [formats.plain(sentence) for sentence in ppi_sentences(analysis)],
        "headline": [formats.card_dict(card)
                     for card in ppi_views.ppi_cards(analysis)],
        "budget": budget,
        "inputs": html_common.files_json(export.inputs),
        **({"label_plan": label_plan_data(export.label_plan)}
           if export.label_plan is not None else {}),
    })


def payload(export: PPIExport) -> dict[str, Any]:
    """The analysis as plain JSON: what the HTML file embeds and what a share link stores."""
    return _payload(export)


def analysis_from_payload(data: Mapping[str, Any]) -> PPIAnalysis:
    """The ``PPIAnalysis`` a `payload` was made from, numbers as stored (nothing recomputed).

    The gold-budget planner is not part of it: the page plans from the analysis's variance
    model. Raises ``ValueError`` for a payload of another kind or shape.
    """
    codec.check_kind(data, "ppi", SCHEMA, "a PPI result")
    try:
        decoded = codec.decode(data)
        analysis = decoded["analysis"]
        if decoded.get("judge") is not None:
            analysis = {**analysis, "judge": decoded["judge"]}
        return codec.rebuild(PPIAnalysis, analysis)
    except KeyError as error:
        raise ValueError(f"the PPI result lacks {error}") from None
