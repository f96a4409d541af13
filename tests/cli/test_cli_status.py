"""The status line: on a terminal only, rewritten in place, cleared at the end."""

from __future__ import annotations

import io

from ranklens.cli import Status


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_status_writes_stages_on_a_terminal_and_clears() -> None:
    stream = Terminal()
    status = Status(stream)
    status("reading the inputs")
    status("comparing")
    status.done()
    text = stream.getvalue()
    assert "reading the inputs\u2026" in text and "comparing\u2026" in text
    assert text.endswith("\r\033[K") and "\n" not in text


def test_status_is_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()
    status = Status(stream)
    status("reading the inputs")
    status.done()
    assert stream.getvalue() == ""


def test_status_is_erased_before_results_reach_the_terminal() -> None:
    stream = Terminal()
    status = Status(stream)
    status("writing")
    status.clear()
    assert stream.getvalue().endswith("\r\033[K")
    status.done()
    assert stream.getvalue().count("writing") == 1
