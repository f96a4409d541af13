"""Checks shared by the pages' settings types when they read their plain-JSON form back.

``CompareSettings``, ``PlanSettings`` and ``PPISettings`` each have one ``to_dict`` and one
``from_dict``; this module holds what their ``from_dict`` have in common: refusing settings
this version does not know (a newer ranklens wrote them), naming settings that are missing,
and reading a value of the right kind with an error that says which setting and why. It knows
no page: each settings type says which keys it has and which defaults old links get.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any


def refuse_unknown(data: Mapping[str, Any], known: Collection[str], *, written_by: str) -> None:
    """Raise ``ValueError`` naming the keys of ``data`` outside ``known``.

    Applying only the known settings would give other numbers than the writer saw, so the
    message asks for the version that wrote them (``written_by``) or a newer one.
    """
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ValueError(
            f"these settings were written by ranklens {written_by} with settings this "
            f"version does not know ({', '.join(unknown)}); open them with that version "
            "or newer")


def require(data: Mapping[str, Any], keys: Iterable[str], *, page: str,
            written_by: str) -> None:
    """Raise ``ValueError`` naming the ``keys`` missing from ``data`` (damaged settings: no
    version of ranklens wrote the ``page``'s settings without them)."""
    missing = [key for key in keys if key not in data]
    if missing:
        raise ValueError(
            f"these {page} settings (written by ranklens {written_by}) lack "
            f"{', '.join(missing)}; they are damaged: share the page again")


def number(page: str, name: str, value: Any, *, above: float, below: float = math.inf,
           integer: bool = False) -> None:
    """Raise ``ValueError`` unless ``value`` is a number (an int if ``integer``) strictly
    between ``above`` and ``below``; bools and strings are not numbers here."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (integer and not isinstance(value, int)) or not above < value < below):
        kind = "a whole number" if integer else "a number"
        bound = "" if math.isinf(below) else f" and below {below:g}"
        raise ValueError(f"the {page} setting {name} must be {kind} above {above:g}{bound}, "
                         f"not {value!r}")


def one_of(page: str, name: str, value: Any, choices: Collection[str]) -> None:
    """Raise ``ValueError`` unless ``value`` is one of ``choices``."""
    if value not in choices:
        listed = ", ".join(repr(choice) for choice in choices)
        raise ValueError(f"the {page} setting {name} must be one of {listed}, not {value!r}")


def text(page: str, name: str, value: Any) -> None:
    """Raise ``ValueError`` unless ``value`` is a non-empty string."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"the {page} setting {name} must be a non-empty text, not {value!r}")
