"""Every pinned output of the demo is byte-equal to its file in ``tests/golden/pinned``.

See ``tests/pinned/__init__.py`` for what is pinned and what is stripped (the version, the demo
folder's path, the export time). After a deliberate change, regenerate with
``.venv/bin/python -m tests.pinned --write`` and review ``git diff tests/golden/pinned``.
"""

from __future__ import annotations

import difflib

import pytest

from tests.pinned import GOLDEN, produce, producers, quiet

NAMES = sorted(producers())


@pytest.mark.parametrize("name", NAMES)
def test_pinned_output_is_unchanged(name: str) -> None:
    path = GOLDEN / name
    assert path.exists(), f"no pin {name}: run .venv/bin/python -m tests.pinned --write {name}"
    with quiet():
        got = produce(name)
    want = path.read_bytes().decode("utf-8")
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "pinned", "now", n=2))
        pytest.fail(f"{name} changed (regenerate with python -m tests.pinned --write "
                    f"{name} if deliberate):\n{diff[:4000]}")


def test_every_pin_file_has_a_producer() -> None:
    stray = sorted(p.name for p in GOLDEN.iterdir()) if GOLDEN.exists() else []
    assert [n for n in stray if n not in NAMES] == []
