"""One input file as the user gave it: its role, display name, bytes and content digest.

The one input-file type of every face: the CLI builds it from a path, the pages from an upload
or the bundled demo, share links from a stored snapshot. The sha256 digest is computed at most
once per file (or handed in when already known, e.g. remembered per upload), and it is the key
of every cache. It does not parse anything: that is ``ranklens.io.read_*``.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ranklens.io.errors import InputError
from ranklens.io.limits import check_upload, expanded_size


def sha256_hex(data: bytes | memoryview) -> str:
    """The hex sha256 digest of ``data``: the identity of an input everywhere."""
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str | Path) -> str:
    """`sha256_hex` of the file at ``path``, read 16 MiB at a time (not held whole)."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(16 << 20):
            digest.update(chunk)
    return digest.hexdigest()


_EXPANDED: OrderedDict[tuple[str, int | None], int] = OrderedDict()
_CHECKED: OrderedDict[tuple[str, int | None], bool] = OrderedDict()
_EXPANDED_ENTRIES = 4096
_EXPANDED_LOCK = threading.Lock()


@dataclass(frozen=True)
class InputFile:
    """One input as the user gave it: its role, display name and raw bytes."""

    role: str
    name: str
    data: bytes = field(repr=False)

    @classmethod
    def from_path(cls, role: str, path: str | Path, name: str | None = None) -> InputFile:
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError(str(path), "file not found", hint="check the path") from None
        except IsADirectoryError:
            raise InputError(str(path), "is a folder, not a file",
                                hint="pick a file inside it") from None
        return cls(role, name or path.name, data)

    @classmethod
    def with_digest(cls, role: str, name: str, data: bytes, sha256: str) -> InputFile:
        """A file whose digest is known already (an upload hashed once): no second hash."""
        file = cls(role, name, data)
        file.__dict__["sha256"] = sha256  # seeds the cached_property below
        return file

    @functools.cached_property
    def sha256(self) -> str:
        """Hex sha256 of the bytes, computed once."""
        return sha256_hex(self.data)

    @property
    def size(self) -> int:
        return len(self.data)

    def expanded_size(self, max_bytes: int | None = None) -> int:
        """What the file weighs once read (``ranklens.io.limits.expanded_size``: gzip by what
        it decompresses to, counted up to past ``max_bytes``; Parquet from its footer),
        computed once per content and limit in this process (the pages build a new
        ``InputFile`` for every rerun; a gzip file is not decompressed again for each)."""
        if self.data[:2] != b"\x1f\x8b" and self.data[:4] != b"PAR1":
            return len(self.data)  # plain text: its size, nothing to compute
        key = (self.sha256, max_bytes)
        with _EXPANDED_LOCK:
            if key in _EXPANDED:
                _EXPANDED.move_to_end(key)
                return _EXPANDED[key]
        size = expanded_size(self.data, max_bytes)
        with _EXPANDED_LOCK:
            _EXPANDED[key] = size
            while len(_EXPANDED) > _EXPANDED_ENTRIES:
                _EXPANDED.popitem(last=False)
        return size

    def check_limits(self, max_bytes: int | None) -> None:
        """Raise the `InputError` of ``ranklens.io.limits.check_upload`` when the file is over
        ``max_bytes`` stored or decompressed, or holds more rows than that allows; checked
        once per content and limit in this process."""
        key = (self.sha256, max_bytes)
        with _EXPANDED_LOCK:
            if key in _CHECKED:
                return
        check_upload(self.name, self.data, max_bytes)
        with _EXPANDED_LOCK:
            _CHECKED[key] = True
            while len(_CHECKED) > _EXPANDED_ENTRIES:
                _CHECKED.popitem(last=False)

    @property
    def key(self) -> tuple[str, str, str]:
        """(role, name, sha256): what identifies this input in caches and reports."""
        return (self.role, self.name, self.sha256)
