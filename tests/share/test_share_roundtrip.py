"""share() / reopen(): what a link stores comes back exactly, and rebuilds the same report."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ranklens import __version__
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.compare.report import Report
from ranklens.io import InputFile
from ranklens.share import (
    SharedFormatError,
    compare_report,
    compare_settings,
    reopen,
    share,
)
from ranklens.store import ReportNotFound, SQLiteReportStore, StoreLimitError, StoreLimits
from tests.support.share_helpers import ROOT, SETTINGS, compare_files, ppi_files


@pytest.fixture(scope="module")
def original() -> Report:
    run_a, run_b, qrels, segments = compare_files()
    return build_report(run_a, run_b, qrels=qrels, segments=segments, settings=SETTINGS)


def test_reopen_gives_kind_settings_and_bytes_back(store: SQLiteReportStore) -> None:
    files = compare_files()
    token = share(store, "compare", SETTINGS, files)
    shared = reopen(store, token)
    assert shared.kind == "compare"
    assert shared.version == __version__
    assert compare_settings(shared) == SETTINGS
    assert [(f.role, f.name, f.data) for f in shared.files] == [
        (f.role, f.name, f.data) for f in files]


def test_rebuilt_report_is_byte_identical(store: SQLiteReportStore, original: Report) -> None:
    token = share(store, "compare", SETTINGS, compare_files())
    rebuilt = compare_report(reopen(store, token))
    assert rebuilt.to_json() == original.to_json()


def test_rebuilt_in_a_new_process_is_byte_identical(store: SQLiteReportStore,
                                                   original: Report) -> None:
    token = share(store, "compare", SETTINGS, compare_files())
    script = (
        "import sys; from ranklens.store import SQLiteReportStore; "
        "from ranklens.share import reopen, compare_report; "
        "sys.stdout.write(compare_report(reopen(SQLiteReportStore(sys.argv[1]), sys.argv[2]))"
        ".to_json())"
    )
    done = subprocess.run([sys.executable, "-c", script, str(store.path), token],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=True)
    assert done.stdout == original.to_json()


def test_settings_with_tuples_and_none_survive(store: SQLiteReportStore) -> None:
    settings = CompareSettings(metrics=("nDCG@10",), run_names=("old", "new"), missing="zero",
                               segment_column=None, alpha=0.1)
    token = share(store, "compare", settings, compare_files()[:3])
    assert compare_settings(reopen(store, token)) == settings


def test_settings_dict_is_plain_json_and_round_trips() -> None:
    plain = SETTINGS.to_dict()
    assert json.loads(json.dumps(plain)) == plain
    assert plain["metrics"] == ["nDCG@10", "AP"]
    assert CompareSettings.from_dict(plain) == SETTINGS


@pytest.mark.parametrize("kind", ["mde", "ppi"])
def test_page_settings_dicts_round_trip(store: SQLiteReportStore, kind: str) -> None:
    settings = {"metric": "nDCG@10", "alpha": 0.05, "nested": {"list": [1, 2.5, None]}}
    token = share(store, kind, settings, ppi_files())
    shared = reopen(store, token)
    assert (shared.kind, shared.settings) == (kind, settings)
    assert [f.sha256 for f in shared.files] == [f.sha256 for f in ppi_files()]


def test_a_page_without_files_can_be_shared(store: SQLiteReportStore) -> None:
    token = share(store, "mde", {"source": "typed", "sd": 0.1}, [])
    assert reopen(store, token).files == ()


def test_inputs_are_stored_once(store: SQLiteReportStore) -> None:
    files = compare_files()
    share(store, "compare", SETTINGS, files)
    share(store, "compare", dataclasses.replace(SETTINGS, seed=8), files)
    usage = store.usage()
    assert (usage.reports, usage.blobs) == (2, len(files))
    assert usage.unique_input_bytes == sum(len(f.data) for f in files)


def test_every_share_is_a_new_token(store: SQLiteReportStore) -> None:
    files = compare_files()
    assert share(store, "compare", SETTINGS, files) != share(store, "compare", SETTINGS, files)


@pytest.mark.parametrize(
    ("kind", "settings", "files", "message"),
    [
        ("report", {}, (), "unknown page kind"),
        ("mde", {"a": (1, 2)}, (), "JSON"),
        ("mde", {}, (InputFile("run_a", "a", b"1"), InputFile("run_a", "b", b"2")), "role"),
        ("compare", {"no_such_setting": 1}, (), "no_such_setting"),
        ("mde", SETTINGS, (), "CompareSettings"),
    ],
)
def test_bad_shares_are_refused(store: SQLiteReportStore, kind: str, settings: object,
                                files: tuple[InputFile, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        share(store, kind, settings, files)  # type: ignore[arg-type]
    assert store.usage().reports == 0


def test_oversized_inputs_name_the_limit(tmp_path: Path) -> None:
    small = SQLiteReportStore(tmp_path / "small.sqlite3",
                              limits=StoreLimits(max_report_bytes=100_000))
    with pytest.raises(StoreLimitError, match="max_report_bytes") as caught:
        share(small, "compare", SETTINGS, compare_files())
    assert caught.value.limit_bytes == 100_000
    assert small.usage().reports == 0


def test_unknown_token_is_not_found(store: SQLiteReportStore) -> None:
    with pytest.raises(ReportNotFound, match=r"^report not found$"):
        reopen(store, "A" * 32)


def test_snapshot_from_a_newer_format_is_refused_in_words(store: SQLiteReportStore) -> None:
    token = store.put({"format": 2, "kind": "compare", "settings": {}, "files": []}, {})
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
