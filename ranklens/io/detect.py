"""Which format is this? Answered from the content (never the file name), with an override.

Looks at the first 64 KiB only. It does not parse the whole file and does not decide whether the
content is valid: the format's reader does that.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from ranklens.io.columns import KNOWN_NAMES, normalise
from ranklens.io.errors import InputError
from ranklens.io.source import Loaded

FORMATS = ("auto", "trec", "trec-run", "trec-qrels", "trec_eval", "csv", "tsv", "parquet",
           "jsonl")
_BINARY_MAGIC = {
    b"PK\x03\x04": "a ZIP archive (an Excel .xlsx file is one)",
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"SQLite format 3": "an SQLite database",
    b"\xd0\xcf\x11\xe0": "an old Excel/Office document",
    b"\xfd7zXZ": "xz-compressed data",
    b"\x28\xb5\x2f\xfd": "zstd-compressed data",
}
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_INTEGER = re.compile(r"^[+-]?\d+$")
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Sniff:
    """What the first lines say: format, field separator, header names, fields on line one."""

    format: str
    delimiter: str | None = None
    header: tuple[str, ...] | None = None
    fields: int = 0
    first_line: str = ""


def is_number(token: str) -> bool:
    return bool(_NUMBER.match(token))


def is_integer(token: str) -> bool:
    return bool(_INTEGER.match(token))


def sniff(loaded: Loaded, format: str = "auto") -> Sniff:
    """Detect the format of ``loaded`` (or check the one forced by ``format``)."""
    if format not in FORMATS:
        raise InputError(loaded.name, f"unknown format {format!r}",
                         hint=f"use one of {', '.join(FORMATS)}")
    head = loaded.head
    if head.startswith(b"PAR1") or format == "parquet":
        return Sniff("parquet")
    if loaded.size == 0:
        raise InputError(loaded.name, "is empty (0 bytes)", hint="choose a file with data in it")
    _refuse_binary(loaded)
    text = _decode_head(loaded)
    lines = [line for line in text.splitlines() if line.strip()][:50]
    if not lines:
        raise InputError(loaded.name, "has no data: every line is blank",
                         hint="choose a file with data in it")
    first = lines[0].strip()
    if format == "jsonl" or (format == "auto" and first.startswith("{")):
        return Sniff("jsonl", first_line=first)
    if format == "auto" and first.startswith("["):
        raise InputError(loaded.name, "is a JSON array, not JSON Lines",
                         hint="write one JSON object per line (JSONL), e.g. "
                              "pandas.DataFrame.to_json(path, orient='records', lines=True)")
    delimiter = _delimiter(lines[0], format)
    tokens = _split(lines[0], delimiter)
    header = _is_header(tokens, [_split(line, delimiter) for line in lines[1:3]], delimiter)
    if format in ("csv", "tsv") or (format == "auto" and header):
        names = tuple(token.strip().strip('"').strip() for token in tokens) if header else None
        kind = "tsv" if delimiter == "\t" else "csv"
        if format in ("csv", "tsv"):
            kind = format
        return Sniff(kind, delimiter, names, len(tokens), lines[0])
    fields = len(lines[0].split())
    if format == "auto" and delimiter == ",":
        return Sniff("csv", delimiter, None, len(tokens), lines[0])
    if format in ("trec-run", "trec-qrels", "trec_eval"):
        return Sniff(format, None, None, fields, lines[0])
    return Sniff(_trec_kind(lines[0].split()), None, None, fields, lines[0])


def _trec_kind(tokens: list[str]) -> str:
    if len(tokens) >= 6 and is_number(tokens[4]):
        return "trec-run"
    if len(tokens) == 4 and is_number(tokens[3]):
        return "trec-qrels"
    if len(tokens) == 3 and not is_number(tokens[0]) and _is_value(tokens[2]):
        return "trec_eval"
    if len(tokens) >= 6:
        return "trec-run"  # a run with a bad score: its reader says which line
    return "unknown"


def _is_value(token: str) -> bool:
    return is_number(token) or token.lower() in ("nan", "inf", "-inf")


def _refuse_binary(loaded: Loaded) -> None:
    head = loaded.head
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(loaded.name, "is UTF-16 text", hint="save it as UTF-8")
    for magic, what in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise InputError(loaded.name, f"is {what}, not a text table or a Parquet file",
                             hint="export it as CSV, TSV, JSONL, Parquet or a TREC file")
    sample = head[:4096]
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 13))
    if b"\x00" in sample or controls > max(2, len(sample) // 100):
        raise InputError(loaded.name, "is binary data, not a text table or a Parquet file",
                         hint="export it as CSV, TSV, JSONL, Parquet or a TREC file")


def _decode_head(loaded: Loaded) -> str:
    head = loaded.head.removeprefix(BOM)
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        return decoder.decode(head, final=loaded.size <= len(loaded.head))
    except UnicodeDecodeError as error:
        raise non_utf8_error(loaded.name, head, error.start) from None


def non_utf8_error(name: str, data: bytes, offset: int) -> InputError:
    """The error for an invalid UTF-8 byte at ``offset`` of ``data`` (line counted from 1)."""
    line = data.count(b"\n", 0, offset) + 1
    return InputError(name, f"is not UTF-8 text (byte 0x{data[offset]:02X})", line=line,
                      hint="save the file as UTF-8 (in Excel: 'CSV UTF-8'; with iconv: "
                           "iconv -f latin1 -t utf-8)")


def _delimiter(line: str, format: str) -> str:
    if format == "tsv":
        return "\t"
    if format == "csv":
        return ","
    if "\t" in line:
        return "\t"
    if "," in line:
        return ","
    for candidate in (";", "|"):
        if candidate in line and any(normalise(t) in KNOWN_NAMES for t in line.split(candidate)):
            return candidate
    return " "


def _split(line: str, delimiter: str) -> list[str]:
    return line.split() if delimiter == " " else line.split(delimiter)


def _is_header(tokens: list[str], following: list[list[str]], delimiter: str) -> bool:
    numeric_here = any(is_number(token.strip().strip('"')) for token in tokens)
    if numeric_here:
        return False
    if any(normalise(token) in KNOWN_NAMES for token in tokens):
        return True
    if delimiter == " ":
        return False  # headerless whitespace text is a TREC file
    return any(is_number(token.strip()) for row in following for token in row)
