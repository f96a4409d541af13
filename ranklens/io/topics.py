"""TREC topic files: the SGML ``<top>`` blocks of TREC 1-8, Robust, Core, and the XML
``<topic number="...">`` files of the Web, Session and COVID tracks.

Answers "which topics does this file hold, with which title and description, on which line
does each start". The forms handled:

- SGML, fields opened by a tag and closed by the next tag (old files have no closing tags):
  ``<top> <num> Number: 301 <title> International Organized Crime <desc> Description: ...
  <narr> Narrative: ... </top>``; TREC 1-3 also carry ``<head>``, ``<dom>``, ``<smry>``,
  ``<con>``, ``<fac>``, ``<def>`` and write ``<title> Topic: ...``; Core 2017/18 close every
  tag (``<num> Number: 307 </num>``). The labels ``Number:``, ``Topic:``, ``Description:``,
  ``Narrative:`` are removed and runs of blanks collapsed, as every IR toolkit does.
- XML: ``<topic number="1"> <query>...</query> <description>...</description>`` (Web
  track), ``<topic number="1"> <query> <question> <narrative>`` (TREC-COVID), with an optional
  ``<?xml ...?>`` prologue and ``<topics>`` root; the id may be in ``number=`` or ``id=``.

The query text is the title (``<title>`` or ``<query>``), the usual "title query"; the
description (``<desc>``, ``<description>`` or ``<question>``) is kept beside it. It does not
decide what to do with repeated ids or empty titles (``queries`` does).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ranklens.io.errors import InputError

_TAG = re.compile(r"<(/?)([A-Za-z_]+)((?:\s[^<>]*)?)/?>")
_OPEN_TOPIC = re.compile(r"<top(?:ic)?(?=[\s>])", re.IGNORECASE)
_LABEL = re.compile(r"^(number|topic|description|narrative|title|query)\s*:\s*", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""\b(number|id|num)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""",
                        re.IGNORECASE)
_TITLE_TAGS = ("title", "query")
_DESCRIPTION_TAGS = ("desc", "description", "question")
_ID_TAGS = ("num", "number", "qid", "id")
TOPIC_FORMAT = "trec-topics"


@dataclass(frozen=True)
class Topic:
    """One topic: its id, title (the query text), description and the line it opens on."""

    id: str
    title: str
    description: str
    line: int


def looks_like_topics(text: str) -> bool:
    """Whether ``text`` (the head of a file) is a TREC topic file: it starts with a tag and
    holds a ``<top>`` or ``<topic>`` opening tag."""
    stripped = text.lstrip("\ufeff \t\r\n")
    return stripped.startswith("<") and _OPEN_TOPIC.search(text) is not None


def parse_topics(name: str, text: str) -> list[Topic]:
    """Every topic of ``text`` in file order; ``InputError`` for a topic without an id."""
    opens = [match.start() for match in _OPEN_TOPIC.finditer(text)]
    if not opens:
        raise InputError(name, "holds no <top> or <topic> block",
                         hint="a TREC topic file holds blocks such as '<top> <num> Number: 301 "
                              "<title> ... </top>'")
    topics = []
    for k, start in enumerate(opens):
        stop = opens[k + 1] if k + 1 < len(opens) else len(text)
        topics.append(_one_topic(name, text, start, stop))
    return topics


def _one_topic(name: str, text: str, start: int, stop: int) -> Topic:
    line = text.count("\n", 0, start) + 1
    block = text[start:stop]
    tags = list(_TAG.finditer(block))
    opening = tags[0]
    fields: dict[str, str] = {}
    for k, tag in enumerate(tags[1:], start=1):
        closing, label = tag.group(1), tag.group(2).lower()
        if closing or label in fields:
            continue
        end = tags[k + 1].start() if k + 1 < len(tags) else len(block)
        fields[label] = _clean(block[tag.end():end])
    topic_id = next((fields[tag] for tag in _ID_TAGS if fields.get(tag)), "")
    attribute = _ATTRIBUTE.search(opening.group(3) or "")
    if attribute:
        topic_id = next(group for group in attribute.groups()[1:] if group is not None).strip()
    topic_id = topic_id.split()[0] if topic_id else ""
    if not topic_id:
        raise InputError(name, "a topic has no number", line=line,
                         hint="give every topic an id: '<num> Number: 301' or "
                              "'<topic number=\"301\">'")
    title = next((fields[tag] for tag in _TITLE_TAGS if fields.get(tag)), "")
    description = next((fields[tag] for tag in _DESCRIPTION_TAGS if fields.get(tag)), "")
    return Topic(topic_id, title, description, line)


def _clean(value: str) -> str:
    """A field's text: entities decoded, label removed, blanks collapsed."""
    value = " ".join(html.unescape(value).split())
    return _LABEL.sub("", value, count=1).strip()
