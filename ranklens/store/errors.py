"""Exceptions raised by report stores."""

from __future__ import annotations

from dataclasses import dataclass

from ranklens.errors import RanklensError
from ranklens.store.redact import redact

NOT_FOUND_MESSAGE = "report not found"


class StoreError(RanklensError):
    """A report store could not do what was asked (base of the store's exceptions)."""


@dataclass(eq=False, repr=False)
class StoreUnavailable(StoreError):
    """The store cannot be reached or used right now (server down, refused, went away).

    The message starts with "share links are unavailable: " and gives the reason without
    credentials; the operation can be tried again later. Nothing was stored or changed.
    """

    PREFIX = "share links are unavailable: "

    reason: str

    def __post_init__(self) -> None:
        self.reason = redact(self.reason)  # a driver's message may quote a password

    def __str__(self) -> str:
        return self.PREFIX + self.reason


class ReportNotFound(StoreError, LookupError):
    """No readable report behind a token: malformed, unknown, expired or deleted.

    The message is always the same, so it tells nobody whether a similar token exists.
    """

    def __init__(self) -> None:
        super().__init__(NOT_FOUND_MESSAGE)


def format_size(n_bytes: int) -> str:
    """``n_bytes`` for people, exact count included: ``"612.4 MB (612,400,000 bytes)"``.

    Decimal units, as file browsers show them.
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:,.1f} {unit} ({n_bytes:,} bytes)"
    return f"{n_bytes:,} bytes"


@dataclass(eq=False, repr=False)
class StoreLimitError(StoreError):
    """A report was refused because it would exceed a size limit; the message names the limit."""

    limit_name: str
    limit_bytes: int
    size_bytes: int
    what: str

    def __str__(self) -> str:
        return (f"{self.what} is {format_size(self.size_bytes)}, over the {self.limit_name} "
                f"limit of {format_size(self.limit_bytes)}")
