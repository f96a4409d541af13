"""How numbers read, on every page and in every export: one format per quantity.

A difference is signed with a real minus (``+0.0483``, ``\u22120.0930``), a p- or q-value has
three significant places down to ``< 0.001``, an interval reads ``+0.0148 to +0.0447``, a
spread, an MDE or an interval width has four decimals (``0.0217``), a power is a percentage
with one decimal (``44.3%``). The CLI, the pages and the HTML exports all format through here,
so a number never reads one way on the page and another in the file. ``Card`` is one headline
number as the pages and the HTML exports show it, with the direction of its change.

The pages' sentences are a small Markdown dialect: ``**bold**``, ``[label](url)`` links, and
user strings (file, run, segment, column names, ids) written with `literal`, which escapes
every character Markdown, LaTeX (``$``) or HTML would act on. Streamlit renders the dialect
as it is; `spans` reads it back for the other faces (``plain`` for the CLI,
``ranklens.document.html_shell`` for the exports), so one sentence serves all three. Nothing
here computes a statistic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

MINUS = "\u2212"
DASH = "\u2014"


def format_p(p: float) -> str:
    """A p- or q-value for people: ``< 0.001`` below a thousandth, else three decimals."""
    if p < 0.001:
        return "< 0.001"
    if p < 0.01:
        return f"{p:.4f}"
    return f"{p:.3f}"


def format_delta(value: float, digits: int = 4) -> str:
    """A signed difference with a real minus sign: ``+0.0483``, ``−0.0930``."""
    text = f"{value:+.{digits}f}"
    return text.replace("-", MINUS)


def format_interval(low: float, high: float, digits: int = 4) -> str:
    """An interval of differences as the pages write it: ``+0.0148 to +0.0447``."""
    return f"{format_delta(low, digits)} to {format_delta(high, digits)}"


def format_lift(fraction: float) -> str:
    """A relative lift as a signed percentage with one decimal: 0.0485 -> ``+4.8%``
    (a real minus sign below 0; an unbounded end as ``−∞``/``+∞``)."""
    if math.isinf(fraction):
        return ("+" if fraction > 0 else MINUS) + "\u221e"
    return format_delta(100.0 * fraction, 1) + "%"


def format_lift_interval(lift: float, low: float, high: float) -> str:
    """A lift with its interval: ``+4.8% (+2.3% to +7.5%)``."""
    return f"{format_lift(lift)} ({format_lift(low)} to {format_lift(high)})"


def format_value(value: float, digits: int = 4) -> str:
    """An unsigned quantity (a spread, an MDE, an interval width): ``0.0217``."""
    return f"{value:.{digits}f}".replace("-", MINUS)


def slug(value: str) -> str:
    """``value`` as an id (HTML ids, page anchors, file names): letters and digits, the rest
    as hyphens, lower case."""
    return "".join(ch if ch.isalnum() else "-" for ch in value).strip("-").lower()


def format_level(level: float) -> str:
    """A confidence level as people read it, to four digits: 0.95 -> "95%", 0.975 -> "97.5%",
    0.99875 -> "99.88%". The one writing of a level in ranklens (headers, captions, cards,
    tooltips); `level_number` is the same without the per cent sign ("95" of "95% CI")."""
    return f"{level_number(level)}%"


def level_number(level: float) -> str:
    """The number of `format_level` before its per cent sign: 0.95 -> "95"."""
    return f"{100 * level:.4g}"


def format_percent(fraction: float) -> str:
    """A power (or any chance) as a percentage with one decimal: 0.44316 -> ``44.3%``."""
    return f"{100.0 * fraction:.1f}%"


Better = Literal["up", "down", "neither"]


class Card(NamedTuple):
    """One metric card: ``label``, ``value`` as shown, ``exact`` number (None for words),
    ``help`` (the card's tooltip) and ``delta`` (a change shown under the value).

    ``trend`` is the change as a number, whose sign decides the arrow (the text of ``delta``
    uses a real minus, which no renderer reads as negative); ``better`` says which direction
    is good: "up" (a gain is green), "down" (a narrower interval is green) or "neither".
    ``label`` and ``help`` are the Markdown dialect: user strings in them are `literal`.
    """

    label: str
    value: str
    exact: float | int | None
    help: str = ""
    delta: str = ""
    trend: float | None = None
    better: Better = "up"


class Direction(NamedTuple):
    """How a card's change is drawn: ``arrow`` "up", "down" or "off"; ``colour`` "green",
    "red" or "gray"."""

    arrow: Literal["up", "down", "off"]
    colour: Literal["green", "red", "gray"]


def direction(card: Card) -> Direction:
    """The arrow and colour of ``card``'s change, from its ``trend`` (never from its text)."""
    if card.trend is None or card.trend == 0:
        return Direction("off", "gray")
    arrow: Literal["up", "down"] = "up" if card.trend > 0 else "down"
    if card.better == "neither":
        return Direction(arrow, "gray")
    return Direction(arrow, "green" if arrow == card.better else "red")


def card_dict(card: Card) -> dict[str, Any]:
    """A card as a JSON object: its label, the value as shown and the exact value."""
    return {"label": card.label, "shown": card.value, "value": card.exact}


def plain_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                right: set[int]) -> list[str]:
    """A fixed-width text table (header, rule, rows); columns in ``right`` align right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


# ---- user strings in Markdown, and the dialect read back ----------------------------------

# CommonMark lets a backslash escape any ASCII punctuation; these open emphasis, links, images,
# code, tables, strike-through and (in Streamlit) LaTeX math inside a line. An underscore
# between letters or digits never emphasises (bm25_tuned stays as written), so only the others
# are escaped. Characters that matter only at the start of a line (#, -, +, 1.) need nothing:
# a literal never starts a line of its caller's Markdown.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]()!|~$])|((?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029]+")


def literal(value: object) -> str:
    """``value`` as Markdown (or HTML) that renders exactly its characters, on one line.

    For every user string that enters Markdown: ``click me **bold** $x^2$.trec`` stays those
    characters (no bold, no math), ``<img src=x>`` stays text, ``[x](http://...)`` is not a
    link. Line breaks become spaces. It does not decide what to show.
    """
    plain_text = _LINE_BREAKS.sub(" ", str(value))
    # HTML first: entities use & and ; only, which the Markdown pass leaves alone.
    plain_text = (plain_text.replace("&", "&amp;").replace("<", "&lt;")
                  .replace(">", "&gt;"))
    return _MARKDOWN_PUNCTUATION.sub(lambda m: "\\" + m.group(0), plain_text)


class Span(NamedTuple):
    """A run of text of the dialect: its characters, whether bold, and a link target."""

    text: str
    bold: bool = False
    link: str | None = None


_DIALECT = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash escape
    r"|&(?P<entity>amp|lt|gt);"  # the entities `literal` writes
    r"|(?P<bold>\*\*)"
    r"|\[(?P<label>[^\]\\]*)\]\((?P<href>[^)\s]*)\)")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}


def spans(source: str) -> list[Span]:
    """The dialect's ``source`` as spans of plain characters (escapes and entities decoded)."""
    out: list[Span] = []
    bold = False
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            out.append(Span("".join(buffer), bold))
            buffer.clear()

    position = 0
    for match in _DIALECT.finditer(source):
        buffer.append(source[position:match.start()])
        position = match.end()
        if match["escaped"] is not None:
            buffer.append(match["escaped"])
        elif match["entity"] is not None:
            buffer.append(_ENTITIES[match["entity"]])
        elif match["bold"] is not None:
            flush()
            bold = not bold
        else:
            flush()
            out.append(Span(match["label"], bold, match["href"]))
    buffer.append(source[position:])
    flush()
    return out


def plain(source: str) -> str:
    """The dialect's ``source`` as plain text for the CLI: no asterisks, escapes or targets."""
    return "".join(span.text for span in spans(source))
