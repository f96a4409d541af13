"""A link keeps its numbers across upgrades (AppTest and library).

A link is shared; then "ranklens is upgraded": the seed handling of the bootstrap and
permutation streams changes, the default interval method becomes "studentized" (it is "auto"
since issue 15: the upgrade this guards against did happen once) and the version
reads 0.2.0 (monkeypatched, caches cleared, as a restarted server would have them). Reopened,
the link shows the numbers its author saw and says which version computed them; the toggle
"Recompute with ranklens 0.2.0" shows the new numbers, labelled, with what differs; turned off,
the stored numbers come back. The author's settings were stored resolved, so the new default
interval does not leak into the recomputation. Links written before (format 1) still open,
recomputed and saying so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ranklens import __version__
from ranklens.app import markup
from ranklens.compare import coverage as compare_coverage
from ranklens.compare import segments as compare_segments
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.formats import format_interval
from ranklens.plan import analysis as planning
from ranklens.ppi import analysis as ppi_analysis
from ranklens.share.differences import report_changes
from ranklens.share.links import compare_report, reopen, share, stored_report
from ranklens.store import SQLiteReportStore
from tests.support.share_helpers import (
    SETTINGS,
    SharedCompare,
    app,
    compare_files,
    dense_files,
    run_clean,
    shown_link,
    shown_numbers,
    token_of,
)

NEW_VERSION = "0.2.0"
BANNER = "Shared report, read-only"
RECOMPUTED = "Recomputed with ranklens"


@pytest.fixture
def upgrade(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Call to make this process behave as a later ranklens: new seed handling, a new default
    interval method, a new version string; the app's caches cleared as after a restart."""
    def upgraded() -> None:
        original_compare = compare_segments.compare_with_notes  # what each row calls

        def reseeded(a: Any, b: Any, options: Any) -> Any:
            # "the bootstrap stream now mixes in a stream id": other draws, same inputs
            seed = options.seed
            entropy = seed.entropy if isinstance(seed, np.random.SeedSequence) else seed
            key = seed.spawn_key if isinstance(seed, np.random.SeedSequence) else ()
            stream = np.random.SeedSequence(entropy, spawn_key=(*key, 1))
            return original_compare(a, b, options.seeded(stream))

        monkeypatch.setattr(compare_segments, "compare_with_notes", reseeded)
        defaults = list(CompareSettings.__init__.__defaults__ or ())
        names = [f.name for f in dataclasses.fields(CompareSettings)]
        defaults[names.index("interval") - (len(names) - len(defaults))] = "studentized"
        monkeypatch.setattr(CompareSettings.__init__, "__defaults__", tuple(defaults))
        monkeypatch.setattr("ranklens.app.share_widget.__version__", NEW_VERSION)
        # a later ranklens ships its own prepared demo report: this one's is not for it
        monkeypatch.setattr("ranklens.app.prepared.installed_version", lambda: NEW_VERSION)
        st.cache_resource.clear()
        st.cache_data.clear()

    yield upgraded
    st.cache_resource.clear()  # nothing computed under the patches outlives the test
    st.cache_data.clear()


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def recompute_toggle(at: AppTest, token: str) -> Any:
    return at.toggle(key=f"shared_recompute:{token}")


def cards(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def shared_page(page: str, key: str) -> tuple[AppTest, str]:
    """The MDE or PPI page with its defaults, shared."""
    at = run_clean(app())
    run_clean(at.switch_page(page))
    at.button(key=key).click()
    run_clean(at)
    return at, token_of(shown_link(at))


# ---- library -------------------------------------------------------------------------------

def test_stored_report_survives_a_changed_default_and_seed_handling(
        store: SQLiteReportStore, upgrade: Any) -> None:
    files = compare_files()
    original = build_report(*files[:2], qrels=files[2], segments=files[3], settings=SETTINGS)
    token = share(store, "compare", SETTINGS, files, result=original)
    upgrade()
    assert CompareSettings().interval == "studentized" != original.params["interval"]
    shared = reopen(store, token)
    stored = stored_report(shared)
    assert stored is not None and stored.to_json() == original.to_json()
    recomputed = compare_report(shared)
    # the author's interval setting was stored written out: the new default does not apply
    assert recomputed.params["interval"] == original.params["interval"]
    before, after = original.comparison("AP").overall, recomputed.comparison("AP").overall
    assert (before.mean_a, before.mean_b, before.t_test.p_value) == (
        after.mean_a, after.mean_b, after.t_test.p_value)  # same scores and t-test ...
    was, now = before.interval, after.interval
    assert (was.low, was.high) != (now.low, now.high)  # ... new draws
    changes = report_changes(stored, recomputed)
    assert (f"AP: interval of B \u2212 A was {format_interval(was.low, was.high)} "
            f"({was.method}), now {format_interval(now.low, now.high)} "
            f"({now.method})" in changes)
    assert not any("per-query values" in line or "setting" in line for line in changes)


def test_report_changes_of_identical_reports_is_empty() -> None:
    files = compare_files()
    report = build_report(*files[:2], qrels=files[2], segments=files[3], settings=SETTINGS)
    again = build_report(*files[:2], qrels=files[2], segments=files[3], settings=SETTINGS)
    assert report_changes(report, again) == ()


def dense_report() -> Any:
    files = dense_files()
    return build_report(files[0], files[1], qrels=files[2], segments=files[3],
                        proxy_qrels=files[4], settings=SETTINGS)


def test_the_stored_coverage_banner_survives_a_changed_guardrail(
        store: SQLiteReportStore, monkeypatch: pytest.MonkeyPatch, upgrade: Any) -> None:
    original = dense_report()
    assert original.coverage is not None and original.coverage.metric("nDCG@10").alert
    token = share(store, "compare", SETTINGS, dense_files(), result=original)
    upgrade()
    monkeypatch.setattr(compare_coverage, "MIN_GAP", 0.5)  # "the banner now needs 50 points"
    shared = reopen(store, token)
    stored = stored_report(shared)
    assert stored is not None and stored.to_json() == original.to_json()
    assert stored.coverage is not None and stored.coverage.metric("nDCG@10").alert
    recomputed = compare_report(shared)
    assert recomputed.coverage is not None and not recomputed.coverage.alerts
    changes = report_changes(stored, recomputed)
    for metric in ("nDCG@10", "AP"):
        assert (f"{metric}: the coverage banner (unjudged documents could change the "
                "verdict) was raised, now not raised") in changes
        assert (f"{metric}: the guardrail's smallest judged@k gap was 3 points, now 50 "
                "points") in changes
    assert not any("Judged@10 of" in line for line in changes)  # the coverage itself is kept


def test_report_changes_names_judged_at_k_of_each_run() -> None:
    report = dense_report()
    assert report.coverage is not None
    ndcg = report.coverage.metric("nDCG@10")
    assert ndcg is not None
    row = ndcg.overall
    moved = dataclasses.replace(row, judged_b=row.judged_b + 0.1, coverage_b=row.coverage_b + 0.1)
    other = dataclasses.replace(report, coverage=dataclasses.replace(
        report.coverage, metrics=tuple(
            dataclasses.replace(m, rows=(moved, *m.rows[1:])) if m.metric == "nDCG@10" else m
            for m in report.coverage.metrics)))
    changes = report_changes(report, other)
    assert changes == (
        f"nDCG@10: Judged@10 of B was {100 * row.judged_b:.1f}%, now "
        f"{100 * (row.judged_b + 0.1):.1f}%",
        f"nDCG@10: judged share of B's retrieved documents was {100 * row.coverage_b:.1f}%, "
        f"now {100 * (row.coverage_b + 0.1):.1f}%")
    assert report_changes(report, dataclasses.replace(report, coverage=None)) == (
        "nDCG@10: judgement coverage only in the stored report",
        "AP: judgement coverage only in the stored report")


# ---- the Compare page ---------------------------------------------------------------------

def test_reopened_link_shows_the_stored_numbers_after_an_upgrade(compare_link: SharedCompare,
                                                                 upgrade: Any) -> None:
    token = compare_link.token
    upgrade()
    reopened = run_clean(app(report=token))
    assert shown_numbers(reopened) == compare_link.numbers
    assert BANNER in markdown_text(reopened)
    assert f"the numbers ranklens {__version__} computed then" in markdown_text(reopened)
    toggle = recompute_toggle(reopened, token)
    assert (toggle.label, toggle.value) == (f"Recompute with ranklens {NEW_VERSION}", False)
    assert RECOMPUTED not in markdown_text(reopened)


def test_the_recomputed_view_shows_the_new_numbers_labelled(compare_link: SharedCompare,
                                                            upgrade: Any) -> None:
    token = compare_link.token
    upgrade()
    at = run_clean(app(report=token))
    recompute_toggle(at, token).set_value(True)
    run_clean(at)
    expected = compare_report(reopen(SQLiteReportStore(compare_link.path), token))
    overall = expected.comparison("nDCG@10").overall
    shown = cards(at)
    interval = overall.interval
    assert shown["95% interval of B \u2212 A"] == format_interval(interval.low, interval.high)
    assert shown != dict(compare_link.numbers["metrics"])  # the original session's cards
    text = markdown_text(at)
    assert f"recomputed now by ranklens {NEW_VERSION}" in text
    assert (f"{RECOMPUTED} {NEW_VERSION}:** these numbers differ from the ones ranklens "
            f"{__version__} stored") in text
    assert "interval of B \u2212 A was" in text
    assert "setting interval" not in text  # the author's interval, resolved, is kept
    recompute_toggle(at, token).set_value(False)
    run_clean(at)
    assert shown_numbers(at) == compare_link.numbers
    assert RECOMPUTED not in markdown_text(at)


def coverage_banners(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if w.icon == ":material/rule:"]


def look_into_dense(at: AppTest) -> AppTest:
    """Pick the demo's second candidate, the dense retriever, under the leaderboard."""
    next(r for r in at.radio if r.label == "Look into").set_value(2)
    return run_clean(at)


def test_a_reopened_link_keeps_its_coverage_banner_and_proxy_file(
        store_path: Path, monkeypatch: pytest.MonkeyPatch, upgrade: Any) -> None:
    """The demo, shared with the dense retriever's banner; "upgraded" to a guardrail that would
    not raise it: the link still shows the banner its author saw, stores the proxy
    judgements among its inputs, and the recomputed view says the banner is gone."""
    at = run_clean(app())
    look_into_dense(at)
    assert len(coverage_banners(at)) == 1
    at.button(key="share:compare").click()
    token = token_of(shown_link(run_clean(at)))
    proxy = reopen(SQLiteReportStore(store_path), token).file("qrels_proxy")
    expected = dense_files()[4]
    assert proxy is not None and (proxy.name, proxy.data) == (expected.name, expected.data)
    before_upgrade = shown_numbers(look_into_dense(run_clean(app(report=token))))
    upgrade()
    monkeypatch.setattr(compare_coverage, "MIN_GAP", 0.5)
    reopened = look_into_dense(run_clean(app(report=token)))
    assert coverage_banners(reopened) == coverage_banners(at)
    # the author's session kept the rankings view's query of the first pair: compare with the
    # link opened before the upgrade, and the cards with the author's
    assert shown_numbers(reopened) == before_upgrade
    assert cards(reopened) == cards(at)
    recompute_toggle(reopened, token).set_value(True)
    run_clean(reopened)
    assert coverage_banners(reopened) == []
    assert markup.text("dense_retriever: nDCG@10: the coverage banner (unjudged documents could "
                       "change the verdict) was raised, now not raised") in markdown_text(reopened)


def test_recomputing_with_the_same_version_finds_nothing_changed(
        compare_link: SharedCompare) -> None:
    token = compare_link.token
    at = run_clean(app(report=token))
    recompute_toggle(at, token).set_value(True)
    run_clean(at)
    assert shown_numbers(at) == compare_link.numbers
    assert f"{RECOMPUTED} {__version__}:** every number is the same" in markdown_text(at)


def test_a_format_1_link_opens_recomputed_and_says_so(store_path: Path) -> None:
    files = compare_files()
    params = {"format": 1, "kind": "compare", "settings": SETTINGS.to_dict(),
              "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files]}
    token = SQLiteReportStore(store_path).put(params, {f.role: f.data for f in files})
    at = run_clean(app(report=token))
    assert "did not store their numbers" in markdown_text(at)
    # no recompute toggle (there is nothing stored to compare with); the page's own toggles
    # (the forest plot's marginal intervals) are there as on any page
    assert not [t for t in at.toggle if str(t.key).startswith("shared_recompute")]
    expected = build_report(*files[:2], qrels=files[2], segments=files[3], settings=SETTINGS)
    overall = expected.comparison("nDCG@10").overall  # the first tab is drawn
    assert {m.value for m in at.metric} >= {f"{overall.mean_a:.4f}", f"{overall.mean_b:.4f}"}


# ---- the MDE and PPI pages ------------------------------------------------------------------

def test_mde_link_keeps_its_numbers_and_recomputes_on_request(
        store_path: Path, monkeypatch: pytest.MonkeyPatch, upgrade: Any) -> None:
    original, token = shared_page("pages/mde.py", "share:mde")
    upgrade()
    plan_queries = planning.plan_queries

    def wider(sd: float, **options: Any) -> Any:  # "the plan now pads the spread by 5%"
        return plan_queries(sd * 1.05, **options)

    monkeypatch.setattr(planning, "plan_queries", wider)
    monkeypatch.setattr(planning, "DEFAULT_DELTAS", (0.03,))  # a new default table
    at = run_clean(app(report=token))
    assert shown_numbers(at) == shown_numbers(original)
    recompute_toggle(at, token).set_value(True)
    run_clean(at)
    assert cards(at) != cards(original)
    text = markdown_text(at)
    assert f"{RECOMPUTED} {NEW_VERSION}:** these numbers differ" in text
    assert "stored values differ beyond the headline" in text
    table = at.dataframe[0].value
    # the author's target differences were stored: the new default table does not apply
    assert sorted(table.iloc[:, 0].tolist()) == sorted(
        original.dataframe[0].value.iloc[:, 0].tolist())


def test_ppi_link_keeps_its_numbers_and_recomputes_on_request(
        store_path: Path, monkeypatch: pytest.MonkeyPatch, upgrade: Any) -> None:
    original, token = shared_page("pages/ppi.py", "share:ppi")
    upgrade()
    with_notes = ppi_analysis.ppi_compare_with_notes

    def half_weight(proxy_a: Any, proxy_b: Any, gold_a: Any, gold_b: Any, lam: float | None,
                    *rest: Any) -> Any:
        return with_notes(proxy_a, proxy_b, gold_a, gold_b, 0.5 if lam is None else lam, *rest)

    monkeypatch.setattr(ppi_analysis, "ppi_compare_with_notes", half_weight)  # "a new rule"
    at = run_clean(app(report=token))
    assert shown_numbers(at)["metrics"] == shown_numbers(original)["metrics"]
    recompute_toggle(at, token).set_value(True)
    run_clean(at)
    assert cards(at) != cards(original)
    assert f"{RECOMPUTED} {NEW_VERSION}:** these numbers differ" in markdown_text(at)
