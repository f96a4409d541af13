"""A stored report's rows back as a `Snapshot`: what every backend's ``get`` does after its query.

Both stores keep the same columns (parameters as canonical JSON, times as UNIX seconds, who
shared it, each input as a compressed blob under its content digest), so turning them back into
a snapshot, and refusing an input whose bytes no longer match their digest, is written once.
It reads no database: the caller has fetched the rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from ranklens.store import codec
from ranklens.store.errors import StoreError
from ranklens.store.snapshot import Snapshot, content_digest, decode_params, frozen_inputs
from ranklens.store.tokens import ReportToken

InputRow = tuple[str, str, str, bytes | bytearray | memoryview]
"""(role, digest, codec name, stored bytes) of one input, as both stores select it."""


def snapshot_from_rows(token: ReportToken, params_json: str, ranklens_version: str,
                       created_at: float, expires_at: float | None,
                       inputs: Iterable[InputRow], shared_by: str | None = None) -> Snapshot:
    """The snapshot these stored values describe, each input decompressed and checked.

    Raises `StoreError` naming the role when an input cannot be decompressed or its bytes do
    not match their digest (the store is damaged); it does not check expiry or the token,
    which the caller's query did.
    """
    data_by_role: dict[str, bytes] = {}
    for role, digest, codec_name, stored in inputs:
        try:
            data = codec.decompress(codec_name, bytes(stored))
        except ValueError as exc:  # an unknown codec, or bytes that are not its stream
            raise StoreError(f"stored input {role!r} is damaged ({exc})") from exc
        if content_digest(data) != digest:
            raise StoreError(f"stored input {role!r} is damaged (digest mismatch)")
        data_by_role[role] = data
    return Snapshot(
        token=token,
        params=decode_params(params_json),
        inputs=frozen_inputs(data_by_role),
        ranklens_version=ranklens_version,
        created_at=datetime.fromtimestamp(created_at, UTC),
        expires_at=None if expires_at is None else datetime.fromtimestamp(expires_at, UTC),
        shared_by=shared_by,
    )
