"""``ranklens mde`` / ``ranklens ppi --format json`` write what the pages store.

The MDE and PPI pages store a payload (`ranklens.plan.payload.payload`,
`ranklens.ppi.payload.payload`) in the HTML file and the share link; the CLI's JSON is the
numbers part of it (`result_payload`): the same keys, the same values, strict JSON. The page's
side is built here as the page builds it, from the library, not from the CLI's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ranklens import codec
from ranklens.io import InputFile
from ranklens.plan import analysis as planning
from ranklens.plan import payload as plan_payload
from ranklens.plan import views as plan_views
from ranklens.plan.settings import PlanSettings, SpreadSource, default_deltas
from ranklens.ppi import payload as ppi_payload
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.settings import PPISettings
from tests.support.cli_helpers import Runner


def _refuse(constant: str) -> float:
    raise ValueError(f"strict JSON has no {constant}")


def test_mde_json_is_the_pages_stored_plan(ranklens: Runner,
                                           demo_paths: dict[str, Path]) -> None:
    done = ranklens("mde", "--runs", demo_paths["run_a"], demo_paths["run_b"], "--qrels",
                    demo_paths["qrels"], "--metric", "ndcg@10", "--queries", "400",
                    *(f"--delta={d}" for d in default_deltas(0.01)), "-f", "json")
    assert done.code == 0, done.err
    cli = json.loads(done.out, parse_constant=_refuse)
    # the page: the pilot measured on the files, the plan from its sd (pages/mde.py)
    pilot = planning.pilot_from_files(*(InputFile.from_path(role, demo_paths[role])
                                        for role in ("run_a", "run_b", "qrels")), "nDCG@10")
    plan = planning.plan_queries(pilot.sd, n_queries=400, deltas=default_deltas(0.01))
    settings = PlanSettings(SpreadSource("pilot", metric="nDCG@10", order="score"), 400, 0.05,
                            0.8, "z", 0.01, default_deltas(0.01))
    export = plan_payload.MdeExport(plan, 0.01, plan_views.other_method_mde(plan), pilot,
                                    settings)
    stored = plan_payload.payload(export)
    # the one known difference: the CLI measures the pilot through compare's input step, the
    # page through pilot_from_files, and they name the source differently (issue 26, item 5:
    # one input step for the three features, owned by the stats/pipeline half)
    assert cli["spread"]["pilot"].pop("source") == "paired per-query values"
    assert stored["spread"]["pilot"].pop("source") == "pilot runs scored on the qrels"
    assert {key: stored[key] for key in cli} == cli
    assert set(cli) == {"kind", "schema", "ranklens_version", "spread", "plan"}
    assert cli["plan"]["mde"] == pytest.approx(0.021744440783963846, abs=1e-12)
    assert cli["spread"]["pilot"]["n_queries"] == 400


def test_ppi_json_is_the_pages_stored_analysis(ranklens: Runner,
                                               demo_paths: dict[str, Path]) -> None:
    roles = ("run_a", "run_b", "qrels_proxy", "qrels_gold")
    done = ranklens("ppi", demo_paths["run_a"], demo_paths["run_b"], "--proxy-qrels",
                    demo_paths["qrels_proxy"], "--gold-qrels", demo_paths["qrels_gold"],
                    "--metric", "ndcg@10", "-f", "json")
    assert done.code == 0, done.err
    cli = json.loads(done.out, parse_constant=_refuse)
    files = [InputFile.from_path(role, demo_paths[role]) for role in roles]
    analysis = analyse_ppi(*files, "nDCG@10", alpha=0.05)
    stored = ppi_payload.payload(ppi_payload.PPIExport(
        analysis, PPISettings(metric="nDCG@10", alpha=0.05, order="score")))
    assert {key: stored[key] for key in cli} == cli
    assert set(cli) == {"kind", "schema", "ranklens_version", "analysis", "judge"}
    assert ppi_payload.analysis_from_payload(stored) == analysis


def test_payload_names_non_finite_numbers_and_reads_them_back() -> None:
    """A plan whose power is undefined (n below 2) or a result with an infinite number: the
    payload is strict JSON and reads back to the same numbers."""
    plan = planning.plan_queries(0.1, n_queries=400, deltas=(0.01,))
    data = plan_payload.result_payload(plan, None)
    data["plan"]["mde"] = float("inf")
    text = codec.dumps(data)
    assert json.loads(text, parse_constant=_refuse)["non_finite"] == {
        "/plan/mde": "infinite"}
    assert codec.loads(text)["plan"]["mde"] == float("inf")
