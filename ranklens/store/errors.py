"""Exceptions raised by report stores."""

from __future__ import annotations

from ranklens.errors import RanklensError

NOT_FOUND_MESSAGE = "report not found"


class StoreError(RanklensError):
    """A report store could not do what was asked (base of the store's exceptions)."""


class StoreUnavailable(StoreError):
    """The store cannot be reached or used right now (server down, refused, went away).

    The message starts with "share links are unavailable: " and gives the reason without
    credentials; the operation can be tried again later. Nothing was stored or changed.
    """

    PREFIX = "share links are unavailable: "

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(self.PREFIX + reason)

    def __reduce__(self) -> tuple[type[StoreUnavailable], tuple[str]]:
        return (type(self), (self.reason,))


class ReportNotFound(StoreError, LookupError):
    """No readable report behind a token: malformed, unknown, expired or deleted.

    The message is always the same, so it tells nobody whether a similar token exists.
    """

    def __init__(self, *_ignored: object) -> None:  # pickling passes the message back in
        super().__init__(NOT_FOUND_MESSAGE)


def format_size(n_bytes: int) -> str:
    """``n_bytes`` for people, exact count included: ``"612.4 MB (612,400,000 bytes)"``.

    Decimal units, as file browsers show them.
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:,.1f} {unit} ({n_bytes:,} bytes)"
    return f"{n_bytes:,} bytes"


class StoreLimitError(StoreError):
    """A report was refused because it would exceed a size limit; the message names the limit."""

    def __init__(self, limit_name: str, limit_bytes: int, size_bytes: int, what: str) -> None:
        self.limit_name = limit_name
        self.limit_bytes = limit_bytes
        self.size_bytes = size_bytes
        self.what = what
        super().__init__(
            f"{what} is {format_size(size_bytes)}, over the {limit_name} limit of "
            f"{format_size(limit_bytes)}"
        )

    def __reduce__(self) -> tuple[type[StoreLimitError], tuple[str, int, int, str]]:
        return (type(self), (self.limit_name, self.limit_bytes, self.size_bytes, self.what))
