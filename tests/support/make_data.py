"""The shared synthetic-data generator (``../shared/bench/make_data.py``) for tests that need a
world of runs, qrels and segments: found once, run once per world."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# shared/ sits beside the repository (in a session and in CI's fresh clone alike)
MAKE_DATA = next((path for path in (
    Path(__file__).resolve().parents[3] / "shared" / "bench" / "make_data.py",
    Path("/work/shared/bench/make_data.py")) if path.exists()),
    Path("/work/shared/bench/make_data.py"))


def make_world(out: Path, *args: str) -> Path:
    """``make_data.py out *args`` (its options, e.g. ``"--queries", "50"``); ``out``. Skips the
    test where the generator is not available."""
    if not MAKE_DATA.exists():
        pytest.skip("shared data generator not available")
    subprocess.run([sys.executable, str(MAKE_DATA), str(out), *args], check=True,
                   capture_output=True)
    return out
