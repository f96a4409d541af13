"""Random access to the bytes of a (possibly gzip-compressed) documents file.

Answers "give me the decompressed bytes from offset a to b" and "stream the whole content
once, in chunks", without holding the content in memory:

- a plain file: ``seek`` and ``read``;
- bytes in memory (an upload): slices;
- a gzip file: gzip has no random access, so the one streaming pass keeps a *checkpoint*
  every ``CHECKPOINT_SPACING`` decompressed bytes: the compressed offset and a copy of the
  zlib decompressor at that point (its 32 KiB window and state, about 45 KB). Reading at an
  offset resumes from the checkpoint before it and decompresses at most the spacing (4 MiB,
  a few tens of ms). The checkpoints live in memory (zlib state cannot be saved to disk), so
  a new process pays the streaming pass again; a 3 GB collection holds about 750 of them
  (about 35 MB). Multi-member gzip files (``cat a.gz b.gz``) are read whole.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ranklens.io.errors import InputError

CHUNK = 1 << 25  # 32 MiB of content per streamed chunk
CHECKPOINT_SPACING = 1 << 22  # 4 MiB of decompressed content between gzip checkpoints
_COMPRESSED_READ = 1 << 20
MAX_OUTPUT = 1 << 20  # decompressed bytes per zlib call: the checkpoints' granularity


class ByteSource:
    """Decompressed content: streamed once (``chunks``), then read at offsets (``read``)."""

    name: str
    compressed = False

    def chunks(self) -> Iterator[tuple[int, bytes]]:
        """(offset, bytes) of consecutive pieces of the whole content."""
        raise NotImplementedError

    def read(self, start: int, stop: int) -> bytes:
        """The content from ``start`` to ``stop`` (shorter at the end of the content)."""
        raise NotImplementedError


@dataclass
class PlainFile(ByteSource):
    path: str
    name: str

    def chunks(self) -> Iterator[tuple[int, bytes]]:
        with open(self.path, "rb") as handle:
            offset = 0
            while piece := handle.read(CHUNK):
                yield offset, piece
                offset += len(piece)

    def read(self, start: int, stop: int) -> bytes:
        with open(self.path, "rb") as handle:
            handle.seek(start)
            return handle.read(max(stop - start, 0))


@dataclass
class MemoryBytes(ByteSource):
    data: memoryview
    name: str

    def chunks(self) -> Iterator[tuple[int, bytes]]:
        for offset in range(0, len(self.data), CHUNK):
            yield offset, bytes(self.data[offset:offset + CHUNK])

    def read(self, start: int, stop: int) -> bytes:
        return bytes(self.data[start:stop])


@dataclass(frozen=True)
class _Checkpoint:
    compressed: int  # offset in the file of the next compressed byte to feed
    decompressed: int  # offset in the content of the next byte the decompressor gives
    state: Any  # a zlib decompressor, copied (never used itself: restore copies it again)


@dataclass
class GzipFile(ByteSource):
    path: str
    name: str
    checkpoints: list[_Checkpoint] = field(default_factory=list)
    compressed = True

    def chunks(self) -> Iterator[tuple[int, bytes]]:
        """Decompress the whole file once, keeping a checkpoint every spacing bytes."""
        self.checkpoints = []
        pending: list[bytes] = []
        pending_size = 0
        for offset, piece, at_checkpoint in self._inflate(0, zlib.decompressobj(wbits=31), 0,
                                                          record=True):
            if at_checkpoint is not None:
                self.checkpoints.append(at_checkpoint)
            if piece:
                pending.append(piece)
                pending_size += len(piece)
            if pending_size >= CHUNK:
                joined = b"".join(pending)
                yield offset + len(piece) - len(joined), joined
                pending, pending_size = [], 0
        if pending:
            joined = b"".join(pending)
            yield self._end - len(joined), joined

    def read(self, start: int, stop: int) -> bytes:
        if not self.checkpoints:
            raise RuntimeError("GzipFile.read before the streaming pass")
        index = max(k for k, cp in enumerate(self.checkpoints) if cp.decompressed <= start)
        checkpoint = self.checkpoints[index]
        out: list[bytes] = []
        for offset, piece, _ in self._inflate(checkpoint.compressed, checkpoint.state.copy(),
                                              checkpoint.decompressed, record=False):
            end = offset + len(piece)
            if end > start:
                out.append(piece[max(start - offset, 0):stop - offset])
            if end >= stop:
                break
        return b"".join(out)

    def _inflate(self, position: int, decompressor: Any, produced: int, *, record: bool
                 ) -> Iterator[tuple[int, bytes, _Checkpoint | None]]:
        """(content offset, piece, checkpoint taken before this piece or None)."""
        last = produced if not record else -CHECKPOINT_SPACING
        started = produced > 0  # has the current member been fed anything?
        try:
            with open(self.path, "rb") as handle:
                handle.seek(position)
                while True:
                    raw = handle.read(_COMPRESSED_READ)
                    if not raw:
                        if record and started:
                            raise InputError(self.name, "the gzip stream is truncated (it "
                                             "ends before its end marker)",
                                             hint="the file was cut short: copy it again")
                        break
                    position += len(raw)
                    while True:
                        if record and produced - last >= CHECKPOINT_SPACING:
                            last = produced
                            yield produced, b"", _Checkpoint(position - len(raw), produced,
                                                             decompressor.copy())
                        started = started or bool(raw)
                        piece = decompressor.decompress(raw, MAX_OUTPUT)
                        raw = decompressor.unconsumed_tail
                        if decompressor.eof:
                            rest = decompressor.unused_data.lstrip(b"\x00")
                            decompressor = zlib.decompressobj(wbits=31)
                            raw, started = rest, False
                        if piece:
                            yield produced, piece, None
                            produced += len(piece)
                        if not raw and len(piece) < MAX_OUTPUT:
                            break  # input used up and no output pending
        except zlib.error as error:
            raise InputError(self.name, f"is not valid gzip data ({error})",
                             hint="check that the file was compressed with gzip and copied "
                                  "whole") from None
        self._end = produced
