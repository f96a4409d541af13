"""Which column of a table plays which role (query id, document id, score, ...).

Answers "which file column is the query id" from common aliases or the caller's explicit
mapping. It does not read or convert any values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ranklens.io.errors import InputError

ALIASES: dict[str, tuple[str, ...]] = {
    "query_id": ("query_id", "qid", "query", "queryid", "topic", "topic_id", "topicid", "q_id"),
    # PyTerrier's frames carry Terrier's internal docid beside the collection's docno: which
    # one names the documents is decided by the judgements (ranklens.io.id_columns)
    "doc_id": ("doc_id", "docid", "docno", "doc", "document", "document_id", "documentid",
               "passage_id", "pid"),
    "score": ("score", "sim", "similarity"),
    "rank": ("rank",),
    "relevance": ("relevance", "rel", "label", "grade", "judgement", "judgment", "relevant"),
    "metric": ("metric", "measure", "metric_name"),
    "value": ("value", "metric_value"),
    "run": ("run", "run_id", "runid", "system", "tag"),
    "segment": ("segment", "segments", "group", "bucket", "slice"),
}
# columns of TREC-shaped tables that carry nothing ranklens uses
IGNORED = ("q0", "iter", "iteration")
KNOWN_NAMES = frozenset(name for names in ALIASES.values() for name in names) | set(IGNORED)


def normalise(name: str) -> str:
    """Case, surrounding quotes/spaces and '-' or ' ' versus '_' do not matter in names."""
    return name.strip().strip('"').strip().lower().replace("-", "_").replace(" ", "_")


def resolve(
    source: str,
    available: Sequence[str],
    roles: Sequence[str],
    *,
    optional: Sequence[str] = (),
    explicit: Mapping[str, str] | None = None,
    what: str = "table",
    aliases: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, str]:
    """Map each role to a column of ``available``: explicit mapping first, then aliases.

    ``aliases`` adds or replaces roles' alias lists for one kind of file (query and document
    text files, ``text_columns``: a BEIR ``_id`` column is a query id there, not in a run).
    Raises ``InputError`` naming the missing roles, the columns present and how to map them.
    Optional roles are left out when no column matches.
    """
    explicit = dict(explicit or {})
    known = {**ALIASES, **(aliases or {})}
    unknown_roles = set(explicit) - set(known)
    if unknown_roles:
        raise InputError(source, f"unknown column role(s) {sorted(unknown_roles)}",
                         hint=f"map roles among {sorted(known)} to your column names")
    by_name = {normalise(column): column for column in available}
    found: dict[str, str] = {}
    for role in (*roles, *optional):
        if role in explicit:
            wanted = explicit[role]
            if wanted not in available:
                raise InputError(
                    source, f"has no column {wanted!r} (mapped to {role})",
                    hint=f"its columns are {_listing(available)}")
            found[role] = wanted
            continue
        for alias in known[role]:
            if alias in by_name:
                found[role] = by_name[alias]
                break
    missing = [role for role in roles if role not in found]
    if missing:
        tried = "; ".join(f"{role}: {', '.join(known[role])}" for role in missing)
        raise InputError(
            source,
            f"has no {' or '.join(missing)} column for a {what} (its columns are "
            f"{_listing(available)})",
            hint=f"name the columns by a known alias ({tried}) or map them explicitly, "
                 f"e.g. columns={{{', '.join(repr(r) + ': ...' for r in missing)}}}")
    used = list(found.values())
    if len(used) != len(set(used)):
        raise InputError(source, f"one column is mapped to two roles: {found}",
                         hint="map each role to its own column")
    return found


def id_alternatives(available: Sequence[str], found: Mapping[str, str],
                    explicit: Mapping[str, str] | None = None) -> dict[str, list[str]]:
    """Other columns that could be each id role's, by alias (``docno`` beside ``docid``).

    Answers, for ``query_id`` and ``doc_id`` when ``resolve`` picked a column by alias (not
    an explicit mapping), which further columns also carry one of the role's aliases, in alias
    order. Which of them holds the ids the judgements use is decided later, when the
    judgements are known (``ranklens.io.id_columns``).
    """
    explicit = explicit or {}
    by_name = {normalise(column): column for column in available}
    taken = set(found.values())
    out: dict[str, list[str]] = {}
    for role in ("query_id", "doc_id"):
        if role not in found or role in explicit:
            continue
        others = [by_name[alias] for alias in ALIASES[role]
                  if alias in by_name and by_name[alias] not in taken]
        if others:
            out[role] = others
    return out


def _listing(names: Sequence[str]) -> str:
    shown = ", ".join(repr(name) for name in list(names)[:20])
    return shown + (", ..." if len(names) > 20 else "")
