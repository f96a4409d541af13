"""The nested shape of pytrec_eval, ranx and BEIR: ``{query: {doc: value}}``.

``nested_table`` answers "these nested pairs as a table": one row per (query, document) with the
columns of the role asked for (``score`` for a run, ``relevance`` for judgements, or ``metric``
and ``value`` for a per-query table ``{query: {metric: value}}``), each value checked and every
problem named by its query and document. ``read_nested_json`` reads such a JSON file (ranx's and
BEIR's ``run.json`` / ``qrels.json``: one object, on one line or pretty-printed), refusing a
query or document given twice, which ``json.loads`` would silently keep once. The table then
goes through the same column checks as any other table (``ranklens.io.tables``).

It does not rank, score or decide the kind of the file (``detect`` and the readers do).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from ranklens.io.detect import BOM, non_utf8_error
from ranklens.io.errors import InputError
from ranklens.io.limits import NESTED_JSON_ROW_BYTES, check_rows
from ranklens.io.source import Loaded

Pairs = Sequence[tuple[Any, Any]]
"""A JSON object as ``json.loads(..., object_pairs_hook=list)`` gives it: (key, value) pairs."""

SHAPE_HINT = ("a run is {query: {doc: score}}, judgements {query: {doc: grade}} (as ranx, "
              "BEIR and pytrec_eval write them)")
_ROLES = {"score": ("doc_id", "score"), "relevance": ("doc_id", "relevance"),
          "value": ("metric", "value")}
_WHAT = {"doc_id": "document", "metric": "metric"}


def read_nested_json(loaded: Loaded, value: str) -> tuple[pa.Table, list[str]]:
    """The table of a ``{query: {key: value}}`` JSON file and its reading notes.

    ``value`` is the role of the inner values: ``score``, ``relevance`` or ``value`` (then the
    inner keys are metric names). ``InputError`` names the line of a JSON syntax error, or the
    query and document of a bad entry.
    """
    raw = bytes(loaded.read_all())
    # every pair is a ':' in the text: an upper bound on the rows, counted before parsing
    check_rows(loaded.name, raw.count(b":"), loaded.max_bytes, counted="key-value separators",
               per_row=NESTED_JSON_ROW_BYTES)
    text_bytes = raw.removeprefix(BOM)
    try:
        text = text_bytes.decode("utf-8")
    except UnicodeDecodeError as bad:
        raise non_utf8_error(loaded.name, text_bytes, bad.start) from None
    try:
        parsed = json.loads(text, object_pairs_hook=_Object)
    except json.JSONDecodeError as bad:
        raise InputError(loaded.name, f"is not valid JSON ({bad.msg}, column {bad.colno})",
                         line=bad.lineno, hint=f"write one JSON object: {SHAPE_HINT}") from None
    except RecursionError:
        raise InputError(loaded.name, "is JSON nested too deeply to read",
                         hint=f"write one JSON object: {SHAPE_HINT}") from None
    if not isinstance(parsed, _Object):
        raise InputError(loaded.name, f"holds a JSON {_json_type(parsed)}, not an object",
                         hint=f"write one JSON object: {SHAPE_HINT}")
    return nested_table(parsed, name=loaded.name, value=value)


class _Object(list[tuple[Any, Any]]):
    """A JSON object kept as its (key, value) pairs, so that a repeated key is seen."""


def nested_table(nested: Mapping[Any, Any] | Pairs, *, name: str, value: str
                 ) -> tuple[pa.Table, list[str]]:
    """``nested`` (a mapping, or pairs as ``read_nested_json`` parses them) as a table with
    columns ``query_id`` and the two of ``value``'s role (``doc_id, score``, ``doc_id,
    relevance`` or ``metric, value``), plus the notes a reader reports (queries without
    entries). Ids are text (an integer key is written in decimal); values must be numbers
    (for scores finite ones). ``InputError`` names ``name``, the query and the entry."""
    key_role, value_role = _ROLES[value]
    what = _WHAT[key_role]
    queries: list[str] = []
    keys: list[str] = []
    values: list[float | int] = []
    empty: list[str] = []
    seen_queries: set[str] = set()
    for query_key, inner in _items(nested):
        query = _id(name, query_key, "query id", None)
        if query in seen_queries:
            raise InputError(name, f"query {query!r} is given twice",
                             hint="merge its entries into one object per query")
        seen_queries.add(query)
        if not isinstance(inner, (Mapping, _Object)):
            raise InputError(name, f"query {query!r} maps to a JSON {_json_type(inner)}, not "
                             f"an object of {what}s", hint=SHAPE_HINT)
        seen: set[str] = set()
        before = len(keys)
        for inner_key, number in _items(inner):
            key = _id(name, inner_key, f"{what} id", query)
            if key in seen:
                raise InputError(name, f"query {query!r} has {what} {key!r} twice",
                                 hint=f"give each {what} of a query once")
            seen.add(key)
            queries.append(query)
            keys.append(key)
            values.append(_number(name, number, value_role, query, what, key))
        if len(keys) == before:
            empty.append(query)
    if not seen_queries:
        raise InputError(name, "has no queries (an empty object)",
                         hint="choose a file with data in it")
    if not keys:
        raise InputError(name, f"has no {what}s: every query maps to an empty object",
                         hint=SHAPE_HINT)
    notes = []
    if empty:
        shown = ", ".join(repr(query) for query in empty[:3])
        notes.append(f"{len(empty)} quer{'y' if len(empty) == 1 else 'ies'} with no {what}s "
                     f"({shown}{', ...' if len(empty) > 3 else ''}): nothing to read there")
    integral = value_role == "relevance" and all(isinstance(v, int) for v in values)
    table = pa.table({"query_id": pa.array(queries, pa.string()),
                      key_role: pa.array(keys, pa.string()),
                      value_role: pa.array(values, pa.int64() if integral else pa.float64())})
    return table, notes


def _items(obj: Mapping[Any, Any] | Pairs) -> Sequence[tuple[Any, Any]] | Any:
    return obj.items() if isinstance(obj, Mapping) else obj


def _id(name: str, key: Any, what: str, query: str | None) -> str:
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        where = "" if query is None else f" in query {query!r}"
        raise InputError(name, f"a {what}{where} is a {type(key).__name__} ({key!r}), not text",
                         hint="ids are text (or whole numbers)")
    text = str(key)
    if not text:
        where = "" if query is None else f" in query {query!r}"
        raise InputError(name, f"a {what}{where} is empty", hint=f"every entry needs a {what}")
    return text


def _number(name: str, number: Any, role: str, query: str, what: str, key: str) -> float | int:
    where = f"query {query!r}, {what} {key!r}"
    if hasattr(number, "item") and not isinstance(number, (bool, int, float)):
        number = number.item()  # a numpy number from a Python dict
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise InputError(name, f"{where}: the {role} is a {_json_type(number)} "
                         f"({str(number)[:40]!r}), not a number",
                         hint=f"write a number as each {what}'s {role}")
    if isinstance(number, float) and not math.isfinite(number):
        raise InputError(name, f"{where}: the {role} {number!r} is not a finite number",
                         hint=f"write a real number as each {what}'s {role} (NaN and infinity "
                              "cannot be ranked)")
    if role == "relevance" and float(number).is_integer():
        return int(number)
    return number  # a fractional grade: the qrels reader applies its grade policy


def _json_type(value: Any) -> str:
    if isinstance(value, (_Object, Mapping)):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__
