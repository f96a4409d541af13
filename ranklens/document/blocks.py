"""The blocks a report is made of: what a section says, never how a face draws it.

A feature's section turns part of a result into a `Section` of blocks; a writer
(``ranklens.document.text``, ``markdown``, ``html``; the page's ``ranklens.app.blocks``) draws
them. The vocabulary is small on purpose: a new block is a new kind of thing a reader sees
(a paragraph, a list, a callout, a table), and every writer must draw it.

- `Paragraph`: one sentence or more, in the library's Markdown-lite (``**bold**``, links);
- `Items`: a list of short texts; ``tone="warning"`` marks it as what the reader must not miss
  (the HTML export's yellow box, the page's ``st.warning``);
- `Callout`: one finding with its ``status`` (failed, warning, passed), what it found and what
  to do (a health check);
- `Folded`: callouts kept out of the way (the passed checks): each one where a face can fold
  them (HTML ``<details>``, the page's expander), their one-line ``summary`` where it cannot;
- `Banner`: a warning set before a result, pointing to where it is explained (a link where
  the face has links, a sentence where it has not);
- `Section`: a titled group of blocks with a stable ``key`` (the HTML anchor) and an optional
  ``lead`` (a count after the title: "1 failed, 8 passed").

A table's columns are ``ranklens.document.columns`` (`Column`: key, header, kind); the `Table`
block, charts and figures join the vocabulary as sections move onto
this path (``docs/architecture.md`` says which have).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Tone = Literal["plain", "warning"]
Status = Literal["failed", "warning", "passed"]

SYMBOLS: dict[str, str] = {"failed": "\u2717", "warning": "!", "passed": "\u2713"}
"""The mark of each `Status` where a face writes one (text, the HTML export)."""


@dataclass(frozen=True)
class Paragraph:
    """Words to read: one paragraph (its line breaks are the writer's)."""

    text: str


@dataclass(frozen=True)
class Items:
    """A list of short texts, in order; ``tone`` says how loud it is."""

    texts: tuple[str, ...]
    tone: Tone = "plain"


@dataclass(frozen=True)
class Callout:
    """One finding: its ``status``, a ``title`` (what was checked, about what), the ``text``
    (what was found), what to do (``action``) and a few ``examples``."""

    status: Status
    title: str
    text: str
    action: str = ""
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class Folded:
    """``callouts`` of one ``status`` kept out of the way: ``label`` names them when folded
    ("8 passed"), ``summary`` says them all in one line for faces that cannot fold."""

    status: Status
    label: str
    callouts: tuple[Callout, ...]
    summary: str


@dataclass(frozen=True)
class Banner:
    """A warning beside a result: its ``kind`` (``guardrail``: could change the verdict;
    ``ties``: the verdict reads otherwise under the other tie rule), an optional bold
    ``title``, the ``text``, and where to look next: the ``link`` words to ``anchor`` where a
    face links, the ``pointer`` sentence where not (both empty: nowhere)."""

    kind: Literal["guardrail", "ties"]
    text: str
    title: str = ""
    anchor: str = ""
    link: str = ""
    pointer: str = ""


Block = Paragraph | Items | Callout | Folded | Banner
"""Every kind of block a section may hold."""


@dataclass(frozen=True)
class Section:
    """A titled group of blocks: ``key`` names it for links and anchors (``warnings``),
    ``title`` is what the reader sees above it."""

    key: str
    title: str
    blocks: tuple[Block, ...]
    lead: str = ""


def section(key: str, title: str, blocks: Sequence[Block]) -> Section | None:
    """A `Section` of the non-empty ``blocks``, or None when nothing is left to say (a writer
    draws no empty section)."""
    kept = tuple(b for b in blocks if not isinstance(b, Items) or b.texts)
    return Section(key, title, kept) if kept else None
