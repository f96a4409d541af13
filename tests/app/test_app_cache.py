"""The app's one cache: bounded in bytes, least recently used first, sizes measured."""

from __future__ import annotations

import hashlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ranklens.app import cache as cache_module
from ranklens.app import state
from ranklens.app.cache import (
    CACHE_MB_ENV,
    DEFAULT_CACHE_MB,
    SizedLRU,
    cache_limit_bytes,
    estimated_bytes,
)
from ranklens.compare.analysis import demo_files, load_inputs
from tests.support.page_testing import ROOT, run_page


@dataclass
class Parsed:
    scores: np.ndarray
    ids: pa.Array
    raw: bytes
    name: str


def test_sizes_count_arrays_buffers_and_text_once() -> None:
    scores = np.zeros(1_000_000)  # 8 MB
    parsed = Parsed(scores, pa.array(np.arange(1000, dtype=np.int64)), b"x" * 5000, "run")
    assert estimated_bytes(parsed) == 8_000_000 + 8000 + 5000 + 3
    # The same array reached twice is one array.
    assert estimated_bytes({"a": parsed, "b": [parsed, scores]}) == estimated_bytes(parsed) + 2


def test_least_recently_used_goes_first_when_the_budget_is_passed() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=40)
    cache.put("b", "B", size=40)
    assert cache.get("a") == "A"  # a is now more recent than b
    cache.put("c", "C", size=40)
    assert cache.keys() == ["a", "c"] and cache.bytes == 80
    assert cache.get("b") is None


def test_a_value_over_the_whole_budget_is_not_kept() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=60)
    assert cache.put("huge", "H", size=101) is False
    assert cache.keys() == ["a"] and cache.bytes == 60


def test_putting_a_key_again_replaces_its_size() -> None:
    cache = SizedLRU(capacity=100)
    cache.put("a", "A", size=60)
    cache.put("a", "A2", size=30)
    assert cache.bytes == 30 and cache.get("a") == "A2"


def test_measured_sizes_bound_the_cache() -> None:
    cache = SizedLRU(capacity=20_000_000)
    for i in range(5):
        cache.put(i, np.zeros(1_000_000))  # 8 MB each
    assert cache.keys() == [3, 4] and cache.bytes == 16_000_000


def test_cache_limit_from_the_environment() -> None:
    assert cache_limit_bytes({}) == DEFAULT_CACHE_MB * 1_000_000
    assert cache_limit_bytes({CACHE_MB_ENV: " 512 "}) == 512_000_000
    for bad in ("lots", "0", "-3", "1.5"):
        with pytest.raises(ValueError, match=CACHE_MB_ENV):
            cache_limit_bytes({CACHE_MB_ENV: bad})


def test_find_answers_the_most_recent_match_without_marking_it_used() -> None:
    cache = SizedLRU(capacity=100)
    cache.put(("inputs", 1), "first", size=1)
    cache.put(("inputs", 2), "second", size=1)
    cache.put(("report", 3), "report", size=1)
    assert cache.find(lambda key: key[0] == "inputs") == "second"  # type: ignore[index]
    assert cache.find(lambda key: key[0] == "rbo") is None  # type: ignore[index]
    assert cache.keys() == [("inputs", 1), ("inputs", 2), ("report", 3)]


def test_numbers_count_eight_bytes_each() -> None:
    # the keys are text (2 + 2 + 1 + 4 characters); True is a flag, not a number
    assert estimated_bytes({"q1": 0.5, "q2": 0.25, "n": 3, "flag": True}) == 3 * 8 + 9


def test_frames_count_their_columns_and_index() -> None:
    frame = pd.DataFrame({"a": np.zeros(10_000), "b": np.ones(10_000)})
    assert estimated_bytes(frame) == int(frame.memory_usage(index=True, deep=False).sum())
    assert estimated_bytes(frame) >= 160_000


def test_parsed_demo_inputs_weigh_their_tables_and_raw_bytes() -> None:
    files = demo_files()
    inputs = load_inputs(files["run_a"], files["run_b"], qrels=files["qrels"],
                         segments=files["segments"])
    assert inputs.run_a is not None and inputs.run_b is not None and inputs.qrels is not None
    tables = sum(int(array.nbytes) for table in (inputs.run_a, inputs.run_b, inputs.qrels)
                 for array in (table.query_codes, table.doc_codes, table.queries, table.docs))
    tables += inputs.run_a.scores.nbytes + inputs.run_b.scores.nbytes
    tables += inputs.qrels.relevance.nbytes
    raw = sum(f.size for f in inputs.files)
    # the rest is text: names, digests, summaries and the segment map's ids and labels
    assert tables + raw <= estimated_bytes(inputs) < 1.2 * (tables + raw)


def test_a_mistyped_cache_setting_is_named_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_MB_ENV, "lots")
    at = run_page(ROOT / "app.py")
    assert any(CACHE_MB_ENV in error.value and "'lots'" in error.value for error in at.error)
    assert not at.metric  # nothing computed, and no word about the user's inputs


def test_a_budget_smaller_than_the_inputs_keeps_them_out_and_the_pages_still_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_MB_ENV, "1")  # the parsed demo weighs about 7 MB
    at = run_page(ROOT / "pages" / "mde.py")
    at.number_input(key="mde_n").set_value(300).run()
    assert not at.exception
    assert "MDE with 300 queries" in [m.label for m in at.metric]
    cache = state.app_cache()
    assert cache.capacity == 1_000_000 and 0 < cache.bytes <= 1_000_000
    kept = cache.keys()
    assert not any(key[0] == "inputs" for key in kept)  # type: ignore[index]


# ---- sessions asking at once ----------------------------------------------------------------

def _wait_until(condition: Any, what: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` (a state another thread reaches) until it holds, or fail."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def test_the_same_key_asked_at_once_is_computed_once() -> None:
    key = ("test-one-flight", time.monotonic_ns())
    release = threading.Event()
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        release.wait(30)
        return "value"

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(state.cached, "test", key, compute)
        _wait_until(lambda: calls, "the first computation to start")
        second = pool.submit(state.cached, "test", key, compute)
        _wait_until(lambda: cache_module._FLIGHTS[("test", key)][1] == 2,
                    "the second to wait")
        release.set()
        assert (first.result(30), second.result(30)) == ("value", "value")
    assert len(calls) == 1
    assert ("test", key) not in cache_module._FLIGHTS  # no lock left behind


def test_big_steps_take_turns_and_small_ones_do_not_wait() -> None:
    inside, release = threading.Event(), threading.Event()
    order: list[str] = []

    def big(name: str, hold: bool) -> None:
        with state.big_step(state.BIG_INPUT_BYTES + 1):
            order.append(f"{name} in")
            if hold:
                inside.set()
                release.wait(30)
            order.append(f"{name} out")

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(big, "first", True)
        assert inside.wait(30)
        second = pool.submit(big, "second", False)
        with state.big_step(state.BIG_INPUT_BYTES):  # small: not behind the big one
            order.append("small")
        assert "second in" not in order  # the semaphore is the first's until released
        release.set()
        first.result(30)
        second.result(30)
    assert order == ["first in", "small", "first out", "second in", "second out"]


def test_an_upload_is_hashed_without_a_private_copy() -> None:
    """The digest comes from getvalue(): the input file holds the very bytes Streamlit keeps
    for the upload, not a second copy (getbuffer() would unshare the BytesIO)."""
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    record = UploadedFileRec(file_id="f1", name="run.trec", type="text/plain",
                             data=b"q1 Q0 d1 1 2.0 x\n" * 1000)
    upload = UploadedFile(record, None)  # type: ignore[arg-type]
    file = state.input_file("run_a", upload)
    assert file.data is record.data
    assert file.sha256 == hashlib.sha256(record.data).hexdigest()
