"""Size limits of a report store and their defaults.

Per report, the limit is on the *uncompressed* inputs plus parameters, the size users know
from their files: 600 MB fits two 250 MB runs (a deep run over a large query set) with 100 MB
left for qrels and segment maps. Store-wide, the limit is on the *stored* (compressed,
deduplicated) bytes: 5 GB holds about 25 such maximal reports at the ~3x zlib measured on
TREC-like text, or thousands of typical few-MB ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranklens.store.errors import StoreLimitError

DEFAULT_MAX_REPORT_BYTES = 600_000_000
DEFAULT_MAX_STORE_BYTES = 5_000_000_000


@dataclass(frozen=True)
class StoreLimits:
    """Sizes a store refuses to exceed, in bytes."""

    max_report_bytes: int = DEFAULT_MAX_REPORT_BYTES
    max_store_bytes: int = DEFAULT_MAX_STORE_BYTES

    def __post_init__(self) -> None:
        if self.max_report_bytes <= 0 or self.max_store_bytes <= 0:
            raise ValueError("size limits must be positive")

    def check_report(self, report_bytes: int) -> None:
        """Raise :class:`StoreLimitError` if one report of ``report_bytes`` is too big."""
        if report_bytes > self.max_report_bytes:
            raise StoreLimitError(
                "max_report_bytes", self.max_report_bytes, report_bytes,
                "this report (inputs uncompressed plus parameters)",
            )

    def check_store(self, stored_bytes_after: int) -> None:
        """Raise :class:`StoreLimitError` if the store would hold more than allowed."""
        if stored_bytes_after > self.max_store_bytes:
            raise StoreLimitError(
                "max_store_bytes", self.max_store_bytes, stored_bytes_after,
                "the store with this report (compressed)",
            )
