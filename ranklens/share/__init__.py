"""Share links: a page frozen in a report store and given back, and what differs when it is
reopened by another ranklens version.

- ``ranklens.share.links``: ``share`` (which token reopens exactly this page) and ``reopen``
  (the page kind, every setting, the input files byte for byte and the numbers the author saw)
- ``ranklens.share.differences``: ``report_changes`` / ``payload_changes``, the one "what
  differs" engine of the three pages (a stored result against the same inputs recomputed);
  ``ranklens.share.health_differences`` words the health section's part of it

The link's names are also readable here, where they were when ``ranklens.share`` was one module
(``ranklens.share.share``, ``ranklens.share.reopen``), imported on first use. Nothing here
imports Streamlit; the app draws the links (``ranklens.app.share_widget``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranklens._lazy import lazy_names

if TYPE_CHECKING:
    from ranklens.share.differences import payload_changes, report_changes
    from ranklens.share.links import (
        PAGE_KINDS,
        Shared,
        SharedFormatError,
        StoredResultError,
        compare_report,
        compare_settings,
        reopen,
        share,
        stored_report,
    )

_LINKS = ("PAGE_KINDS", "Shared", "SharedFormatError", "StoredResultError", "compare_report",
          "compare_settings", "reopen", "share", "stored_report")
_LAZY = {**{name: ".links" for name in _LINKS},
         "payload_changes": ".differences", "report_changes": ".differences"}

__all__ = ["PAGE_KINDS", "Shared", "SharedFormatError", "StoredResultError", "compare_report",
           "compare_settings", "payload_changes", "reopen", "report_changes", "share",
           "stored_report"]

__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
