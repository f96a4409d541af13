"""The app under test: ``streamlit run app.py`` on a free localhost port, and its shutdown."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    """A localhost TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Poll the server's health endpoint until it answers 'ok' (fail if the process exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"streamlit did not answer on {url} within {timeout:.0f} s")


def start_app(store: Path | str, log_path: Path, extra_args: Sequence[str] = (),
              env: Mapping[str, str] | None = None) -> tuple[str, subprocess.Popen[bytes]]:
    """Start ``streamlit run app.py`` on a free localhost port; (base URL, process).

    ``store`` is the report store: a SQLite file, or a PostgreSQL URL several servers share.
    ``extra_args`` go to ``streamlit run`` after ours (``--server.maxUploadSize 1``), ``env``
    is added to the environment (``RANKLENS_CACHE_MB``).
    """
    port = _free_port()
    env = {**os.environ, **(env or {}), "RANKLENS_STORE": str(store)}
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false",
         # the code under test must not change mid-session (others edit the tree while we run)
         "--server.fileWatcherType", "none", *extra_args],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
    except Exception:
        process.kill()
        raise
    return url, process


def stop_app(process: subprocess.Popen[bytes]) -> None:
    """Kill the server started by `start_app` or `start_ranklens_app` and reap it.

    SIGKILL, not SIGTERM: a test server has nothing to keep (the store writes each report in
    one transaction), and Streamlit's graceful shutdown cost 0.7-1.8 s per server on an idle
    machine, 2-6 s on a busy one (a dozen servers per run, several at the end of a worker).
    Both commands serve from this one process (``ranklens app`` runs Streamlit in process).
    """
    process.kill()
    process.wait(timeout=30)


def start_ranklens_app(store: Path | str, log_path: Path, extra_args: Sequence[str] = (),
                       env: Mapping[str, str] | None = None
                       ) -> tuple[str, subprocess.Popen[bytes]]:
    """Start the shipped command, ``ranklens app`` (its route guard and log redaction
    included), on a free localhost port; (base URL, process). Arguments as `start_app`."""
    port = _free_port()
    env = {**os.environ, **(env or {})}
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ranklens.cli", "app", "--port", str(port), "--host", "127.0.0.1",
         "--store", str(store), "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
         *extra_args],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
    except Exception:
        process.kill()
        raise
    return url, process
