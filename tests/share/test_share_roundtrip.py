"""share() / reopen(): what a link stores comes back exactly (inputs, resolved settings and the
computed numbers), rebuilds the same report, and old (format 1) links still open."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ranklens import __version__
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.compare.report import Report
from ranklens.io import InputFile
from ranklens.share.links import (
    RESULT_ROLE,
    SNAPSHOT_FORMAT,
    SharedFormatError,
    StoredResultError,
    compare_report,
    compare_settings,
    reopen,
    share,
    stored_report,
)
from ranklens.store import ReportNotFound, SQLiteReportStore, StoreLimitError, StoreLimits
from tests.support.share_helpers import ROOT, SETTINGS, compare_files, dense_files, ppi_files

PAYLOAD = {"ranklens_version": __version__, "headline": [], "numbers": [0.25, None]}
"""A stand-in for the MDE and PPI pages' result payloads (plain JSON with the page's kind)."""


def payload(kind: str) -> dict[str, object]:
    return {"kind": kind, **PAYLOAD}


@pytest.fixture(scope="module")
def original() -> Report:
    run_a, run_b, qrels, segments = compare_files()
    return build_report(run_a, run_b, qrels=qrels, segments=segments, settings=SETTINGS)


def test_reopen_gives_kind_settings_and_bytes_back(store: SQLiteReportStore,
                                                   original: Report) -> None:
    files = compare_files()
    token = share(store, "compare", SETTINGS, files, result=original)
    shared = reopen(store, token)
    assert shared.kind == "compare"
    assert shared.version == __version__
    assert [(f.role, f.name, f.data) for f in shared.files] == [
        (f.role, f.name, f.data) for f in files]


def test_settings_are_stored_resolved(store: SQLiteReportStore, original: Report) -> None:
    """No default left implicit: the run names the page derived from the file names are
    stored, and every field of CompareSettings is in the snapshot."""
    assert SETTINGS.run_names is None
    token = share(store, "compare", SETTINGS, compare_files(), result=original)
    shared = reopen(store, token)
    assert shared.settings["run_names"] == ["bm25_baseline", "neural_reranker"]
    assert set(shared.settings) == set(CompareSettings().to_dict())
    assert shared.settings["interval"] == CompareSettings().interval  # written out
    assert compare_settings(shared) == dataclasses.replace(
        SETTINGS, run_names=("bm25_baseline", "neural_reranker"))


def test_the_computed_report_is_stored(store: SQLiteReportStore, original: Report) -> None:
    token = share(store, "compare", SETTINGS, compare_files(), result=original)
    shared = reopen(store, token)
    assert (shared.format, shared.keeps_numbers, shared.computed_by) == (
        SNAPSHOT_FORMAT, True, __version__)
    stored = stored_report(shared)
    assert stored is not None
    assert stored.to_json() == original.to_json()
    assert (stored.comparison("AP").overall.interval.low
            == original.comparison("AP").overall.interval.low)


def test_rebuilt_report_is_byte_identical(store: SQLiteReportStore, original: Report) -> None:
    token = share(store, "compare", SETTINGS, compare_files(), result=original)
    rebuilt = compare_report(reopen(store, token))
    assert rebuilt.to_json() == original.to_json()


def test_a_link_keeps_the_coverage_and_its_proxy_judgements(store: SQLiteReportStore) -> None:
    """The dense-retriever pair scored with holes filled by proxy labels: the proxy file is a
    stored input (the recomputation needs it), and the stored report keeps its judgement
    coverage, guardrail and robustness view."""
    files = dense_files()
    settings = dataclasses.replace(SETTINGS, unjudged="proxy")
    original = build_report(files[0], files[1], qrels=files[2], segments=files[3],
                            proxy_qrels=files[4], settings=settings)
    assert original.coverage is not None and original.coverage.treatment == "proxy"
    token = share(store, "compare", settings, files, result=original)
    shared = reopen(store, token)
    proxy = shared.file("qrels_proxy")
    assert proxy is not None and (proxy.name, proxy.data) == (files[4].name, files[4].data)
    assert shared.settings["unjudged"] == "proxy"
    stored = stored_report(shared)
    assert stored is not None and stored.to_json() == original.to_json()
    assert stored.coverage == original.coverage
    assert [m.metric for m in stored.coverage.alerts] == [
        m.metric for m in original.coverage.alerts]
    assert set(stored.coverage.robustness["AP"][i].treatment for i in range(3)) == {
        "nonrelevant", "judged-only", "proxy"}
    assert compare_report(shared).to_json() == original.to_json()


def test_rebuilt_in_a_new_process_is_byte_identical(store: SQLiteReportStore,
                                                   original: Report) -> None:
    token = share(store, "compare", SETTINGS, compare_files(), result=original)
    script = (
        "import sys; from ranklens.store import SQLiteReportStore; "
        "from ranklens.share.links import reopen, compare_report; "
        "sys.stdout.write(compare_report(reopen(SQLiteReportStore(sys.argv[1]), sys.argv[2]))"
        ".to_json())"
    )
    done = subprocess.run([sys.executable, "-c", script, str(store.path), token],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=True)
    assert done.stdout == original.to_json()


def test_settings_with_tuples_and_none_survive(store: SQLiteReportStore) -> None:
    settings = CompareSettings(metrics=("nDCG@10",), run_names=("old", "new"), missing="zero",
                               segment_column=None, alpha=0.1, n_resamples=1_000,
                               n_permutations=1_000)
    files = compare_files()[:3]
    report = build_report(*files[:2], qrels=files[2], settings=settings)
    token = share(store, "compare", settings, files, result=report)
    assert compare_settings(reopen(store, token)) == settings


def test_metric_names_are_stored_canonical(store: SQLiteReportStore) -> None:
    settings = CompareSettings(metrics=("ndcg_cut_10",), n_resamples=1_000,
                               n_permutations=1_000)
    files = compare_files()[:3]
    report = build_report(*files[:2], qrels=files[2], settings=settings)
    shared = reopen(store, share(store, "compare", settings, files, result=report))
    assert shared.settings["metrics"] == ["nDCG@10"]


def test_a_report_of_other_settings_is_refused(store: SQLiteReportStore,
                                               original: Report) -> None:
    with pytest.raises(ValueError, match="other settings"):
        share(store, "compare", dataclasses.replace(SETTINGS, seed=8), compare_files(),
              result=original)
    assert store.usage().reports == 0


def test_settings_dict_is_plain_json_and_round_trips() -> None:
    plain = SETTINGS.to_dict()
    assert json.loads(json.dumps(plain)) == plain
    assert plain["metrics"] == ["nDCG@10", "AP"]
    assert CompareSettings.from_dict(plain) == SETTINGS


@pytest.mark.parametrize("kind", ["mde", "ppi"])
def test_page_settings_dicts_round_trip(store: SQLiteReportStore, kind: str) -> None:
    settings = {"metric": "nDCG@10", "alpha": 0.05, "nested": {"list": [1, 2.5, None]}}
    token = share(store, kind, settings, ppi_files(), result=payload(kind))
    shared = reopen(store, token)
    assert (shared.kind, shared.settings) == (kind, settings)
    assert shared.result == payload(kind)
    assert [f.sha256 for f in shared.files] == [f.sha256 for f in ppi_files()]


def test_a_page_without_files_can_be_shared(store: SQLiteReportStore) -> None:
    token = share(store, "mde", {"source": "typed", "sd": 0.1}, [], result=payload("mde"))
    assert reopen(store, token).files == ()


def test_inputs_are_stored_once(store: SQLiteReportStore, original: Report) -> None:
    files = compare_files()
    share(store, "compare", SETTINGS, files, result=original)
    share(store, "compare", SETTINGS, files, result=original)
    usage = store.usage()
    assert (usage.reports, usage.blobs) == (2, len(files) + 1)  # + the one result
    result_bytes = len(original.to_json(indent=None).encode("utf-8"))
    assert usage.unique_input_bytes == sum(len(f.data) for f in files) + result_bytes


def test_every_share_is_a_new_token(store: SQLiteReportStore, original: Report) -> None:
    files = compare_files()
    assert (share(store, "compare", SETTINGS, files, result=original)
            != share(store, "compare", SETTINGS, files, result=original))


@pytest.mark.parametrize(
    ("kind", "settings", "files", "result", "message"),
    [
        ("report", {}, (), payload("mde"), "unknown page kind"),
        ("mde", {"a": (1, 2)}, (), payload("mde"), "JSON"),
        ("mde", {}, (InputFile("run_a", "a", b"1"), InputFile("run_a", "b", b"2")),
         payload("mde"), "role"),
        ("mde", {}, (InputFile(RESULT_ROLE, "a", b"1"),), payload("mde"), RESULT_ROLE),
        ("compare", {"no_such_setting": 1}, (), payload("compare"), "no_such_setting"),
        ("mde", SETTINGS, (), payload("mde"), "CompareSettings"),
        ("mde", {}, (), payload("ppi"), "kind 'mde'"),
        ("ppi", {}, (), {**payload("ppi"), "x": float("nan")}, "not plain JSON"),
    ],
)
def test_bad_shares_are_refused(store: SQLiteReportStore, kind: str, settings: object,
                                files: tuple[InputFile, ...], result: object,
                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        share(store, kind, settings, files, result=result)  # type: ignore[arg-type]
    assert store.usage().reports == 0


def test_a_compare_link_needs_its_report(store: SQLiteReportStore) -> None:
    with pytest.raises(TypeError, match="stores its Report"):
        share(store, "compare", SETTINGS, compare_files(), result=payload("compare"))


def test_oversized_inputs_name_the_limit(tmp_path: Path, original: Report) -> None:
    small = SQLiteReportStore(tmp_path / "small.sqlite3",
                              limits=StoreLimits(max_report_bytes=100_000))
    with pytest.raises(StoreLimitError, match="max_report_bytes") as caught:
        share(small, "compare", SETTINGS, compare_files(), result=original)
    assert caught.value.limit_bytes == 100_000
    assert small.usage().reports == 0


def test_unknown_token_is_not_found(store: SQLiteReportStore) -> None:
    with pytest.raises(ReportNotFound, match=r"^report not found$"):
        reopen(store, "A" * 32)


def test_snapshot_from_a_newer_format_is_refused_in_words(store: SQLiteReportStore) -> None:
    token = store.put({"format": SNAPSHOT_FORMAT + 1, "kind": "compare", "settings": {},
                       "files": []}, {})
    with pytest.raises(SharedFormatError, match="cannot open"):
        reopen(store, token)


def test_compare_settings_unknown_to_this_version_are_refused(
        store: SQLiteReportStore) -> None:
    params = {"format": 1, "kind": "compare", "files": [],
              "settings": {**{"metrics": ["AP"]}, "stratify": True}}
    token = store.put(params, {})
    with pytest.raises(SharedFormatError, match="stratify"):
        reopen(store, token)


def test_input_not_matching_its_digest_is_damage(store: SQLiteReportStore) -> None:
    params = {"format": 1, "kind": "mde", "settings": {},
              "files": [{"role": "run_a", "name": "a.trec", "sha256": "0" * 64}]}
    token = store.put(params, {"run_a": b"q1 Q0 d1 1 1.0 x\n"})
    with pytest.raises(SharedFormatError, match="damaged"):
        reopen(store, token)


def format_1_snapshot(store: SQLiteReportStore) -> str:
    """A link as ranklens wrote them before links kept their numbers: settings and inputs."""
    files = compare_files()
    params = {"format": 1, "kind": "compare", "settings": SETTINGS.to_dict(),
              "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files]}
    return store.put(params, {f.role: f.data for f in files})


def test_a_format_1_link_still_opens_and_recomputes(store: SQLiteReportStore,
                                                    original: Report) -> None:
    shared = reopen(store, format_1_snapshot(store))
    assert (shared.format, shared.keeps_numbers, shared.result, shared.computed_by) == (
        1, False, None, None)
    assert stored_report(shared) is None
    assert compare_report(shared).to_json() == original.to_json()


def test_stored_numbers_not_matching_their_digest_are_damage(store: SQLiteReportStore) -> None:
    params = {"format": 2, "kind": "mde", "settings": {}, "files": [],
              "result": {"role": RESULT_ROLE, "sha256": "0" * 64, "computed_by": "0.1.0"}}
    token = store.put(params, {RESULT_ROLE: b'{"kind": "mde"}'})
    with pytest.raises(SharedFormatError, match="stored numbers"):
        reopen(store, token)


def test_a_stored_report_of_a_newer_schema_is_refused_but_the_link_opens(
        store: SQLiteReportStore, original: Report) -> None:
    files = compare_files()
    newer = json.dumps({**original.to_dict(), "schema": 99}).encode()
    params = {"format": 2, "kind": "compare",
              "settings": CompareSettings.from_dict(original.params).to_dict(),
              "files": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in files],
              "result": {"role": RESULT_ROLE, "sha256": hashlib.sha256(newer).hexdigest(),
                         "computed_by": "9.0.0"}}
    token = store.put(params, {**{f.role: f.data for f in files}, RESULT_ROLE: newer})
    shared = reopen(store, token)
    with pytest.raises(StoredResultError, match=r"ranklens 9\.0\.0.*schema 99"):
        stored_report(shared)
    assert compare_report(shared).to_json() == original.to_json()


def test_a_link_to_several_candidates_rebuilds_their_report(store: SQLiteReportStore) -> None:
    from ranklens import demo

    paths = demo.paths()
    files = [InputFile.from_path(role, paths[demo_role]) for role, demo_role in (
        ("run_a", "run_a"), ("run_b", "run_b"), ("run_c", "run_dense"), ("qrels", "qrels"),
        ("segments", "segments"))]
    settings = dataclasses.replace(SETTINGS, run_names=("BM25", "Neural", "Light"),
                                   family="all-pairs", family_method="holm",
                                   q_family="candidates-segments")
    original = build_report(*files[:3], qrels=files[3], segments=files[4], settings=settings)
    shared = reopen(store, share(store, "compare", settings, files, result=original))
    assert compare_settings(shared) == settings
    assert stored_report(shared) == original  # the numbers its author saw, schema 3
    rebuilt = compare_report(shared)
    assert rebuilt.to_json() == original.to_json()
    assert rebuilt.run_names == ("BM25", "Neural", "Light")
    assert rebuilt.family(rebuilt.metrics[0]).family == "all-pairs"


def test_a_link_with_texts_recomputes_to_the_report_its_author_saw(
        store: SQLiteReportStore) -> None:
    """The queries file a link keeps comes back into the recomputed report (query texts, the
    moves of the queries B lost and won most), as the page adds them: nothing differs."""
    from ranklens import demo
    from ranklens.compare.analysis import load_inputs
    from ranklens.compare.drilldown import with_drilldown
    from ranklens.compare.query_texts import QUERIES_ROLE, read_texts, run_queries

    run_a, run_b, qrels, segments = compare_files()
    queries = InputFile.from_path(QUERIES_ROLE, demo.text_paths()["queries"])
    inputs = load_inputs(run_a, run_b, qrels=qrels, segments=segments)
    report = inputs.report(SETTINGS)
    texts = read_texts(queries, None, query_ids=run_queries(inputs.runs))
    original = with_drilldown(report, inputs, SETTINGS, texts)
    assert len(original.query_texts) == 400 and original.query_moves
    token = share(store, "compare", SETTINGS, (run_a, run_b, qrels, segments, queries),
                  result=original)
    assert compare_report(reopen(store, token)).to_json() == original.to_json()
