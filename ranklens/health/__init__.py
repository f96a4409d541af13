"""Health checks before any verdict: inputs that are valid files but cannot mean what the user
thinks (ids that match no judgement, self-retrieval, a run compared with itself, judgements
with nothing relevant or of another collection).

- ``result``: `HealthCheck`, `HealthReport` (what a Report carries under ``health``) and
  `HealthCheckFailed` (``strict=True``)
- one module per check: ``documents``, ``self_retrieval``, ``identical``, ``judgements``
- ``checks``: all of them for one comparison (`check_report`, `check_results`, `enforce`)
- ``words``: the section in words for the CLI, exports and the page

Bad files stay ``ranklens.io.InputError`` with file and line; nothing here refuses input
unless asked to be strict.
"""

from ranklens.health.result import (
    STATUSES,
    HealthCheck,
    HealthCheckFailed,
    HealthReport,
    Status,
)

__all__ = ["STATUSES", "HealthCheck", "HealthCheckFailed", "HealthReport", "Status"]
