"""The Methods page's text: what ranklens computes, how, under which assumptions.

``sections()`` answers "what does the Methods page say": the English text shipped with the
package (``methods.md``: the formulas of the bootstrap, the permutation test, BH, the MDE and
PPI++, the assumptions and the choices where ranklens differs from a reference), cut into
sections with stable anchors, and the validity table (coverage and type-I error per method and
sample size) read from ``docs/validity.md`` (shipped in the package) when it is there.
``methods_link`` writes the link every "Methods page" reference in the app uses.

Text only: the app's ``ranklens/app/pages/methods.py`` shows it; nothing here computes or draws.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

URL_PATH = "methods"
"""The page's address in the app (``st.Page(..., url_path=URL_PATH)``)."""

TITLE = "Methods"
VALIDITY_FILE = Path(__file__).resolve().parent / "validity.md"
"""The simulation results (coverage, type-I error) the Methods page shows, when present: the
repository's ``docs/validity.md`` (``ranklens/validity.md`` links to it, and the wheel ships
it as package data, so an installed app shows the table too)."""

VALIDITY_MISSING = (
    "The simulation table (coverage of the intervals and type-I error of the tests, per "
    "method and number of queries) is written to `docs/validity.md` of the ranklens "
    "repository; this installation does not include it."
)

_HEADING = re.compile(r"^## (?P<title>.+?) \{#(?P<anchor>[a-z0-9-]+)\}\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Section:
    """One section of the page: its ``anchor`` (the URL fragment), ``title`` and Markdown
    ``body`` (with LaTeX between ``$`` signs, as Streamlit renders it)."""

    anchor: str
    title: str
    body: str


def methods_link(anchor: str | None = None, label: str = "Methods page") -> str:
    """A Markdown link to the Methods page (at ``anchor``, a section's), for the app's words."""
    if anchor is not None and anchor not in ANCHORS:
        raise ValueError(f"the Methods page has no section {anchor!r}; it has {ANCHORS}")
    return f"[{label}](/{URL_PATH}{'' if anchor is None else '#' + anchor})"


def source() -> str:
    """The page's Markdown as shipped: an introduction, then ``## Title {#anchor}`` sections."""
    return resources.files("ranklens").joinpath("methods.md").read_text(encoding="utf-8")


def validity_table() -> str | None:
    """The validity section's Markdown from ``docs/validity.md`` (without its own top-level
    heading, its sections one level down), or None when the file is not there."""
    if not VALIDITY_FILE.is_file():
        return None
    text = VALIDITY_FILE.read_text(encoding="utf-8")
    text = re.sub(r"\A\s*# [^\n]*\n", "", text).strip()
    # its "## ..." sections sit inside the page's own "Validity" section: one level down
    return re.sub(r"^(#{2,5}) ", lambda m: "#" + m.group(1) + " ", text, flags=re.MULTILINE)


def introduction() -> str:
    """The text before the first section, without the page's title line."""
    text = source()
    first = _HEADING.search(text)
    head = text[:first.start()] if first else text
    return re.sub(r"\A\s*# [^\n]*\n", "", head).strip()


def sections() -> list[Section]:
    """The page's sections in order, the validity table filled in (or said to be missing)."""
    text = source()
    found = list(_HEADING.finditer(text))
    out = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        body = text[match.end():end].strip()
        if "{{validity}}" in body:
            body = body.replace("{{validity}}", validity_table() or VALIDITY_MISSING)
        out.append(Section(match["anchor"], match["title"], body))
    return out


ANCHORS = tuple(match["anchor"] for match in _HEADING.finditer(source()))
"""The sections' anchors, in page order (links are checked against them)."""
