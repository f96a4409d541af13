"""Column aliases of query and document text files, for ``columns.resolve(aliases=...)``.

In these files an ``_id`` or ``id`` column is the key (BEIR's ``queries.jsonl`` and
``corpus.jsonl``), and ``query`` names the query's text rather than its id, so the roles get
their own alias lists here instead of changing what a run or qrels column may be called.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ranklens.io.columns import ALIASES, normalise

QUERY_ALIASES: dict[str, tuple[str, ...]] = {
    "query_id": ("query_id", "qid", "_id", "id", "queryid", "q_id", "topic", "topic_id",
                 "topicid", "number", "num"),
    "text": ("text", "query", "query_text", "querytext", "title", "question", "contents",
             "content", "keywords"),
    "description": ("description", "desc", "narrative"),  # a TREC topic's longer statement
}
DOCUMENT_ALIASES: dict[str, tuple[str, ...]] = {
    "doc_id": (*ALIASES["doc_id"], "_id", "id"),
    "title": ("title", "doc_title", "headline"),
    "text": ("text", "body", "contents", "content", "passage", "doc_text",
             "abstract"),
    "url": ("url", "link"),
}


def all_aliases(aliases: dict[str, tuple[str, ...]]) -> frozenset[str]:
    return frozenset(name for names in aliases.values() for name in names)


def is_text_header(fields: Sequence[str], aliases: dict[str, tuple[str, ...]],
                   key: str) -> bool:
    """Whether a first line's fields name columns (every field a known alias, one of them
    the key) rather than hold data."""
    known: Collection[str] = all_aliases(aliases)
    names = [normalise(field) for field in fields]
    return bool(names) and all(name in known for name in names) and any(
        name in aliases[key] for name in names)
