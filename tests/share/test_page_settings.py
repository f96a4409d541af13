"""The MDE and PPI pages' settings: one ``to_dict``/``from_dict`` each, links of every format.

The dicts below are what main's pages wrote (``pages/mde.py``, ``pages/ppi.py`` before
``PlanSettings``/``PPISettings``): format 2 (settings resolved, the table's target differences
included) and format 1 (before links kept their numbers: no ``deltas``; the oldest links have
no document ``order``). They must read back as the settings those pages used, and main's
format-2 dicts must be written back byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranklens.plan import analysis as planning
from ranklens.plan import html as html_plan
from ranklens.plan import views as plan_views
from ranklens.plan.settings import PlanSettings, SpreadSource
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.settings import PPISettings
from ranklens.share.links import reopen, share
from ranklens.store import SQLiteReportStore
from tests.support.share_helpers import app, ppi_files, run_clean

TEST = {"n_queries": 400, "alpha": 0.05, "power": 0.8, "method": "z", "target": 0.01}
DELTAS = [0.02, 0.01, 0.005]

# What main's MDE page wrote in a format-2 link, one per source of the spread.
MDE_FORMAT_2 = {
    "typed": {"source": "typed", "sd": 0.1, **TEST, "deltas": DELTAS},
    "demo": {"source": "demo", "metric": "nDCG@10", "order": "score", **TEST, "deltas": DELTAS},
    "pilot": {"source": "pilot", "metric": "AP", "order": "rank", "n_queries": 1000,
              "alpha": 0.01, "power": 0.9, "method": "t", "target": 0.003,
              "deltas": [0.02, 0.01, 0.005, 0.003]},
    "tables": {"source": "tables", "metric": "ndcg_cut_10", **TEST, "deltas": DELTAS},
    "columns": {"source": "tables", "column_a": "(none: column B already holds B − A)",
                "column_b": "delta", **TEST, "deltas": DELTAS},
}
MDE_EXPECTED = {
    "typed": PlanSettings(SpreadSource("typed", sd=0.1), 400, 0.05, 0.8, "z", 0.01,
                          (0.02, 0.01, 0.005)),
    "demo": PlanSettings(SpreadSource("demo", metric="nDCG@10", order="score"), 400, 0.05,
                         0.8, "z", 0.01, (0.02, 0.01, 0.005)),
    "pilot": PlanSettings(SpreadSource("pilot", metric="AP", order="rank"), 1000, 0.01, 0.9,
                          "t", 0.003, (0.02, 0.01, 0.005, 0.003)),
    "tables": PlanSettings(SpreadSource("tables", metric="ndcg_cut_10"), 400, 0.05, 0.8, "z",
                           0.01, (0.02, 0.01, 0.005)),
    "columns": PlanSettings(SpreadSource("tables",
                                         column_a="(none: column B already holds B − A)",
                                         column_b="delta"),
                            400, 0.05, 0.8, "z", 0.01, (0.02, 0.01, 0.005)),
}
PPI_FORMAT_2 = {"metric": "nDCG@10", "alpha": 0.1, "order": "rank"}


def payload(kind: str) -> dict[str, object]:
    """A stand-in for a page's export payload (the share layer stores it as it is)."""
    return {"kind": kind, "ranklens_version": "0.4.0"}


@pytest.mark.parametrize("source", list(MDE_FORMAT_2))
def test_main_format_2_mde_dicts_read_back_and_write_the_same_bytes(source: str) -> None:
    data = MDE_FORMAT_2[source]
    settings = PlanSettings.from_dict(data, written_by="0.4.0")
    assert settings == MDE_EXPECTED[source]
    assert settings.to_dict() == data
    assert json.dumps(settings.to_dict()) == json.dumps(data)  # same keys, same order


@pytest.mark.parametrize("source", list(MDE_FORMAT_2))
def test_main_format_1_mde_dicts_get_the_default_target_differences(source: str) -> None:
    """Format 1 stored no ``deltas``: the page used the defaults and the target."""
    data = {key: value for key, value in MDE_FORMAT_2[source].items() if key != "deltas"}
    settings = PlanSettings.from_dict(data)
    assert settings.deltas == tuple(dict.fromkeys((*planning.DEFAULT_DELTAS, data["target"])))
    assert settings == MDE_EXPECTED[source]  # the pilot's target 0.003 was added as a row


@pytest.mark.parametrize("source", ["demo", "pilot"])
def test_mde_links_without_an_order_score_the_runs_by_score(source: str) -> None:
    data = {key: value for key, value in MDE_FORMAT_2[source].items()
            if key not in ("order", "deltas")}
    assert PlanSettings.from_dict(data).spread.order == "score"


def test_main_ppi_dicts_read_back_and_write_the_same_bytes() -> None:
    settings = PPISettings.from_dict(PPI_FORMAT_2, written_by="0.4.0")
    assert settings == PPISettings(metric="nDCG@10", alpha=0.1, order="rank")
    assert json.dumps(settings.to_dict()) == json.dumps(PPI_FORMAT_2)
    # format 1 wrote the same three keys; the oldest links only metric and alpha
    assert PPISettings.from_dict({"metric": "AP", "alpha": 0.05}) == PPISettings(
        "AP", 0.05, "score")


def plan_settings() -> st.SearchStrategy[PlanSettings]:
    names = st.text(min_size=1, max_size=12)
    spreads = st.one_of(
        st.builds(lambda sd: SpreadSource("typed", sd=sd),
                  st.floats(min_value=1e-6, max_value=2.0)),
        st.builds(lambda source, metric, order: SpreadSource(source, metric=metric,
                                                             order=order),
                  st.sampled_from(["demo", "pilot"]), names, st.sampled_from(["score", "rank"])),
        st.builds(lambda metric: SpreadSource("tables", metric=metric), names),
        st.builds(lambda a, b: SpreadSource("tables", column_a=a, column_b=b), names, names))
    differences = st.floats(min_value=1e-4, max_value=1.0)

    def settings(spread: SpreadSource, n_queries: int, alpha: float, power: float,
                 method: str, target: float, others: list[float]) -> PlanSettings:
        deltas = tuple(dict.fromkeys((*others, target)))
        return PlanSettings(spread, n_queries, alpha, power, method, target, deltas)

    return st.builds(settings, spreads, st.integers(2, 10_000_000),
                     st.sampled_from([0.01, 0.05, 0.1]), st.floats(0.5, 0.99),
                     st.sampled_from(["z", "t"]), differences,
                     st.lists(differences, max_size=5))


@given(plan_settings())
def test_plan_settings_round_trip_through_json(settings: PlanSettings) -> None:
    plain = json.loads(json.dumps(settings.to_dict()))
    assert PlanSettings.from_dict(plain) == settings
    assert PlanSettings.from_dict(plain).to_dict() == plain


@given(st.builds(PPISettings, st.text(min_size=1, max_size=20),
                 st.floats(min_value=1e-6, max_value=0.5), st.sampled_from(["score", "rank"])))
def test_ppi_settings_round_trip_through_json(settings: PPISettings) -> None:
    plain = json.loads(json.dumps(settings.to_dict()))
    assert PPISettings.from_dict(plain) == settings


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"method": "normal"},
         "MDE setting method must be one of 'auto', 'z', 't', not 'normal'"),
        ({"alpha": 1.5}, "MDE setting alpha must be a number above 0 and below 1, not 1.5"),
        ({"alpha": "0.05"}, "alpha must be a number above 0 and below 1, not '0.05'"),
        ({"n_queries": 1}, "n_queries must be a whole number above 1, not 1"),
        ({"n_queries": 200.0}, "n_queries must be a whole number above 1, not 200.0"),
        ({"deltas": [0.02]}, "deltas must include the target 0.01; got \\[0.02\\]"),
        ({"deltas": []}, "deltas must be a non-empty list"),
        ({"order": "date"}, "MDE setting order must be one of 'score', 'rank', not 'date'"),
        ({"sd": 0.1}, "spread from 'demo' takes metric, order; got metric, order, sd"),
        ({"source": "upload"}, "source must be one of 'demo', 'pilot', 'tables', 'typed'"),
        ({"seed": 3}, "written by ranklens 9.0 with settings this version does not know "
                      "\\(seed\\); open them with that version or newer"),
    ],
)
def test_bad_mde_settings_are_refused_naming_the_setting(change: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PlanSettings.from_dict({**MDE_FORMAT_2["demo"], **change}, written_by="9.0")


def test_missing_mde_settings_are_named() -> None:
    data = {key: value for key, value in MDE_FORMAT_2["typed"].items()
            if key not in ("n_queries", "power")}
    with pytest.raises(ValueError, match=r"MDE settings \(written by ranklens 0\.3\.0\) lack "
                                         r"n_queries, power; they are damaged"):
        PlanSettings.from_dict(data, written_by="0.3.0")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**PPI_FORMAT_2, "order": "date"}, "PPI setting order must be one of"),
        ({**PPI_FORMAT_2, "alpha": 0}, "PPI setting alpha must be a number above 0"),
        ({**PPI_FORMAT_2, "metric": ""}, "PPI setting metric must be a non-empty text"),
        ({"alpha": 0.05}, "PPI settings \\(written by ranklens this\\) lack metric"),
        ({**PPI_FORMAT_2, "planned_gold_queries": 90}, "does not know \\(planned_gold_queries"),
    ],
)
def test_bad_ppi_settings_are_refused_naming_the_setting(data: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PPISettings.from_dict(data)


# ---- where the dicts are written and read: links and HTML files --------------------------

def test_share_stores_the_settings_to_dict(store: SQLiteReportStore) -> None:
    settings = MDE_EXPECTED["pilot"]
    token = share(store, "mde", settings, [], result=payload("mde"))
    shared = reopen(store, token)
    assert shared.settings == MDE_FORMAT_2["pilot"]
    assert PlanSettings.from_dict(shared.settings, written_by=shared.version) == settings
    with pytest.raises(ValueError, match="PlanSettings given for a 'ppi' page"):
        share(store, "ppi", settings, [], result=payload("ppi"))


def test_mde_payload_reads_back_the_same_settings() -> None:
    plan = planning.plan_queries(0.1, n_queries=400, deltas=(0.02, 0.01, 0.005))
    export = html_plan.MdeExport(plan, 0.01, plan_views.other_method_mde(plan), None,
                                 MDE_EXPECTED["typed"])
    data = html_plan.payload(export)
    assert data["settings"] == MDE_FORMAT_2["typed"]
    assert html_plan.export_from_payload(data).settings == MDE_EXPECTED["typed"]


def put_format_1(store_path: Path, kind: str, settings: dict[str, Any],
                 files: tuple[Any, ...] = ()) -> str:
    """A link as ranklens wrote it before links kept their numbers (format 1)."""
    params = {"format": 1, "kind": kind, "settings": settings,
              "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files]}
    return SQLiteReportStore(store_path).put(params, {f.role: f.data for f in files})


def test_a_format_1_mde_link_opens_with_its_settings(store_path: Path) -> None:
    """The Methods page's example, typed in: MDE 0.0198 with 200 queries, 785 for +0.01."""
    settings = {"source": "typed", "sd": 0.1, "n_queries": 200, "alpha": 0.05, "power": 0.8,
                "method": "z", "target": 0.01}
    at = run_clean(app(report=put_format_1(store_path, "mde", settings)))
    shown = {m.label: m.value for m in at.metric}
    assert shown["MDE with 200 queries"] == "0.0198"
    assert shown["Queries needed for +0.0100"] == "785"


def test_a_ppi_link_without_an_order_opens_scored_by_score(store_path: Path) -> None:
    files = ppi_files()
    at = run_clean(app(report=put_format_1(store_path, "ppi", {"metric": "AP", "alpha": 0.1},
                                           files)))
    expected = analyse_ppi(*files, "AP", alpha=0.1, order="score").estimate("ppi++").result
    assert f"{expected.delta:+.4f}" in {m.value for m in at.metric}


def test_a_link_with_a_bad_setting_says_so_without_a_traceback(store_path: Path) -> None:
    settings = {**MDE_FORMAT_2["typed"], "method": "normal"}
    at = run_clean(app(report=put_format_1(store_path, "mde", settings)))
    assert any("method must be one of 'auto', 'z', 't', not 'normal'" in e.value
               for e in at.error)
