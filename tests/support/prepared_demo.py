"""The demo's Compare report as the page computes it at its defaults, and the file that
ships it (``ranklens.app.prepared``).

`computed()` answers "which cache key and which report does the Compare page ask for on its
first view of the demo": it runs the page under AppTest with the prepared report switched off
and the app's cache bypassed, and catches the first report the page asks for.
``python -m tests.support.prepared_demo --write`` writes that report to the file the app
ships (after a change of numbers, defaults or version: ``tests/app/test_prepared_demo.py``
says when).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ranklens.compare.report import Report

ROOT = Path(__file__).resolve().parents[2]


def computed() -> tuple[str, Report]:
    """The (repr of the cache key, report) of the Compare page's first view of the demo,
    computed now (nothing prepared, nothing cached used)."""
    from streamlit.testing.v1 import AppTest

    from ranklens.app import state

    caught: list[tuple[str, Report]] = []
    original = state.cached_report

    def catching(inputs: Any, settings: Any) -> Report:
        report = state.compute_report(inputs, settings)
        caught.append((repr(state.report_key(inputs, settings)), report))
        return report

    state.cached_report = catching  # type: ignore[assignment]
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    finally:
        state.cached_report = original  # type: ignore[assignment]
    assert caught, "the Compare page asked for no report"
    return caught[0]


def main(argv: list[str] | None = None) -> int:
    from ranklens.app.prepared import PREPARED_FILE, prepared_text
    from ranklens.demo import data_dir

    parser = argparse.ArgumentParser(prog="python -m tests.support.prepared_demo")
    parser.add_argument("--write", action="store_true", help="write the shipped file")
    args = parser.parse_args(argv)
    key, report = computed()
    text = prepared_text(key, report)
    path = data_dir() / PREPARED_FILE
    if args.write:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text):,} bytes)")
        return 0
    same = path.is_file() and path.read_text(encoding="utf-8") == text
    print("the shipped report is today's" if same else f"differs: {path}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
