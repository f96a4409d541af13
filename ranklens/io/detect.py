"""Which format is this? Answered from the content (never the file name), with an override.

Looks at the first 64 KiB only. It does not parse the whole file and does not decide whether the
content is valid: the format's reader does that.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass

from ranklens.io.columns import KNOWN_NAMES, normalise
from ranklens.io.errors import InputError
from ranklens.io.source import Loaded

FORMATS = ("auto", "trec", "trec-run", "trec-qrels", "trec_eval", "msmarco", "csv", "tsv",
           "parquet", "jsonl", "json")
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
# one JSON object whose first value is an object: {"q1": {"d1": 1.5, ...}, ...} (ranx, BEIR);
# a first value that is an array is that shape gone wrong (a JSON Lines record holds scalars)
_NESTED_JSON = re.compile(r'\A\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*[{\[]')
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Sniff:
    """What the first lines say: format, field separator, header names, fields on line one.

    "Line one" is the first data line: blank lines and comment lines (first field starting with
    ``#``, as trec_eval 10 skips them) before it are not data. ``data_offset`` is the byte
    offset of that line (BOM included) and ``comments_before`` the comment lines before it.
    """

    format: str
    delimiter: str | None = None
    header: tuple[str, ...] | None = None
    fields: int = 0
    first_line: str = ""
    data_offset: int = 0
    comments_before: int = 0


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
    text = _decode_head(loaded)  # refuses text that is not UTF-8, naming the line
    if format == "json" or (format == "auto" and _NESTED_JSON.match(text)):
        return Sniff("json", first_line=text.lstrip()[:80])
    lines, offset, comments = _data_lines(loaded)
    if not lines and _long_first_line(loaded):
        raise InputError(loaded.name, "has a first line longer than 64 KiB, and it is not a "
                         "{query: {doc: value}} JSON object", hint="give one record per line "
                         "(TREC, CSV/TSV, JSONL), Parquet, or one JSON object "
                         "{query: {doc: score}} as ranx and BEIR write it")
    if not lines:
        what = "blank or a comment" if comments else "blank"
        if loaded.size <= len(loaded.head):
            raise InputError(loaded.name, f"has no data: every line is {what}",
                             hint="choose a file with data in it")
        raise InputError(loaded.name, f"has no data line in its first 64 KiB: every line there "
                         f"is {what}", hint="ranklens detects the format from the first data "
                         "line: strip the comments (grep -v '^#') or move them to the end")
    first = lines[0].strip()
    json_like = format == "auto" and first.startswith(("{", "[")) and not tsv_not_json(first)
    if format == "jsonl" or (json_like and first.startswith("{")):
        return Sniff("jsonl", first_line=first)
    if json_like:
        raise InputError(loaded.name, "is a JSON array, not JSON Lines",
                         hint="write one JSON object per line (JSONL), e.g. "
                              "pandas.DataFrame.to_json(path, orient='records', lines=True)")
    delimiter = _delimiter(lines[0], format)
    tokens = _split(lines[0], delimiter)
    header = _is_header(tokens, [_split(line, delimiter) for line in lines[1:3]], delimiter)
    if header and format == "auto" and delimiter == "\t" and \
            _trec_kind(ascii_fields(lines[0])) in ("trec-run", "trec-qrels"):
        header = False  # 'q1 Q0 d1 1 2.5<TAB>tag': a TREC line with mixed blanks, not a header
    if format in ("csv", "tsv") or (format == "auto" and header):
        names = tuple(token.strip().strip('"').strip() for token in tokens) if header else None
        kind = "tsv" if delimiter == "\t" else "csv"
        if format in ("csv", "tsv"):
            kind = format
        return Sniff(kind, delimiter, names, len(tokens), lines[0])
    tokens = ascii_fields(lines[0])
    if format == "auto" and delimiter == ",":
        return Sniff("csv", delimiter, None, len(_split(lines[0], delimiter)), lines[0])
    kind = format if format in ("trec-run", "trec-qrels", "trec_eval", "msmarco") else \
        _trec_kind(tokens)
    if kind == "msmarco":
        kind = "msmarco-run"
    return Sniff(kind, None, None, len(tokens), lines[0], offset, comments)


def tsv_not_json(first: str) -> bool:
    """Whether a first data line that starts with "{" or "[" is a TSV line whose first id
    starts with that character: it has a tab and is not one JSON value (a JSON object or array
    on one line parses; a TSV line of ids and text does not)."""
    if "\t" not in first:
        return False
    try:
        json.loads(first)
    except json.JSONDecodeError:
        return True
    return False


def ascii_fields(line: str) -> list[str]:
    """The fields of a TREC text line as trec_eval splits it: on runs of ASCII blanks only."""
    return _BLANKS.split(line.strip(_BLANK_CHARS)) if line.strip(_BLANK_CHARS) else []


def is_comment(line: str) -> bool:
    """A line whose first field starts with ``#`` (trec_eval 10 skips it)."""
    return line.lstrip(_BLANK_CHARS).startswith("#")


# the measures trec_eval prints (trec_eval -q output starts with one of these names)
_TREC_EVAL_MEASURE = re.compile(
    r"^(runid|num_q|num_ret|num_rel|num_rel_ret|num_nonrel_judged_ret|map|gm_map|gm_bpref|Rprec"
    r"|bpref|recip_rank|iprec_at_recall_[0-9.]+|P_[0-9]+|relstring|recall_[0-9]+|infAP"
    r"|Rprec_mult_[0-9.]+|utility|11pt_avg|binG|G|dcg|ideal_dcg|ndcg|ndcg_rel|Rndcg"
    r"|ndcg_cut_[0-9]+|map_cut_[0-9]+|relative_P_[0-9]+|success_[0-9]+|set_P|set_recall"
    r"|set_relative_P|set_map|set_F|unj_[0-9]+|Runj|yaap|rbp|rbp_resid)$")


def _trec_kind(tokens: list[str]) -> str:
    if len(tokens) >= 6 and is_number(tokens[4]):
        return "trec-run"
    if len(tokens) == 4 and is_number(tokens[3]):
        return "trec-qrels"
    if len(tokens) == 3 and _TREC_EVAL_MEASURE.match(tokens[0]):
        return "trec_eval"
    if len(tokens) == 3 and _is_rank(tokens[2]):
        return "msmarco-run"
    if len(tokens) == 3 and not is_number(tokens[0]) and _is_value(tokens[2]):
        return "trec_eval"
    if len(tokens) >= 6:
        return "trec-run"  # a run with a bad score: its reader says which line
    return "unknown"


def _is_rank(token: str) -> bool:
    return token.isascii() and token.isdigit() and int(token) >= 1


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


_BLANK_CHARS = " \t\x0b\x0c\r\n"
_BLANKS = re.compile(r"[ \t\x0b\x0c\r\n]+")


def _data_lines(loaded: Loaded) -> tuple[list[str], int, int]:
    """Up to 50 data lines of the head (as text, line breaks removed), the byte offset of the
    first one, and the number of comment lines before it."""
    head = loaded.head
    offset = len(BOM) if head.startswith(BOM) else 0
    raw = head[offset:].splitlines(keepends=True)
    if loaded.size > len(head) and raw:
        raw = raw[:-1]  # the last line of a cut head may be partial
    lines: list[str] = []
    comments = 0
    for piece in raw:
        line = piece.decode("utf-8", errors="replace").rstrip("\r\n")
        if lines:
            if line.strip(_BLANK_CHARS) and not is_comment(line):
                lines.append(line)
                if len(lines) == 50:
                    break
            continue
        if not line.strip(_BLANK_CHARS):
            offset += len(piece)
        elif is_comment(line):
            comments += 1
            offset += len(piece)
        else:
            lines.append(line)
    if not lines and loaded.size > len(head) and head:
        return [], offset, comments  # nothing but blank lines and comments in the head
    return lines, offset, comments


def _long_first_line(loaded: Loaded) -> bool:
    """The head was cut inside its first non-blank line: a line of over 64 KiB."""
    if loaded.size <= len(loaded.head):
        return False
    head = loaded.head.removeprefix(BOM)
    last = head.splitlines()[-1] if head.strip() else b""
    before = head[:len(head) - len(last)]
    return bool(last.strip()) and not last.lstrip().startswith(b"#") and \
        not any(line.strip() and not line.lstrip().startswith(b"#")
                for line in before.splitlines())


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
                           "iconv -f latin1 -t utf-8); trec_eval would read it, comparing ids "
                           "as raw bytes, so a Latin-1 id matches only the same bytes in the "
                           "other file")


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
