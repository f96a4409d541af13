"""Types shared by the CLI tests (the fixtures are in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What one in-process ``ranklens`` run returned and printed."""

    code: int
    out: str
    err: str


Runner = Callable[..., Outcome]
