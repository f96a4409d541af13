"""A report checked and keyed before any store writes it: what every backend's ``put`` needs.

Both stores validate the same way and key inputs the same way, so this answers "is this report
acceptable, and under which digests do its inputs go" once, without touching a database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ranklens.store.limits import StoreLimits
from ranklens.store.snapshot import content_digest, encode_params, normalize_inputs


@dataclass(frozen=True)
class PreparedReport:
    """A report ready to write: canonical parameters and each distinct input by digest."""

    params_json: str
    params_size: int
    data_by_digest: Mapping[str, bytes]
    digest_by_role: Mapping[str, str]


def prepare_report(
    params: Mapping[str, Any], inputs: Mapping[str, bytes], limits: StoreLimits
) -> PreparedReport:
    """``params`` and ``inputs`` validated and keyed; raises before anything is stored.

    ``ValueError``/``TypeError`` for params that are not plain JSON or inputs that are not
    bytes under a valid role; ``StoreLimitError`` when the report alone is over the limit.
    """
    params_json = encode_params(params)
    blobs_by_role = normalize_inputs(inputs)
    params_size = len(params_json.encode("utf-8"))
    limits.check_report(params_size + sum(len(b) for b in blobs_by_role.values()))
    return PreparedReport(
        params_json=params_json,
        params_size=params_size,
        data_by_digest={content_digest(data): data for data in blobs_by_role.values()},
        digest_by_role={role: content_digest(data) for role, data in blobs_by_role.items()},
    )


def check_ttl(ttl: timedelta) -> None:
    """``ValueError`` unless ``ttl`` is positive."""
    if ttl <= timedelta(0):
        raise ValueError(f"ttl must be positive, got {ttl}")
