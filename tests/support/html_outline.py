"""What the HTML-file tests share: a document's outline, and the check that it needs no network."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

_INLINE = frozenset(("strong", "b", "em", "i", "code", "span", "a", "small", "sub", "sup"))


class Outline(HTMLParser):
    """Every tag with its attributes, the page's text, and the number cells of each table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.tables: list[list[list[tuple[str | None, str]]]] = []
        self._cell: tuple[str | None, list[str]] | None = None
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag not in _INLINE:
            self.text.append(" ")  # a block starts: its words are not glued to the last ones
        self._in.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = (attributes.get("data-value"), [])

    def handle_endtag(self, tag: str) -> None:
        if self._in and self._in[-1] == tag:
            self._in.pop()
        if tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append((self._cell[0], "".join(self._cell[1]).strip()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if "script" in self._in or "style" in self._in:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell[1].append(data)


def outline(document: str) -> Outline:
    parsed = Outline()
    parsed.feed(document)
    return parsed


def assert_self_contained(document: str) -> None:
    """Nothing in ``document`` is fetched: no script source, link, image, frame or URL."""
    parsed = outline(document)
    for tag, attributes in parsed.tags:
        assert tag not in ("link", "iframe", "img", "object", "embed", "base"), tag
        if tag == "script":
            assert "src" not in attributes and attributes.get("type") == "application/json"
        for name, value in attributes.items():
            if value and re.search(r"(https?:)?//", value):
                # SVG namespace declarations are names, not references: nothing is fetched.
                assert name.startswith("xmlns") and value.startswith("http://www.w3.org/"), (
                    tag, name, value)
    assert "<script src" not in document.lower()
    assert "@import" not in document
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", document)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", document)
    # any other URL in the file is a name in an SVG namespace, never something to load
    assert set(re.findall(r"https?://[^\s\"'<>)]+", document)) <= {
        "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


_CARD = re.compile(r'<div class="card"><div class="label">(.*?)</div>'
                   r'<div class="value"(?: data-value="([^"]*)")?>(.*?)</div>')


def cards(document: str) -> dict[str, tuple[str | None, str]]:
    """Label -> (exact value in ``data-value``, value as shown) of every metric card."""
    return {html.unescape(label): (html.unescape(exact) if exact else None,
                                   html.unescape(shown))
            for label, exact, shown in _CARD.findall(document)}


def table_rows(document: str, index: int) -> list[list[tuple[str | None, str]]]:
    """The body rows of the ``index``-th table: (data-value, text) per cell."""
    return outline(document).tables[index][1:]


def page_text(document: str) -> str:
    """The document's visible text as a reader sees it, white space folded."""
    return " ".join("".join(outline(document).text).split())


def strict_payload(document: str, json_id: str, kind: str) -> dict[str, Any]:
    """The embedded JSON of ``document``, parsed as a browser would (NaN is not JSON), after
    checking it says which page made it and with which ranklens."""
    from ranklens import __version__
    from ranklens.document.html_shell import embedded_json

    def not_json(constant: str) -> None:
        raise AssertionError(f"{constant} in the embedded JSON")

    payload: dict[str, Any] = json.loads(embedded_json(document, json_id),
                                         parse_constant=not_json)
    assert payload["kind"] == kind and payload["ranklens_version"] == __version__
    return payload
