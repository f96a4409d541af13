"""Share tokens: the random string in ``?report=<token>``.

A token is 32 URL-safe characters carrying 192 random bits from :mod:`secrets`. It is not a
storage key: stores keep only :func:`token_digest` of it, so neither a row id nor a content
digest ever appears in a URL, and a copy of the database does not reveal working links.
Looking up by that digest is also what keeps lookups constant-time where it matters: how long
an index search takes depends on the digest, which tells nothing about nearby tokens.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import NewType

from ranklens.store.errors import ReportNotFound

ReportToken = NewType("ReportToken", str)

TOKEN_BYTES = 24  # 192 bits; token_urlsafe encodes 3 bytes as 4 characters, without padding
TOKEN_LENGTH = 32
_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{32}")


def new_token() -> ReportToken:
    """A fresh random token (192 bits from ``secrets``)."""
    return ReportToken(secrets.token_urlsafe(TOKEN_BYTES))


def parse_token(candidate: object) -> ReportToken:
    """``candidate`` as a well-formed token, or :class:`ReportNotFound`.

    Answers only whether the text has the shape of a token, not whether a report exists.
    Anything else — wrong type, wrong length, characters outside the URL-safe alphabet,
    surrounding whitespace — raises the same ``ReportNotFound`` as an unknown token.
    """
    # The length test comes first so that a huge string costs nothing beyond len().
    if (
        not isinstance(candidate, str)
        or len(candidate) != TOKEN_LENGTH
        or not candidate.isascii()
        or _TOKEN_PATTERN.fullmatch(candidate) is None
    ):
        raise ReportNotFound()
    return ReportToken(candidate)


def token_digest(token: ReportToken) -> bytes:
    """The 32-byte key under which a store files the report of ``token``."""
    return hashlib.sha256(token.encode("ascii")).digest()
