"""Uploads are hashed once: a rerun of the MDE or PPI page does not hash the files again.

Every sha256 the process computes is recorded (by the length and the first bytes of what it
hashed) while the pages run under AppTest; an uploaded file's bytes are recognised by those.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ranklens import demo
from tests.support.page_testing import ROOT, run_page

DEMO = {role: path.read_bytes() for role, path in demo.paths().items()}
Signature = tuple[int, bytes]


def signature(data: Any) -> Signature:
    view = memoryview(data).cast("B")
    return (view.nbytes, bytes(view[:64]))


@pytest.fixture
def hashed_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Signature]]:
    """The signature (length, first bytes) of everything sha256 hashes from now on."""
    sizes: list[Signature] = []
    real: Callable[..., Any] = hashlib.sha256

    def counting(data: Any = b"", **options: Any) -> Any:
        sizes.append(signature(data))
        return real(data, **options)

    monkeypatch.setattr(hashlib, "sha256", counting)
    yield sizes


def upload(at: AppTest, files: dict[str, tuple[str, bytes]]) -> AppTest:
    for key, (name, data) in files.items():
        at.file_uploader(key=key).upload(name, data)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def times_hashed(sizes: list[Signature], files: dict[str, tuple[str, bytes]]) -> dict[str, int]:
    return {key: sizes.count(signature(data)) for key, (_, data) in files.items()}


def rerun(at: AppTest, change: Callable[[AppTest], Any]) -> AppTest:
    change(at)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_mde_pilot_uploads_are_hashed_once_not_on_every_rerun(
        hashed_sizes: list[Signature]) -> None:
    at = run_page(ROOT / "pages" / "mde.py")
    at.radio(key="mde_source").set_value("My pilot runs").run()
    hashed_sizes.clear()  # the demo (the same bytes) was hashed on the first visit
    files = {"mde_run_a": ("a.trec", DEMO["run_a"]), "mde_run_b": ("b.trec", DEMO["run_b"]),
             "mde_qrels": ("qrels.trec", DEMO["qrels"])}
    upload(at, files)
    assert any(m.label.startswith("MDE with") for m in at.metric)
    assert times_hashed(hashed_sizes, files) == dict.fromkeys(files, 1)
    hashed_sizes.clear()
    rerun(at, lambda at: at.number_input(key="mde_n").set_value(321))
    rerun(at, lambda at: at.selectbox(key="mde_metric").set_value("AP"))  # a new pilot
    assert "MDE with 321 queries" in [m.label for m in at.metric]
    assert times_hashed(hashed_sizes, files) == dict.fromkeys(files, 0)


def test_ppi_uploads_are_hashed_once_not_on_every_rerun(
        hashed_sizes: list[Signature]) -> None:
    at = run_page(ROOT / "pages" / "ppi.py")
    at.radio(key="ppi_source").set_value("My files").run()
    hashed_sizes.clear()  # the demo (the same bytes) was hashed on the first visit
    files = {"ppi_run_a": ("a.trec", DEMO["run_a"]), "ppi_run_b": ("b.trec", DEMO["run_b"]),
             "ppi_proxy": ("proxy.trec", DEMO["qrels_proxy"]),
             "ppi_gold": ("gold.trec", DEMO["qrels_gold"])}
    upload(at, files)
    assert times_hashed(hashed_sizes, files) == dict.fromkeys(files, 1)
    hashed_sizes.clear()
    rerun(at, lambda at: at.selectbox(key="ppi_alpha").set_value(0.1))  # a new analysis
    rerun(at, lambda at: at.number_input(key="ppi_planned_gold").set_value(100))
    assert any("90%" in m.label for m in at.metric)
    assert times_hashed(hashed_sizes, files) == dict.fromkeys(files, 0)


def test_the_bundled_demo_is_not_hashed_again_by_another_session(
        hashed_sizes: list[Signature]) -> None:
    run_page(ROOT / "pages" / "ppi.py")  # the demo's digests are known after one visit
    hashed_sizes.clear()
    for page in ("app.py", "pages/mde.py", "pages/ppi.py"):
        run_page(Path(ROOT / page))
    assert [s for s in hashed_sizes if s in {signature(d) for d in DEMO.values()}] == []
