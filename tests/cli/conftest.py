"""Fixtures of the CLI tests: the demo files and an in-process runner of ``ranklens``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens import demo
from ranklens.cli import main
from tests.support.cli_helpers import Outcome, Runner


@pytest.fixture(scope="session")
def demo_paths() -> dict[str, Path]:
    return demo.paths()


@pytest.fixture
def ranklens(capsys: pytest.CaptureFixture[str]) -> Runner:
    """Run ``ranklens ARGS...`` in this process; the exit status and what it printed."""

    def run(*args: object) -> Outcome:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


@pytest.fixture
def runs(demo_paths: dict[str, Path]) -> list[object]:
    """``RUN_A RUN_B --qrels QRELS`` of the demo."""
    return [demo_paths["run_a"], demo_paths["run_b"], "--qrels", demo_paths["qrels"]]
