"""Where a query's terms occur in a document's title and text (issue 51's highlighting).

`query_terms` answers "which words of the query are worth looking for" (lower case, word
characters, stop words and one-letter words left out); `term_spans` cuts a text into runs
that are and are not one of those words (case-insensitive, whole words), so a face can mark
them as DiffIR does; `matched_terms` says which of the terms a text holds. It does no
stemming: "running" does not match "run". Nothing here renders.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "how", "in", "is", "it",
    "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which",
    "who", "why", "with"})
_WORD = re.compile(r"\w+", re.UNICODE)


class TermSpan(NamedTuple):
    """A run of a text and whether it is one of the query's terms."""

    text: str
    match: bool


def query_terms(query: str) -> tuple[str, ...]:
    """The query's words to look for, lower case, each once, in the query's order."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(query.lower()):
        if len(word) > 1 and word not in STOP_WORDS:
            seen.setdefault(word, None)
    return tuple(seen)


def term_spans(text: str, terms: Sequence[str]) -> list[TermSpan]:
    """``text`` as consecutive spans, each a whole word among ``terms`` (any case) or not;
    joined, the spans are ``text`` again."""
    if not terms or not text:
        return [TermSpan(text, False)] if text else []
    pattern = re.compile(r"\b(" + "|".join(re.escape(t) for t in sorted(terms, key=len,
                                                                          reverse=True))
                         + r")\b", re.IGNORECASE | re.UNICODE)
    spans: list[TermSpan] = []
    at = 0
    for found in pattern.finditer(text):
        if found.start() > at:
            spans.append(TermSpan(text[at:found.start()], False))
        spans.append(TermSpan(found.group(0), True))
        at = found.end()
    if at < len(text):
        spans.append(TermSpan(text[at:], False))
    return spans


def matched_terms(text: str, terms: Sequence[str]) -> tuple[str, ...]:
    """The ``terms`` that occur in ``text`` as whole words (any case), in ``terms`` order."""
    found = {span.text.lower() for span in term_spans(text, terms) if span.match}
    return tuple(t for t in terms if t in found)


__all__ = ["STOP_WORDS", "TermSpan", "matched_terms", "query_terms", "term_spans"]
