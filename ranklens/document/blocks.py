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
- `Table`: records under their declared columns (``ranklens.document.columns.Column``), every
  number written through ``ranklens.formats`` by the column's kind;
- `Chart`: a figure (an Altair chart) with the words saying what it shows; faces without
  pictures (text, Markdown) leave it out, the table beside it holds its numbers;
- `Files`: the files a result was computed from, each with its size, digest and how its
  reader read it (a line each in text and Markdown, a table with the digests in HTML);
- `Parameters`: every setting a result was computed with and the ranklens version (a table
  in the wide faces; text and Markdown name their settings where they use them);
- `Section`: a titled group of blocks with a stable ``key`` (the HTML anchor) and an optional
  ``lead`` (a count after the title: "1 failed, 8 passed") and an ``anchor`` where faces link
  to it; a section inside a section is a subsection, drawn one heading level down.

A `Paragraph` or `Table` marked ``detail``, and `Parameters`, are drawn by the wide faces only
(the HTML export, the page), as a detail column is: text and Markdown leave them out, and a
section with nothing else in it.

``docs/architecture.md`` says which report sections are blocks already.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from ranklens.document.columns import Column

Tone = Literal["plain", "warning"]
Status = Literal["failed", "warning", "passed"]

SYMBOLS: dict[str, str] = {"failed": "\u2717", "warning": "!", "passed": "\u2713"}
"""The mark of each `Status` where a face writes one (text, the HTML export)."""


Role = Literal["", "conclusion", "interval-note"]


@dataclass(frozen=True)
class Paragraph:
    """Words to read: one paragraph (its line breaks are the writer's). ``role`` says what it
    is where a face sets it apart: ``conclusion`` (the finding: bold on the page), or
    ``interval-note`` (how to read the numbers above it: a caption on the page); ``literal``:
    the text is plain words shown as typed (names from the inputs inside), not Markdown-lite."""

    text: str
    role: Role = ""
    literal: bool = False
    detail: bool = False
    """Drawn by the wide faces only (the HTML export, the page), as a detail `Column` is;
    text and Markdown leave it out (`is_detail`)."""


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


@dataclass(frozen=True)
class Table:
    """``records`` under ``columns``: each cell is `ranklens.document.columns.cell` of its
    column. ``names`` fill the headers' ``{a}``, ``{b}``, ``{level}``...; ``key`` names the
    table (its HTML class); the rows at ``set_apart`` are summary rows (an overall or average
    row: the HTML export sets them apart)."""

    key: str
    columns: tuple[Column, ...]
    records: tuple[Mapping[str, Any], ...]
    names: Mapping[str, object] = field(default_factory=dict)
    set_apart: tuple[int, ...] = ()
    detail: bool = False
    """Drawn by the wide faces only (the HTML export, the page), as a detail `Column` is;
    text and Markdown leave it out (`is_detail`)."""


@dataclass(frozen=True)
class Chart:
    """A figure: ``draw`` builds it (an Altair chart; called only by the faces that draw
    pictures, so text and Markdown never load a chart library) and ``label`` says what it
    shows in words (the HTML export's alternative text)."""

    key: str
    draw: Callable[[], Any]
    label: str


@dataclass(frozen=True)
class FileRow:
    """One file: its ``role`` (``run_a``, ``qrels``...), ``name``, ``size`` in bytes, its
    ``sha256`` and ``description``, what its reader made of it (rows, queries, rows set aside;
    empty where no reader described it)."""

    role: str
    name: str
    size: int
    sha256: str
    description: str = ""

    @property
    def line(self) -> str:
        """The file in one line: its description, or its name and size."""
        return self.description or f"{self.name}: {self.size:,} bytes"


@dataclass(frozen=True)
class Files:
    """The files a result was computed from, in the order they were given."""

    rows: tuple[FileRow, ...]


@dataclass(frozen=True)
class Parameters:
    """Every setting of a result by name (``values``; strings as they are, the rest written as
    JSON) and the ``version`` of ranklens that computed it: drawn by the wide faces only."""

    values: Mapping[str, Any]
    version: str


Block = Union[Paragraph, Items, Callout, Folded, Banner, Table, Chart, Files, Parameters,
              "Section"]
"""Every kind of block a section may hold (a `Section` in a section is a subsection)."""


@dataclass(frozen=True)
class Section:
    """A titled group of blocks: ``key`` names it for links and anchors (``warnings``),
    ``title`` is what the reader sees above it."""

    key: str
    title: str
    blocks: tuple[Block, ...]
    lead: str = ""
    anchor: str = ""
    """Where a face links to it (the HTML id of its heading; a banner's ``anchor``); empty:
    nowhere."""


def is_detail(block: Block) -> bool:
    """Whether only the wide faces draw ``block`` (a `Paragraph` or `Table` marked
    ``detail``, `Parameters`): text and Markdown skip it."""
    return isinstance(block, Parameters) or (isinstance(block, (Paragraph, Table))
                                              and block.detail)


def narrow_faces_skip(section: Section) -> bool:
    """Whether text and Markdown leave ``section`` out: it has blocks and every one of them is
    `is_detail`."""
    return bool(section.blocks) and all(is_detail(block) for block in section.blocks)


def section(key: str, title: str, blocks: Sequence[Block]) -> Section | None:
    """A `Section` of the non-empty ``blocks``, or None when nothing is left to say (a writer
    draws no empty section)."""
    kept = tuple(b for b in blocks if not isinstance(b, Items) or b.texts)
    return Section(key, title, kept) if kept else None
