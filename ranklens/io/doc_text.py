"""The layout of a documents file's records, and one record parsed from its line.

Answers "which format is this collection, which column or field is the id, the title, the
text" from its first lines, and "what does this one line say". The bulk pass that indexes
every record is ``documents``; this module never reads more than one line at a time.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from dataclasses import dataclass

import pyarrow as pa

from ranklens.io.columns import resolve
from ranklens.io.detect import BOM, tsv_not_json
from ranklens.io.errors import InputError
from ranklens.io.text_columns import DOCUMENT_ALIASES, is_text_header

# headerless TSV: fields -> roles (MS MARCO passages, id-title-text, MS MARCO documents)
_TSV_LAYOUTS = {2: ("doc_id", "text"), 3: ("doc_id", "title", "text"),
                4: ("doc_id", "url", "title", "text")}
_ROLES = ("doc_id", "title", "text", "url")


@dataclass(frozen=True)
class Document:
    """One document's id, title ("" when the collection has none), text and url."""

    id: str
    title: str
    text: str
    url: str = ""


@dataclass(frozen=True)
class DocumentLayout:
    """How records are laid out: format, role -> column (or "field k"), the header names of
    a delimited file, and what the summary should say about it."""

    format: str
    columns: dict[str, str]
    header: tuple[str, ...] | None
    notes: tuple[str, ...]
    delimiter: str | None = None
    quote: str | None = None
    header_line: int = 0  # lines to skip at the top (a header line and blank lines before it)
    id_type: pa.DataType | None = None  # JSON type of the id (integers in some corpora)

    def position(self, role: str) -> int | None:
        """Index of ``role``'s field in a delimited record (None when absent)."""
        if self.header is None or role not in self.columns:
            return None
        return self.header.index(self.columns[role])


def detect_layout(name: str, head: bytes, format: str, columns: Mapping[str, str] | None
                  ) -> DocumentLayout:
    """The layout from the first data line of ``head`` (the first block of the content)."""
    if b"\x00" in head[:4096]:
        raise InputError(name, "is binary data, not a documents file",
                         hint="export it as JSONL, TSV, CSV or Parquet")
    text = head.removeprefix(BOM).decode("utf-8", errors="replace")
    lines = text.splitlines()
    index = next((k for k, line in enumerate(lines) if line.strip()), None)
    if index is None:
        raise InputError(name, "has no data: every line is blank",
                         hint="choose a file with data in it")
    first = lines[index]
    if format == "jsonl" or (format == "auto" and first.lstrip().startswith("{")
                             and not tsv_not_json(first)):
        return _jsonl_layout(name, first, index + 1, columns)
    if first.lstrip().startswith("[") and not tsv_not_json(first):
        raise InputError(name, "is a JSON array, not JSON Lines",
                         hint="write one JSON object per line (JSONL)")
    if format == "tsv" or (format == "auto" and "\t" in first):
        return _delimited_layout(name, first.split("\t"), "\t", None, index, columns)
    if format == "csv" or (format == "auto" and "," in first):
        fields = next(csv.reader([first]))
        return _delimited_layout(name, fields, ",", '"', index, columns)
    raise InputError(name, f"is not a recognised documents format (first line: "
                     f"{first[:60]!r})", line=index + 1,
                     hint="write 'id<TAB>text' per line (MS MARCO), BEIR corpus.jsonl, or a "
                          "CSV/TSV with a header naming the id and text columns")


def _jsonl_layout(name: str, first: str, line: int, columns: Mapping[str, str] | None
                  ) -> DocumentLayout:
    try:
        record = json.loads(first)
    except json.JSONDecodeError as bad:
        raise InputError(name, f"is not valid JSON ({bad.msg})", line=line,
                         hint="write one JSON object per line") from None
    if not isinstance(record, dict):
        raise InputError(name, f"holds a JSON {type(record).__name__}, not an object",
                         line=line, hint="write one JSON object per line")
    names = resolve_roles(name, list(record), columns)
    value = record.get(names["doc_id"])
    id_type = pa.int64() if isinstance(value, int) and not isinstance(value, bool) else None
    return DocumentLayout("jsonl", names, None, (), id_type=id_type)


def _delimited_layout(name: str, fields: list[str], delimiter: str, quote: str | None,
                      index: int, columns: Mapping[str, str] | None) -> DocumentLayout:
    kind = "tsv" if delimiter == "\t" else "csv"
    names = [field.strip() for field in fields]
    if columns or is_text_header(names, DOCUMENT_ALIASES, "doc_id"):
        roles = resolve_roles(name, names, columns)
        return DocumentLayout(kind, roles, tuple(names), (), delimiter, quote, index + 1)
    if kind == "csv":
        raise InputError(name, f"has no header row (first line: {','.join(fields)[:60]!r})",
                         line=index + 1, hint="add a header such as 'doc_id,title,text'")
    if len(fields) not in _TSV_LAYOUTS:
        raise InputError(name, f"has {len(fields)} tab-separated fields and no header",
                         line=index + 1,
                         hint="write 'id<TAB>text' (MS MARCO passages), 'id<TAB>title<TAB>text' "
                              "or 'id<TAB>url<TAB>title<TAB>body' (MS MARCO documents), or add "
                              "a header naming the columns")
    layout = _TSV_LAYOUTS[len(fields)]
    header = tuple(f"field {k}" for k in range(1, len(fields) + 1))
    note = f"no header: read as {'<TAB>'.join(layout)}"
    return DocumentLayout("tsv", dict(zip(layout, header, strict=True)), header, (note,),
                          delimiter, None, 0)


def resolve_roles(name: str, available: list[str], columns: Mapping[str, str] | None
             ) -> dict[str, str]:
    roles = resolve(name, available, ("doc_id",), optional=("title", "text", "url"),
                    explicit=columns, what="documents file", aliases=DOCUMENT_ALIASES)
    if "title" not in roles and "text" not in roles:
        raise InputError(name, f"has no title or text column (its columns are {available})",
                         hint="name the text column 'text' (or title, body, contents), or map "
                              "it with columns={'text': ...}")
    return roles


def parse_record(layout: DocumentLayout, line: bytes) -> Document | None:
    """The document one record line holds (None when the line is not a record)."""
    text = line.removeprefix(BOM).decode("utf-8", errors="replace").rstrip("\r")
    if layout.format == "jsonl":
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            return None
        if not isinstance(record, dict):
            return None
        values = [record.get(layout.columns[role]) if role in layout.columns else None
                  for role in _ROLES]
    else:
        fields = text.split(layout.delimiter) if layout.quote is None else \
            next(csv.reader([text], delimiter=layout.delimiter or ","), [])
        positions = [layout.position(role) for role in _ROLES]
        values = [fields[k] if k is not None and k < len(fields) else None for k in positions]
    doc_id, title, body, url = (_clean(value) for value in values)
    return Document(doc_id, title, body, url)


def _clean(value: object) -> str:
    if value is None:
        return ""
    return " ".join(str(value).split())


def locate_bad_line(name: str, layout: DocumentLayout, block: bytes, lines_before: int,
                    skip: int, error: Exception | None) -> InputError:
    """The error for the first record line of ``block`` that the bulk parser refused."""
    for k, raw in enumerate(block.split(b"\n")):
        line = raw.rstrip(b"\r")
        if k < skip or not line.strip():
            continue
        number = lines_before + k + 1
        problem = _line_problem(layout, line)
        if problem:
            return InputError(name, problem[0], line=number, hint=problem[1])
    detail = f" ({error})" if error else ""
    return InputError(name, f"could not be read as {layout.format.upper()}{detail}",
                      line=lines_before + 1 if not lines_before else None,
                      hint="write one record per line (no line breaks inside values)")


def _line_problem(layout: DocumentLayout, line: bytes) -> tuple[str, str] | None:
    text = line.removeprefix(BOM).decode("utf-8", errors="replace")
    if layout.format == "jsonl":
        try:
            record = json.loads(text)
        except json.JSONDecodeError as bad:
            return f"is not valid JSON ({bad.msg})", "write one JSON object per line"
        if not isinstance(record, dict):
            return (f"holds a JSON {type(record).__name__}, not an object",
                    "write one JSON object per line")
        value = record.get(layout.columns["doc_id"])
        if value is None:
            return "document id is missing", "every record needs a document id"
        expected_int = layout.id_type is not None
        if isinstance(value, int) != expected_int or isinstance(value, bool):
            kind = "a number" if isinstance(value, (int, float)) else type(value).__name__
            return (f"document id {value!r} is {kind} here but "
                    f"{'a number' if expected_int else 'text'} on the first line",
                    "give the id one type throughout (quote ids: \"007\")")
        return None
    assert layout.header is not None
    if layout.quote is not None and text.count(layout.quote) % 2:
        return ("a quoted value spans lines", "write one record per line: replace line "
                "breaks inside values by spaces (or use JSONL)")
    fields = text.split(layout.delimiter) if layout.quote is None else \
        next(csv.reader([text], delimiter=layout.delimiter or ","), [])
    if len(fields) != len(layout.header):
        return (f"has {len(fields)} field(s), expected {len(layout.header)}",
                "every line needs one value per column (a tab inside a text must be replaced "
                "by a space)" if layout.delimiter == "\t" else
                "every line needs one value per column (quote values that contain commas)")
    return None
