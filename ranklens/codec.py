"""The one JSON codec of ranklens: plain values, strict text, non-finite numbers said in words.

``dumps(data)`` answers "``data`` as JSON text every parser accepts": dataclasses, mappings,
sequences and numpy values become plain JSON values; a NaN or an infinity (an effect size when
every per-query difference is the same, an interval end that cannot be bounded) is written as
``null`` and named, with its JSON pointer, in the top-level ``"non_finite"`` object, in words
(``{"/comparisons/0/overall/effect_size": "infinite"}``). ``loads(text)`` reads such text back
and puts the numbers in place again, so ``loads(dumps(d)) == d`` for plain ``d`` with finite or
infinite floats (NaN reads back as NaN, which equals nothing, as in Python).

`encode` / `decode` are the same two steps on plain objects, for callers that embed the object
in a larger one (share links) or read it from an HTML page. Text written before this codec
existed (``Infinity``, ``NaN`` literals, no ``"non_finite"``) still reads: ``loads`` accepts
those literals, `decode` leaves data without ``"non_finite"`` as it is.

It knows nothing of reports or plans: each kind maps its objects to plain data with a
``schema`` number (``ranklens.compare.report``, ``ranklens.plan.payload``,
``ranklens.ppi.payload``) and goes through here for text. A dataclass whose JSON form is not
simply its fields in order declares how it is written once, with `register` and a `Form`
(its key order, fields written only when they differ from their default, or a whole form of
its own such as a result's flat row); `plain` and `rebuild` then follow the declaration both
ways, so the object reads back equal.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring as _encode_string
from typing import Any, TypeVar

T = TypeVar("T")

NON_FINITE = "non_finite"
"""The top-level key naming every non-finite number written as null."""

_WORDS = {math.inf: "infinite", -math.inf: "minus infinite"}
_NAN_WORD = "not a number"
_VALUES = {"infinite": math.inf, "minus infinite": -math.inf, _NAN_WORD: math.nan}


@dataclass(frozen=True)
class Form:
    """How one dataclass is written, where its JSON form is not its fields in order.

    ``order``: keys written first, in this order (other fields follow in field order);
    ``omit_default``: fields left out while they equal their default (so that adding a field
    leaves the JSON of older objects as it was); ``to_plain``/``from_plain``: a whole form of
    its own (the object to a mapping, and back from it), used instead of the fields.
    """

    order: tuple[str, ...] = ()
    omit_default: tuple[str, ...] = ()
    to_plain: Callable[[Any], Mapping[str, Any]] | None = None
    from_plain: Callable[[Mapping[str, Any]], Any] | None = None


_FORMS: dict[type, Form] = {}


def register(cls: type, form: Form) -> None:
    """Declare how ``cls`` is written by `plain` and read by `rebuild` (once, next to the
    code that owns its JSON form; registering again replaces the form)."""
    if (form.to_plain is None) != (form.from_plain is None):
        raise ValueError(f"{cls.__name__}: to_plain and from_plain go together")
    _FORMS[cls] = form


def plain(value: Any) -> Any:
    """``value`` as plain JSON values (dicts, lists, str, int, float, bool, None): dataclasses
    (as their registered `Form` says) and mappings as objects, tuples as lists, numpy scalars
    and arrays as numbers and lists. Floats are kept as they are (non-finite ones included:
    `encode` handles those)."""
    if type(value) in _SCALARS:  # most of a report: per-query numbers, a million at a time
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain_dataclass(value)
    if isinstance(value, Mapping):
        return {key if type(key) is str else str(key):
                item if type(item) in _SCALARS else plain(item)
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [item if type(item) in _SCALARS else plain(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str | int | float):
        return value
    if hasattr(value, "tolist"):  # numpy scalar or array
        return plain(value.tolist())
    raise TypeError(f"{type(value).__name__} has no JSON form here")


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""The exact types `plain` returns as they are, checked before anything else."""


def encode(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a mapping, made `plain`) with every non-finite number as None, and, when there
    was one, ``"non_finite"``: JSON pointer -> "infinite", "minus infinite" or "not a number"."""
    found: dict[str, str] = {}
    body = _nulled(plain(data), "", found)
    named = {**(body.pop(NON_FINITE, None) or {}), **found}  # encoding twice changes nothing
    if named:
        body[NON_FINITE] = named
    return body


def decode(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with the numbers named in ``"non_finite"`` put back (and that key removed);
    data without the key is returned as a dict, unchanged. ``ValueError`` for a pointer that
    names no null value, or a word that is no non-finite number."""
    body = dict(data)
    named = body.pop(NON_FINITE, None) or {}
    if named:
        body = copy.deepcopy(body)  # the caller's nested objects stay as they were
    for pointer, word in named.items():
        if word not in _VALUES:
            raise ValueError(f"non_finite: {word!r} at {pointer} is not one of {list(_VALUES)}")
        body = _put(body, pointer, _VALUES[word])
    return body


def dumps(data: Mapping[str, Any], *, indent: int | None = None) -> str:
    """``data`` as strict JSON text (see the module docstring); never writes NaN or Infinity.

    With ``indent`` the text is `json.dumps`'s to the byte, written by `_indented` (json's
    indenting encoder is pure Python: a report's million per-query numbers took it tens of
    seconds)."""
    body = encode(data)
    if indent is None:
        return json.dumps(body, ensure_ascii=False, allow_nan=False)
    return _indented(body, 0, indent)


def _indented(value: Any, level: int, indent: int) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)`` for the plain,
    finite values `encode` gives, at nesting ``level``."""
    kind = type(value)
    if kind is dict or kind is list:
        if not value:
            return "{}" if kind is dict else "[]"
        inner = "\n" + " " * (indent * (level + 1))
        deeper = level + 1
        if kind is dict:
            parts = [f"{_json_string(key)}: "
                     + (_leaf(item) if type(item) in _SCALARS else _indented(item, deeper, indent))
                     for key, item in value.items()]
            ends = "{}"
        else:
            parts = [_leaf(item) if type(item) in _SCALARS else _indented(item, deeper, indent)
                     for item in value]
            ends = "[]"
        return (ends[0] + inner + ("," + inner).join(parts) + "\n" + " " * (indent * level)
                + ends[1])
    return _leaf(value)


def _leaf(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _json_string(value)
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
        return float.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _json_string(key: Any) -> str:
    if type(key) is not str:
        raise TypeError(f"keys must be str here, not {type(key).__name__}")
    return _encode_string(key)


def loads(text: str) -> dict[str, Any]:
    """The object `dumps` wrote (or an older, lenient text), non-finite numbers in place."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    return decode(data)


def check_kind(data: Mapping[str, Any], kind: str, schema: int, what: str) -> None:
    """``ValueError`` unless ``data`` is a payload of ``kind`` at ``schema`` (data without a
    ``schema`` key, written before schemas were numbered, counts as ``schema``); ``what``
    names the kind for people ("an MDE result")."""
    if data.get("kind") != kind:
        raise ValueError(f"not {what} (kind {data.get('kind')!r})")
    if data.get("schema", schema) != schema:
        raise ValueError(f"unsupported schema {data.get('schema')!r} of {what}; this ranklens "
                         f"reads schema {schema}")


def rebuild(cls: type[T], data: Any) -> T:
    """``cls`` (a dataclass) rebuilt from its `plain` form ``data``: nested dataclasses, tuples,
    optional values and mappings from the field types; a float stored as null (NaN, or an
    infinity written before this codec named it) comes back as NaN. Fields the data lacks take
    the dataclass's default; keys it does not know (written by a newer version) are left out; a
    field without a default, or data of the wrong shape, is a ``ValueError`` naming the field.
    A type with a registered `Form` of its own is read by its ``from_plain``. It validates
    shapes, not meaning."""
    value: T = _build(cls, data, cls.__name__)
    return value


def non_finite_words(data: Mapping[str, Any]) -> list[str]:
    """One sentence per non-finite number in ``data`` (a plain mapping): where it is and what
    it is, e.g. "comparisons/0/overall/effect_size is infinite (written as null)"."""
    found: dict[str, str] = {}
    _nulled(plain(data), "", found)
    return [f"{pointer.lstrip('/')} is {word} (written as null)" for pointer, word in found.items()]


def _plain_dataclass(value: Any) -> dict[str, Any]:
    form = _FORMS.get(type(value), Form())
    if form.to_plain is not None:
        return {str(key): plain(item) for key, item in form.to_plain(value).items()}
    fields = {f.name: f for f in dataclasses.fields(value)}
    names = [*form.order, *(name for name in fields if name not in form.order)]
    body = {}
    for name in names:
        item = getattr(value, name)
        if name in form.omit_default and _is_default(fields[name], item):
            continue
        body[name] = plain(item)
    return body


def _is_default(field: dataclasses.Field[Any], value: Any) -> bool:
    if field.default is not dataclasses.MISSING:
        return bool(value == field.default)
    if field.default_factory is not dataclasses.MISSING:
        return bool(value == field.default_factory())
    return False


def _nulled(value: Any, pointer: str, found: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        found[pointer] = _NAN_WORD if math.isnan(value) else _WORDS[value]
        return None
    if isinstance(value, dict):
        return {key: item if _kept(item) else _nulled(item, f"{pointer}/{_escape(key)}", found)
                for key, item in value.items()}
    if isinstance(value, list):
        return [item if _kept(item) else _nulled(item, f"{pointer}/{i}", found)
                for i, item in enumerate(value)]
    return value


def _kept(item: Any) -> bool:
    """Whether `_nulled` keeps ``item`` as it is (a finite number, a word, a flag, None):
    asked first, so that the pointer of a value is written only where it may be needed."""
    kind = type(item)
    return (kind is float and math.isfinite(item)) or kind in _WORDLIKE


_WORDLIKE = frozenset({str, int, bool, type(None)})


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _put(body: dict[str, Any], pointer: str, number: float) -> dict[str, Any]:
    tokens = [_unescape(t) for t in pointer.split("/")[1:]]
    if not tokens:
        raise ValueError("non_finite: the empty pointer names the whole object, not a number")
    node: Any = body
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node.get(token)
        if node is None:
            raise ValueError(f"non_finite: {pointer} names no value in this object")
    last = tokens[-1]
    key: Any = int(last) if isinstance(node, list) else last
    try:
        current = node[key]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"non_finite: {pointer} names no value in this object") from None
    if current is not None:
        raise ValueError(f"non_finite: {pointer} holds {current!r}, not null")
    node[key] = number
    return body


# ---- rebuild: dataclasses from their plain form ------------------------------------------

def _build(kind: Any, data: Any, where: str) -> Any:
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _dataclass(kind, data, where)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if data is None and float in options:
            return math.nan
        errors = []
        for option in options:
            try:
                return _build(option, data, where)
            except ValueError as error:
                errors.append(str(error))
        raise ValueError(errors[0] if errors else f"{where}: no type fits {data!r}")
    if origin is tuple:
        if not isinstance(data, list):
            raise ValueError(f"{where}: expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if args and len(args) != len(data):
            raise ValueError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(_build(arg, item, f"{where}[{i}]")
                     for i, (arg, item) in enumerate(zip(args or [Any] * len(data), data,
                                                         strict=True)))
    if origin in (dict, Mapping, typing.Mapping) or kind in (dict, Mapping):
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
        value_type = args[1] if len(args) == 2 else Any
        if value_type is float:  # per-query values: the bulk of a report, read in one pass
            return _floats(data, where)
        return {key: _build(value_type, item, f"{where}.{key}") for key, item in data.items()}
    if kind is float:
        if data is None:
            return math.nan
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{where}: expected an integer, got {data!r}")
        return data
    if kind is str or kind is bool:
        if not isinstance(data, kind):
            raise ValueError(f"{where}: expected {kind.__name__}, got {data!r}")
        return data
    return data  # Any, Literal, aliases this module does not know: as stored


def _floats(data: dict[str, Any], where: str) -> dict[str, float]:
    out = {}
    for key, item in data.items():
        if type(item) is float:
            out[key] = item
        else:
            out[key] = _build(float, item, f"{where}.{key}")
    return out


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)  # evaluates the annotations: once per class


def _dataclass(kind: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    form = _FORMS.get(kind)
    if form is not None and form.from_plain is not None:
        try:
            return form.from_plain(data)
        except (KeyError, TypeError) as error:
            raise ValueError(f"{where}: {error!r} in {kind.__name__}'s form") from None
    hints = _hints(kind)
    values = {}
    for field in dataclasses.fields(kind):
        if not field.init:
            continue
        if field.name in data:
            values[field.name] = _build(hints[field.name], data[field.name],
                                        f"{where}.{field.name}")
        elif (field.default is dataclasses.MISSING
              and field.default_factory is dataclasses.MISSING):
            raise ValueError(f"{where}: {field.name} is missing")
    return kind(**values)
