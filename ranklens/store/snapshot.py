"""What a share link points to: parameters plus the exact input bytes, frozen at share time."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from ranklens.store.tokens import ReportToken

_ROLE_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")


@dataclass(frozen=True)
class Snapshot:
    """One stored report as read back from a store.

    ``params`` is a fresh copy of the JSON-able parameters given to ``put`` (mutating it
    changes nothing stored); ``inputs`` maps each role (``run_a``, ``qrels``, ...) to the exact
    bytes given; ``ranklens_version`` is the version that wrote the report. Times are UTC.
    ``shared_by`` is who stored it (the signed-in account's email, see ``ranklens.app.signin``),
    None when sign-in was off or the report predates store schema 2.
    """

    token: ReportToken
    params: dict[str, Any]
    inputs: Mapping[str, bytes] = field(repr=False)  # may be hundreds of MB
    ranklens_version: str
    created_at: datetime
    expires_at: datetime | None
    shared_by: str | None = None


def content_digest(data: bytes) -> str:
    """Hex sha256 of ``data``: the key under which its bytes are stored once."""
    return hashlib.sha256(data).hexdigest()


def encode_params(params: Mapping[str, Any]) -> str:
    """``params`` as canonical JSON; ``ValueError`` unless JSON gives back an equal dict.

    Tuples, non-string keys, NaN and infinities are refused rather than silently changed, so
    that a reopened report sees exactly the parameters that were shared.
    """
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping, not {type(params).__name__}")
    try:
        text = json.dumps(dict(params), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"params are not plain JSON: {exc}") from exc
    if json.loads(text) != dict(params):
        raise ValueError(
            "params do not survive a JSON round trip (tuples or non-string keys?); "
            "use lists and string keys"
        )
    return text


def decode_params(text: str) -> dict[str, Any]:
    """The parameters stored by :func:`encode_params`."""
    params = json.loads(text)
    if not isinstance(params, dict):
        raise ValueError("stored params are not a JSON object")
    return params


def normalize_inputs(inputs: Mapping[str, bytes | bytearray | memoryview]) -> dict[str, bytes]:
    """``inputs`` with every value as ``bytes``; ``ValueError``/``TypeError`` for bad ones.

    A role is 1-64 characters of lower-case letters, digits and ``_``, starting with a letter.
    """
    if not isinstance(inputs, Mapping):
        raise TypeError(f"inputs must be a mapping, not {type(inputs).__name__}")
    normalized: dict[str, bytes] = {}
    for role, data in inputs.items():
        if not isinstance(role, str) or _ROLE_PATTERN.fullmatch(role) is None:
            raise ValueError(f"bad input role {role!r}: use lower-case letters, digits and _")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"input {role!r} must be bytes, not {type(data).__name__}")
        normalized[role] = bytes(data)
    return normalized


def frozen_inputs(inputs: dict[str, bytes]) -> Mapping[str, bytes]:
    """A read-only view of ``inputs``, for :class:`Snapshot`."""
    return MappingProxyType(inputs)


MAX_SHARED_BY_CHARS = 320
"""Longer than any email address (RFC 3696: 320); a name past it is an error, not trimmed."""


def check_shared_by(shared_by: str | None) -> str | None:
    """``shared_by`` stripped, or None; ``ValueError`` for an empty, over-long or multi-line
    value (it is shown on the reopened page as written, so it must be one short line)."""
    if shared_by is None:
        return None
    if not isinstance(shared_by, str):
        raise TypeError(f"shared_by must be a string, not {type(shared_by).__name__}")
    value = shared_by.strip()
    if not value or len(value) > MAX_SHARED_BY_CHARS or any(ord(c) < 32 for c in value):
        raise ValueError(f"shared_by must be one line of 1-{MAX_SHARED_BY_CHARS} characters, "
                         f"got {shared_by!r:.80}")
    return value
