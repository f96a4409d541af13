"""Every format has a byte and a row limit checked before its data is read (issue #52, hole 2).

A 400 kB Parquet file of 60M dictionary-encoded rows is refused from its footer (no column
read, memory flat); CSV, JSON Lines and nested JSON are bounded by what a scan of their bytes
counts before parsing; each message names the file, the limit and how to raise it. The app's
one-big-input-at-a-time rule weighs what an input expands to, not its upload size.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.json as pajson
import pyarrow.parquet as pq
import pytest

from ranklens.io import InputError, InputFile, read_run
from ranklens.io.limits import (
    NESTED_JSON_ROW_BYTES,
    PARQUET_ROW_BYTES,
    TEXT_ROW_BYTES,
    expanded_size,
    parquet_rows_and_bytes,
)
from tests.support.hostile_files import gzip_bomb, parquet_bomb

LIMIT = 300 * 2**20  # the app's default upload limit, 300 MB
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return parquet_bomb(60_000_000)


def test_parquet_bomb_is_refused_from_its_footer(bomb: bytes,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(bomb) < 1_000_000
    monkeypatch.setattr(pq.ParquetFile, "read", lambda *a, **k: pytest.fail("columns read"))
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        read_run(bomb, name="bomb.parquet", max_bytes=LIMIT)
    message = str(caught.value)
    assert message.startswith("bomb.parquet: has 60,000,000 rows, over the limit of "
                              f"{LIMIT // PARQUET_ROW_BYTES:,} rows")
    assert "max_bytes=" in message and "--server.maxUploadSize" in message
    assert time.monotonic() - started < 5


MEASURE = """
import resource, sys
sys.path.insert(0, sys.argv[1])
from tests.support.hostile_files import parquet_bomb
from ranklens.io import InputError, read_run
bomb = parquet_bomb(60_000_000)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    read_run(bomb, name="bomb.parquet", max_bytes=300 * 2**20)
except InputError:
    pass
print(before // 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def test_parquet_bomb_memory_stays_flat() -> None:
    """On main this read peaked at 5.1 GB; refused from the footer it adds almost nothing."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(MEASURE), str(ROOT)],
                          capture_output=True, text=True, timeout=300, check=True)
    before_mb, after_mb = map(int, done.stdout.split())
    assert after_mb - before_mb < 50, (before_mb, after_mb)


def test_parquet_expanded_bytes_count_what_dictionaries_hide(bomb: bytes) -> None:
    import io

    rows, expanded = parquet_rows_and_bytes(pq.ParquetFile(io.BytesIO(bomb)))
    assert rows == 60_000_000
    assert expanded >= rows * (5 + 5 + 8)  # two strings (offset + a byte) and a float


def test_parquet_columns_over_the_byte_limit_are_refused_before_reading(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow as pa

    from tests.support.hostile_files import parquet_bytes

    n = 100_000  # under the row limit; 40 text columns of a segment map are 20 MB once read
    text = pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array(["x"]))
    names = ["query_id", *(f"s{i}" for i in range(40))]
    data = parquet_bytes(pa.Table.from_arrays([text] * 41, names=names))
    monkeypatch.setattr(pq.ParquetFile, "read", lambda *a, **k: pytest.fail("columns read"))
    from ranklens.io import read_segments

    with pytest.raises(InputError) as caught:
        read_segments(data, name="wide.parquet", max_bytes=n * PARQUET_ROW_BYTES)
    assert "wide.parquet: the 41 Parquet column(s) read expand to " in str(caught.value)
    assert f"over the limit of {n * PARQUET_ROW_BYTES:,} bytes" in str(caught.value)


def test_jsonl_rows_are_counted_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pajson, "read_json", lambda *a, **k: pytest.fail("parsed"))
    padded = b'{"q":"1","d":"2","s":1}' + b"\n" * 2000  # blank-line padding: rows, not bytes
    with pytest.raises(InputError) as caught:
        read_run(padded, name="padded.jsonl", max_bytes=len(padded))
    assert (f"padded.jsonl: has 2,000 lines, over the limit of {len(padded) // TEXT_ROW_BYTES:,}"
            " rows") in str(caught.value)


def test_csv_rows_are_counted_before_parsing() -> None:
    padded = b"query_id,doc_id,score\n" + b"\n" * 5000
    with pytest.raises(InputError) as caught:
        read_run(padded, name="run.csv", max_bytes=len(padded))
    assert "run.csv: has 5,001 lines, over the limit of" in str(caught.value)


def test_nested_json_pairs_are_counted_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    nested = json.dumps({"q": {f"d{i}": 1 for i in range(2000)}}, separators=(",", ":"))
    data = nested.encode()
    monkeypatch.setattr(json, "loads", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(InputError) as caught:
        read_run(data, name="run.json", max_bytes=len(data))
    assert (f"run.json: has 2,001 key-value separators, over the limit of "
            f"{len(data) // NESTED_JSON_ROW_BYTES:,} rows") in str(caught.value)


def test_expanded_size_weighs_what_an_input_becomes(bomb: bytes) -> None:
    gz = gzip_bomb(200_000_000)
    assert expanded_size(gz) == 200 * 999_989  # gzip_bomb writes whole 999,989-byte blocks
    assert expanded_size(gz, max_bytes=50_000_000) > 50_000_000  # stops just past the limit
    assert expanded_size(bomb) >= 60_000_000 * PARQUET_ROW_BYTES
    assert expanded_size(b"q Q0 d 1 1 r\n") == 13


def test_the_app_weighs_expanded_sizes_for_one_big_input_at_a_time(bomb: bytes) -> None:
    from ranklens.app import state

    file = InputFile("run_a", "bomb.parquet", bomb)
    assert file.size < state.BIG_INPUT_BYTES < state.files_size([file])
