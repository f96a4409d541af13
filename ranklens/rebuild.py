"""Frozen dataclasses back from their plain-JSON form (``ranklens.html.jsonable``).

``from_jsonable(cls, data)`` answers "the ``cls`` whose ``jsonable`` form is ``data``": nested
dataclasses, tuples, optional values and mappings are rebuilt from the field types; a float that
``jsonable`` wrote as null (NaN, infinity) comes back as NaN. A share link stores the MDE and
PPI pages' results this way and shows them again without recomputing. Fields the data lacks
take the dataclass's default; a field without a default, or data of the wrong shape, is a
``ValueError`` naming the field (a result stored by another version the caller cannot show).
It validates shapes, not meaning: the numbers are taken as stored.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def from_jsonable(cls: type[T], data: Any) -> T:
    """``cls`` rebuilt from ``data`` (see the module docstring); ``ValueError`` if it does not
    fit."""
    value: T = _build(cls, data, cls.__name__)
    return value


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


def _dataclass(kind: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    hints = typing.get_type_hints(kind)
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
