"""Hostile inputs: refused in words, quickly, without memory growing with what they claim.

A gzip bomb is measured by its decompressed size (the cap stops decompressing as soon as it is
passed); a table with 10^5 columns is refused from its header or Parquet schema; a CSV whose one
line is 100 MB is named by its line, not reported as a ranklens bug.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pytest

from ranklens.io import InputError, read_run, read_segments
from ranklens.io.tables import MAX_COLUMNS
from tests.support.hostile_files import gzip_bomb, wide_parquet


def test_gzip_bomb_is_refused_by_its_decompressed_size() -> None:
    bomb = gzip_bomb(400_000_000)
    assert len(bomb) < 2_000_000  # small on the wire
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        read_run(bomb, name="bomb.trec.gz", max_bytes=20_000_000)
    message = str(caught.value)
    assert "bomb.trec.gz" in message
    assert "decompresses to more than the limit of 20,000,000 bytes" in message
    assert time.monotonic() - started < 10  # stopped at the cap, not after 400 MB


ROOT = Path(__file__).resolve().parents[2]  # where the package `tests` is importable from
MEASURE_BOMB = """
import resource, sys, zlib
sys.path.insert(0, sys.argv[1])
from tests.support.hostile_files import gzip_bomb
from ranklens.io import InputError, read_run
bomb = gzip_bomb(1_500_000_000)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    read_run(bomb, name="bomb.trec.gz", max_bytes=50_000_000)
except InputError:
    pass
print(before // 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def test_gzip_bomb_memory_stays_near_the_cap() -> None:
    """1.5 GB decompressed, cap 50 MB: the reader's peak grows by about the cap, not 1.5 GB."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(MEASURE_BOMB), str(ROOT)],
        capture_output=True, text=True, timeout=300, check=True)
    before_mb, after_mb = map(int, done.stdout.split())
    assert after_mb - before_mb < 250, (before_mb, after_mb)


def test_a_run_under_the_cap_reads_as_usual() -> None:
    data = b"".join(f"q{q} Q0 d{d} {d + 1} {10 - d}.0 run\n".encode()
                    for q in range(3) for d in range(5))
    gz = zlib.compressobj(6, zlib.DEFLATED, 31)
    packed = gz.compress(data) + gz.flush()
    read = read_run(packed, name="small.trec.gz", max_bytes=len(data))
    assert read.summary.rows == 15


@pytest.mark.slow
def test_parquet_with_a_hundred_thousand_columns_is_refused() -> None:
    data = wide_parquet(100_000)
    for reader in (read_run, read_segments):
        with pytest.raises(InputError) as caught:
            reader(data, name="wide.parquet")
        assert f"has 100,003 columns; ranklens reads tables of at most {MAX_COLUMNS:,}" in str(
            caught.value)


def test_csv_header_with_too_many_columns_is_refused() -> None:
    header = ",".join(["query_id", "segment", *(f"c{i}" for i in range(5_000))])
    data = (header + "\n" + ",".join(["q1", "a", *("1" for _ in range(5_000))]) + "\n").encode()
    with pytest.raises(InputError) as caught:
        read_segments(data, name="wide.csv")
    assert caught.value.line == 1
    assert "has 5,002 columns" in str(caught.value)


def test_csv_with_a_100_mb_line_names_the_line() -> None:
    data = b"query_id,doc_id,score\nq1,d1,1.0\nq1,d2," + b"9" * 100_000_000 + b"\n"
    with pytest.raises(InputError) as caught:
        read_run(data, name="long.csv")
    error = caught.value
    assert error.line == 3
    assert "line 3 is 100,000,006 bytes long" in str(error)
    assert "bug" not in str(error)
