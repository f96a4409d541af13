"""Hostile uploads on the Compare page: each gets a clear message and the page stays usable.

A gzip bomb is refused by what it decompresses to (the upload limit, ``server.maxUploadSize``);
a Parquet file wider than the column limit and a CSV whose one line is 100 MB are refused in
words (the reader's own test, ``tests/io/test_io_hostile.py``, takes the 10^5-column file; here
5,000 columns show the page's message at a tenth of the time). After
each, the demo still computes in the same session: the server is up and answering.
"""

from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ranklens import demo
from tests.support.hostile_files import gzip_bomb, wide_parquet
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]
DEMO = {role: path.read_bytes() for role, path in demo.paths().items()}


def compare_with(run_b: tuple[str, bytes]) -> AppTest:
    at = run_page(ROOT / "app.py")
    at.radio(key="data_source").set_value("My files").run()
    files = {"run_a": ("a.trec", DEMO["run_a"]), "run_b": run_b,
             "qrels": ("qrels.trec", DEMO["qrels"])}
    for role, (name, data) in files.items():
        at.file_uploader(key=f"upload_{role}").upload(name, data)
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def refused(at: AppTest, *words: str) -> str:
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    assert "cannot be read" in errors[0] and all(w in errors[0] for w in words), errors[0]
    assert "bug" not in errors[0] and "Traceback" not in errors[0]
    assert not at.metric  # no half-computed verdict
    return errors[0]


def still_works(at: AppTest) -> None:
    at.radio(key="data_source").set_value("Demo data").run()
    assert not at.exception and not at.error
    assert len(at.metric) >= 5  # the demo's verdict: the server computes as before


def test_gzip_bomb_is_refused_by_its_decompressed_size() -> None:
    bomb = gzip_bomb(400_000_000)  # 400 MB of one repeated line, ~0.4 MB on the wire
    started = time.monotonic()
    at = compare_with(("b.trec.gz", bomb))
    limit = 300 * 1024 * 1024  # .streamlit/config.toml: maxUploadSize = 300
    refused(at, "b.trec.gz", f"decompresses to more than the limit of {limit:,} bytes")
    assert time.monotonic() - started < 60
    still_works(at)


def test_parquet_wider_than_the_column_limit_is_refused() -> None:
    at = compare_with(("wide.parquet", wide_parquet(5_000)))
    refused(at, "wide.parquet", "has 5,003 columns")
    still_works(at)


def test_csv_with_a_100_mb_line_is_refused() -> None:
    data = b"query_id,doc_id,score\nq1,d1,1.0\nq1,d2," + b"9" * 100_000_000 + b"\n"
    at = compare_with(("long.csv", data))
    refused(at, "long.csv", "line 3 is 100,000,006 bytes long")
    still_works(at)
