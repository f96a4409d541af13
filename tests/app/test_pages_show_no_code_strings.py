"""No page shows a string that is only code: a bare string statement is never page content.

Streamlit's "magic" writes every bare expression of a page script to the page, and a string
statement that is not a docstring (an attribute "docstring", a string left as a comment) is one:
``pages/ppi.py`` once opened with "Payload parts the viewer of a page sets ..." above its title.
The app turns magic off (``runner.magicEnabled = false``), and this test runs the packaged pages
with magic ON, so that the page code itself stays free of such strings whatever the server's
settings.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from ranklens.app.entrypoint import PAGES
from tests.support.page_testing import TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(path for path in PAGES.glob("*.py") if path.name != "__init__.py")
MAIN = PAGES.parent / "main.py"
_DOC_HOLDERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def code_strings(source: str) -> list[str]:
    """Every string-literal statement of ``source`` that is not the docstring of its module,
    class or function: what magic would write to the page."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0]) for node in ast.walk(tree)
                  if isinstance(node, _DOC_HOLDERS) and node.body}
    return [node.value.value for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str) and id(node) not in docstrings]


def shown_text(at: AppTest) -> str:
    """Everything the run drew (every element's message, main area and sidebar), one line."""
    parts: list[str] = []
    stack: list[object] = [at._tree]
    while stack:
        node = stack.pop()
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        stack.extend(getattr(node, "children", {}).values())
    return " ".join(" ".join(parts).split())


@pytest.fixture
def magic_on() -> Iterator[None]:
    before = config.get_option("runner.magicEnabled")
    config.set_option("runner.magicEnabled", True)
    yield
    config.set_option("runner.magicEnabled", before)


def test_code_strings_finds_an_attribute_docstring_and_not_docstrings() -> None:
    source = ('"""Module docstring."""\nX = 1\n"""Said of X."""\n\n'
              'def f():\n    """Docstring of f."""\n    "a comment as a string"\n'
              'class C:\n    """Docstring of C."""\n')
    assert code_strings(source) == ["Said of X.", "a comment as a string"]


def test_the_page_scripts_are_the_packaged_ones() -> None:
    assert [path.name for path in SCRIPTS] == ["compare.py", "leaderboard.py", "mde.py",
                                               "methods.py", "ppi.py"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_no_page_shows_a_string_statement_of_its_code(script: Path, magic_on: None) -> None:
    strings = code_strings(script.read_text(encoding="utf-8"))
    strings += code_strings(MAIN.read_text(encoding="utf-8"))
    at = AppTest.from_file(str(MAIN), default_timeout=TIMEOUT)
    if script.stem != "compare":  # Compare is the default page, at /
        at.switch_page(f"pages/{script.name}")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = shown_text(at)
    assert at.title, "the page drew its title"
    for string in strings:
        probe = " ".join(string.split())[:60]
        assert probe not in shown, f"{script.name} shows its code string {string!r}"
    # the probe would see such a string: magic is on, and the page's title is in the text
    assert at.title[0].value.split(":")[0] in shown
