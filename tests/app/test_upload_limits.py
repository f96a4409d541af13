"""Uploads whose readers take no size limit of their own are bounded like the Compare page's
runs (issue #52, hole 2): query texts and documents, and the MDE and PPI pages' files. The app
checks an upload's decompressed size and rows (`check_upload`) before a reader sees it, and
says the limit in words."""

from __future__ import annotations

import time

import pytest

from ranklens import demo
from ranklens.io import InputError
from ranklens.io.limits import PARQUET_ROW_BYTES, TEXT_ROW_BYTES, check_upload
from tests.app.test_compare_page import compare, labelled, start
from tests.support.hostile_files import gzip_bomb, parquet_bomb

LIMIT = 300 * 2**20  # the bundled server.maxUploadSize


def test_check_upload_refuses_what_would_expand_past_the_limits() -> None:
    with pytest.raises(InputError, match=r"docs\.tsv\.gz: decompresses to more than the limit "
                                         r"of 1,000,000 bytes"):
        check_upload("docs.tsv.gz", gzip_bomb(5_000_000), 1_000_000)
    padded = b"d1\ttext\n" + b"\n" * 1000
    with pytest.raises(InputError, match=r"has 1,001 lines, over the limit of"):
        check_upload("docs.tsv", padded, len(padded))
    with pytest.raises(InputError, match=r"has 60,000,000 rows, over the limit of"):
        check_upload("docs.parquet", parquet_bomb(60_000_000), LIMIT)
    check_upload("queries.tsv", b"q1\tfirst\nq2\tsecond\n", LIMIT)  # within every limit
    assert LIMIT // TEXT_ROW_BYTES > LIMIT // PARQUET_ROW_BYTES


def test_a_documents_bomb_is_refused_in_words_and_the_comparison_still_shows() -> None:
    paths = demo.paths()
    at = start()
    labelled(at.radio, "Data").set_value("My files").run()
    for role in ("run_a", "run_b", "qrels"):
        at.file_uploader(key=f"upload_{role}").upload(paths[role].name, paths[role].read_bytes())
    bomb = gzip_bomb(400_000_000, line=b"d1\tthe same document again\n")
    at.file_uploader(key="upload_documents").upload("docs.tsv.gz", bomb)
    started = time.monotonic()
    compare(at)
    errors = [e.value for e in at.error]
    assert any(e.startswith("**This text file cannot be read.**")
               and "docs.tsv.gz: decompresses to more than the limit of 314,572,800 bytes" in e
               and "--server.maxUploadSize" in e for e in errors), errors
    assert time.monotonic() - started < 60  # on main: 400 MB decompressed and indexed
    assert labelled(at.selectbox, "Query").options[0].startswith("q0313  (")


def test_a_pilot_run_bomb_on_the_mde_page_is_refused_in_words() -> None:
    from pathlib import Path

    from tests.support.page_testing import run_page

    at = run_page(Path(__file__).resolve().parents[2] / "pages" / "mde.py")
    at.radio(key="mde_source").set_value("My pilot runs").run()
    at.file_uploader(key="mde_run_a").upload("a.trec.gz", gzip_bomb(400_000_000))
    at.file_uploader(key="mde_run_b").upload("b.trec", b"q1 Q0 d1 1 2.0 tag\n")
    at.file_uploader(key="mde_qrels").upload("q.trec", b"q1 0 d1 1\n")
    started = time.monotonic()
    at.run()
    assert not at.exception
    assert len(at.error) == 1, [e.value for e in at.error]
    assert "a.trec.gz: decompresses to more than the limit of 314,572,800 bytes" in (
        at.error[0].value)  # on main: 400 MB decompressed and parsed
    assert time.monotonic() - started < 60
