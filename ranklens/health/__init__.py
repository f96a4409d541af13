"""Health checks before any verdict: inputs that are valid files but cannot mean what the user
thinks (ids that match no judgement, self-retrieval, a run compared with itself, judgements
with nothing relevant or of another collection).

- ``result``: `HealthCheck`, `HealthReport` (what a Report carries under ``health``) and
  `HealthCheckFailed` (``strict=True``)
- one module per check: ``documents``, ``self_retrieval``, ``identical``, ``judgements``
- ``checks``: the facts the checks need of a run (`run_facts`) and the checks gathered into a
  `HealthReport` (`with_withheld`). Asking them about one comparison is the compare
  pipeline's step (``ranklens.compare.health_step``): this package imports no feature
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
