"""The interface every report store offers, so a server database can replace SQLite."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol, runtime_checkable

from ranklens.store.snapshot import Snapshot
from ranklens.store.tokens import ReportToken


@dataclass(frozen=True)
class StoreUsage:
    """What a store holds now.

    ``input_bytes`` counts every report's inputs as given (before dedup and compression);
    ``unique_input_bytes`` counts each distinct input once; ``stored_bytes`` is what the
    size limit applies to (compressed unique inputs plus parameters).
    """

    reports: int
    blobs: int
    input_bytes: int
    unique_input_bytes: int
    stored_bytes: int
    max_store_bytes: int
    max_report_bytes: int


@runtime_checkable
class ReportStore(Protocol):
    """Immutable report snapshots behind unguessable tokens.

    ``get`` raises :class:`~ranklens.store.errors.ReportNotFound` for a malformed, unknown,
    expired or deleted token, always with the same message; ``delete`` does so only when there
    is nothing to delete (it removes an expired report that was not purged yet). Tokens are
    validated with :func:`~ranklens.store.tokens.parse_token` and looked up by
    :func:`~ranklens.store.tokens.token_digest`, never by the token text itself.
    """

    def put(
        self,
        params: Mapping[str, Any],
        inputs: Mapping[str, bytes],
        *,
        ttl: timedelta | None = None,
        shared_by: str | None = None,
    ) -> ReportToken:
        """Store a new report atomically and return its token (``StoreLimitError`` if too big).

        ``ttl`` None means the store's default expiry (which may be never). ``shared_by`` is who
        shares it (given back as ``Snapshot.shared_by``; None: nobody signed in).
        """
        ...

    def get(self, token: str) -> Snapshot:
        """The report behind ``token``."""
        ...

    def delete(self, token: str) -> None:
        """Remove the report behind ``token`` and the inputs no other report uses."""
        ...

    def purge_expired(self) -> int:
        """Remove expired reports and unused inputs; answers how many reports went."""
        ...

    def usage(self) -> StoreUsage:
        """Counts and sizes of what is stored now."""
        ...

    def integrity_check(self) -> str:
        """``"ok"`` when the stored data are consistent, else a description of what is not."""
        ...
