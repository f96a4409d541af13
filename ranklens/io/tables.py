"""Tables with named columns: CSV/TSV (with a header), Parquet and JSON Lines.

Answers "which columns play the roles asked for, and what are their values" as arrow columns,
with a locator from row to line. It does not check values beyond parsing them (``build`` does).
When pyarrow refuses a text table, the file is scanned again with Python's csv/json modules to
name the line and the problem: that slow path only runs for files that are wrong.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.json as pajson
import pyarrow.parquet as pq

from ranklens.io import build
from ranklens.io.build import ID_TYPE
from ranklens.io.columns import id_alternatives, resolve
from ranklens.io.detect import BOM, Sniff, non_utf8_error
from ranklens.io.errors import InputError
from ranklens.io.limits import (
    PARQUET_ROW_BYTES,
    check_expanded,
    check_rows,
    parquet_rows_and_bytes,
)
from ranklens.io.locate import Locator, NonBlankLines, line_bounds
from ranklens.io.nested import read_nested_json
from ranklens.io.source import Loaded

ID_ROLES = ("query_id", "doc_id")
TEXT_ROLES = ("metric", "run", "text", "title", "url", "description")
MAX_COLUMNS = 1_000
"""Most columns a table may have: a ranking table has a few; a segment map a few dozen. A file
with 10^5 columns is refused before its columns are read, not parsed into 10^5 segment maps."""
_SEPARATOR_NAMES = {",": "commas", "\t": "tabs", ";": "semicolons", "|": "pipes",
                    " ": "spaces"}


@dataclass
class Table:
    """The columns found for each role, plus any other columns asked for (as text)."""

    columns: dict[str, pa.ChunkedArray]
    names: dict[str, str]
    other: dict[str, pa.ChunkedArray]
    all_names: list[str]
    locate: Locator
    rows: int
    notes: list[str] = field(default_factory=list)
    # role -> {other column that could hold that id: its values} (see `id_alternatives`)
    alternatives: dict[str, dict[str, pa.ChunkedArray]] = field(default_factory=dict)


def read_table(
    loaded: Loaded,
    sniff: Sniff,
    *,
    roles: Sequence[str],
    optional: Sequence[str] = (),
    explicit: Mapping[str, str] | None = None,
    what: str = "run",
    others: bool = False,
    aliases: Mapping[str, tuple[str, ...]] | None = None,
) -> Table:
    """Read the columns for ``roles`` (and ``optional`` ones when present).

    With ``others=True`` every remaining column is returned too, as text (segment columns).
    ``aliases`` extends the column aliases for this read (``columns.resolve``).
    """
    if sniff.format == "parquet":
        return _read_parquet(loaded, roles, optional, explicit, what, others, aliases)
    if sniff.format == "jsonl":
        return _read_jsonl(loaded, roles, optional, explicit, what, others, aliases)
    if sniff.format == "json":
        return _read_nested_json(loaded, roles, optional, what, others)
    return _read_csv(loaded, sniff, roles, optional, explicit, what, others, aliases)


def _types(names: Mapping[str, str]) -> dict[str, pa.DataType]:
    types: dict[str, pa.DataType] = {}
    for role, column in names.items():
        if role in ID_ROLES:
            types[column] = ID_TYPE
        elif role in TEXT_ROLES or role == "segment":
            types[column] = pa.string()
        else:
            types[column] = pa.float64()
    return types


def _read_csv(loaded: Loaded, sniff: Sniff, roles: Sequence[str], optional: Sequence[str],
              explicit: Mapping[str, str] | None, what: str, others: bool,
              aliases: Mapping[str, tuple[str, ...]] | None = None) -> Table:
    if sniff.header is None:
        fields = sniff.first_line.split()
        hint = "add a header naming the columns, e.g. 'query_id,doc_id,score'"
        if len(fields) == 6 and "," in fields[4]:
            hint = (f"this looks like a TREC run with a decimal comma in the score "
                    f"({fields[4]!r}): write the score with a point; trec_eval's atof would "
                    f"read {fields[4]!r} as {fields[4].split(',')[0] or '0'}")
        raise InputError(
            loaded.name, f"has no header row (first line: {sniff.first_line[:60]!r})",
            line=1, hint=hint)
    header = list(sniff.header)
    _check_width(loaded, len(header))
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise InputError(loaded.name, f"the header names column(s) {repeated} more than once",
                         line=1, hint="give every column its own name")
    names = resolve(loaded.name, header, roles, optional=optional, explicit=explicit, what=what,
                    aliases=aliases)
    alternatives = _alternative_names(header, names, explicit, others)
    other = [name for name in header if name not in names.values()] if others else []
    types = _types(names) | {name: pa.string() for name in (*other, *alternatives)}
    delimiter = sniff.delimiter or ","
    try:
        table = pacsv.read_csv(
            loaded.path if loaded.path is not None else loaded.open(),
            read_options=pacsv.ReadOptions(column_names=header, skip_rows=1,
                                           block_size=build.BLOCK_SIZE),
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
            convert_options=pacsv.ConvertOptions(
                column_types=types,
                include_columns=list(names.values()) + other + alternatives,
                null_values=[""], strings_can_be_null=False,
                quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as error:
        raise _diagnose_csv(loaded, sniff, header, names, error) from None
    if table.num_rows == 0:
        raise InputError(loaded.name, "has a header but no data rows",
                         hint="choose a file with data under the header")
    return Table({role: table.column(column) for role, column in names.items()}, names,
                 {name: table.column(name) for name in other}, header,
                 NonBlankLines(loaded.read_all, skip=1), table.num_rows,
                 alternatives=_alternatives(table, header, names, explicit, others))


def _alternative_names(available: Sequence[str], names: Mapping[str, str],
                       explicit: Mapping[str, str] | None, others: bool) -> list[str]:
    """Columns to read besides the roles' own: other candidates for an id (not for segment
    maps, which read every column anyway)."""
    if others:
        return []
    found = id_alternatives(available, names, explicit)
    return [column for columns in found.values() for column in columns]


def _alternatives(table: pa.Table, available: Sequence[str], names: Mapping[str, str],
                  explicit: Mapping[str, str] | None,
                  others: bool) -> dict[str, dict[str, pa.ChunkedArray]]:
    if others:
        return {}
    return {role: {column: table.column(column) for column in columns}
            for role, columns in id_alternatives(available, names, explicit).items()}


def _check_width(loaded: Loaded, columns: int) -> None:
    if columns > MAX_COLUMNS:
        raise InputError(
            loaded.name, f"has {columns:,} columns; ranklens reads tables of at most "
            f"{MAX_COLUMNS:,} columns", line=1 if loaded.head[:4] != b"PAR1" else None,
            hint="keep the columns the comparison needs (query id, doc id, score or grade, "
                 "segment columns) and drop the others")


def _diagnose_csv(loaded: Loaded, sniff: Sniff, header: list[str], names: Mapping[str, str],
                  error: Exception) -> InputError:
    """Find the first line pyarrow could not read and say why."""
    raw = bytes(loaded.read_all())
    too_long = _first_overlong_line(raw)
    if too_long is not None:
        line, length = too_long
        return InputError(
            loaded.name, f"line {line} is {length:,} bytes long; ranklens reads lines of up to "
            f"{build.BLOCK_SIZE:,} bytes", line=line,
            hint="a line this long is not one record: check that every record ends with a "
                 "line break")
    try:
        text = raw.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError as bad:
        return non_utf8_error(loaded.name, raw.removeprefix(BOM), bad.start)
    delimiter = sniff.delimiter or ","
    numeric = {header.index(column): role for role, column in names.items()
               if role not in ID_ROLES and role not in TEXT_ROLES}
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    next(reader, None)
    for row in reader:
        line = reader.line_num
        if not row:
            continue
        if len(row) != len(header):
            return InputError(
                loaded.name,
                f"has {len(row)} field(s), expected {len(header)} "
                f"(separated by {_SEPARATOR_NAMES.get(delimiter, repr(delimiter))})",
                line=line, hint=_field_count_hint(text.splitlines()[line - 1], delimiter))
        for index, role in numeric.items():
            value = row[index]
            if value == "":
                continue
            try:
                float(value)
            except ValueError:
                return InputError(loaded.name, f"{role} {value!r} is not a number", line=line,
                                  hint=_number_hint(role, value))
    return InputError(loaded.name, f"could not be read as {sniff.format.upper()} ({error})",
                      hint="check the separator and quoting, or pass format= explicitly")


def _first_overlong_line(raw: bytes) -> tuple[int, int] | None:
    """(1-based line, length) of the first line longer than the CSV reader's block, or None."""
    starts, ends = line_bounds(np.frombuffer(raw, dtype=np.uint8))
    lengths = ends - starts
    over = np.flatnonzero(lengths > build.BLOCK_SIZE)
    if len(over) == 0:
        return None
    return int(over[0]) + 1, int(lengths[over[0]])


def _field_count_hint(line: str, delimiter: str) -> str:
    others = [sep for sep in ("\t", ",", ";", "|") if sep != delimiter and sep in line]
    if others:
        return (f"this line uses {_SEPARATOR_NAMES[others[0]]} where the header uses "
                f"{_SEPARATOR_NAMES.get(delimiter, repr(delimiter))}: the file mixes "
                "separators; use one separator throughout")
    return "every line needs one value per header column (quote values that contain the " \
           "separator)"


def _number_hint(role: str, value: str) -> str:
    if "," in value and value.replace(",", "").replace(".", "").lstrip("-+").isdigit():
        return f"write the {role} with a '.' as decimal separator"
    return f"write a number in the {role} column"


def _read_parquet(loaded: Loaded, roles: Sequence[str], optional: Sequence[str],
                  explicit: Mapping[str, str] | None, what: str, others: bool,
                  aliases: Mapping[str, tuple[str, ...]] | None = None) -> Table:
    try:
        parquet = pq.ParquetFile(loaded.path if loaded.path is not None else loaded.open())
        available = list(parquet.schema_arrow.names)
    except (pa.ArrowInvalid, pa.ArrowException, OSError) as error:
        raise InputError(loaded.name, f"is not a readable Parquet file ({error})",
                         hint="the file may be truncated or written by a broken writer: "
                              "write it again") from None
    _check_width(loaded, len(available))
    names = resolve(loaded.name, available, roles, optional=optional, explicit=explicit,
                    what=what, aliases=aliases)
    other = [name for name in available if name not in names.values()] if others else []
    extra = _alternative_names(available, names, explicit, others)
    wanted = list(names.values()) + other + extra
    rows, expanded = parquet_rows_and_bytes(parquet, wanted)  # the footer: nothing read yet
    check_rows(loaded.name, rows, loaded.max_bytes, per_row=PARQUET_ROW_BYTES)
    check_expanded(loaded.name, expanded, loaded.max_bytes,
                   what=f"the {len(wanted)} Parquet column(s) read")
    try:
        table = parquet.read(columns=wanted)
    except (pa.ArrowInvalid, pa.ArrowException, OSError) as error:
        raise InputError(loaded.name, f"Parquet data could not be read ({error})",
                         hint="the file may be truncated: write it again") from None
    if table.num_rows == 0:
        raise InputError(loaded.name, "has no rows", hint="choose a file with data in it")
    return Table({role: table.column(column) for role, column in names.items()}, names,
                 {name: table.column(name) for name in other}, available, Locator(),
                 table.num_rows,
                 alternatives=_alternatives(table, available, names, explicit, others))


def _read_jsonl(loaded: Loaded, roles: Sequence[str], optional: Sequence[str],
                explicit: Mapping[str, str] | None, what: str, others: bool,
                aliases: Mapping[str, tuple[str, ...]] | None = None) -> Table:
    try:
        table = pajson.read_json(loaded.open(),
                                 parse_options=pajson.ParseOptions(newlines_in_values=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as error:
        raise _diagnose_jsonl(loaded, error) from None
    if table.num_rows == 0:
        raise InputError(loaded.name, "has no rows", hint="choose a file with data in it")
    _check_width(loaded, table.num_columns)
    available = list(table.column_names)
    names = resolve(loaded.name, available, roles, optional=optional, explicit=explicit,
                    what=what, aliases=aliases)
    other = [name for name in available if name not in names.values()] if others else []
    return Table({role: table.column(column) for role, column in names.items()}, names,
                 {name: table.column(name) for name in other}, available,
                 NonBlankLines(loaded.read_all), table.num_rows,
                 alternatives=_alternatives(table, available, names, explicit, others))


_NESTED_VALUES = {"run": "score", "msmarco": "score", "qrels": "relevance",
                  "per-query table": "value"}


def _read_nested_json(loaded: Loaded, roles: Sequence[str], optional: Sequence[str],
                      what: str, others: bool) -> Table:
    """A ``{query: {doc: value}}`` object (``ranklens.io.nested``) as the table ``what``
    reads: its columns are named for the roles, so an explicit column mapping has no use."""
    value = _NESTED_VALUES.get(what)
    if value is None:
        raise InputError(loaded.name, f"is one JSON object {{query: {{key: value}}}}, which "
                         f"ranklens reads as a run, judgements or a per-query table, not as a "
                         f"{what}", hint="write it as CSV, TSV, JSONL or Parquet with a "
                         "query_id column")
    table, notes = read_nested_json(loaded, value)
    available = list(table.column_names)
    names = resolve(loaded.name, available, roles, optional=optional, what=what)
    other = [name for name in available if name not in names.values()] if others else []
    return Table({role: table.column(column) for role, column in names.items()}, names,
                 {name: table.column(name) for name in other}, available, Locator(),
                 table.num_rows, notes)


def _diagnose_jsonl(loaded: Loaded, error: Exception) -> InputError:
    raw = bytes(loaded.read_all()).removeprefix(BOM)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return non_utf8_error(loaded.name, raw, bad.start)
    kinds: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as bad:
            return InputError(loaded.name, f"is not valid JSON ({bad.msg})", line=number,
                              hint="write one JSON object per line")
        if not isinstance(record, dict):
            return InputError(loaded.name, f"holds a JSON {type(record).__name__}, not an "
                              "object", line=number, hint="write one JSON object per line")
        for key, value in record.items():
            kind = "number" if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else type(value).__name__
            if value is None:
                continue
            seen = kinds.setdefault(key, (kind, number))
            if seen[0] != kind:
                return InputError(
                    loaded.name, f"field {key!r} is a {kind} here but a {seen[0]} on line "
                    f"{seen[1]}", line=number,
                    hint="give each field one type throughout (quote ids: \"007\")")
    return InputError(loaded.name, f"could not be read as JSON Lines ({error})",
                      hint="write one JSON object per line")


# ---- typed access to columns ----------------------------------------------------------------

def id_column(name: str, column: pa.ChunkedArray, what: str, locate: Locator
              ) -> pa.ChunkedArray:
    """Ids as text: dictionary/str kept, integers written in decimal, decimals refused.

    A missing (null) id is an error naming its line or row.
    """
    if column.null_count:
        flags = pa.concat_arrays(pc.is_null(column).chunks)
        row = int(np.flatnonzero(flags.to_numpy(zero_copy_only=False))[0])
        raise InputError(name, f"{what} is missing", **{locate.unit: locate([row])[0]},
                         hint=f"every row needs a {what}")
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return column
    if pa.types.is_integer(kind):
        return pc.cast(column, pa.string())
    if pa.types.is_floating(kind):
        values = column.to_numpy()
        whole = values[np.isfinite(values)]
        if np.all(whole == np.round(whole)):
            return pc.cast(pc.cast(column, pa.int64(), safe=False), pa.string())
    raise InputError(name, f"the {what} column holds {kind} values, not text or integers",
                     hint=f"write {what}s as text (quote them in JSON: \"007\")")


def number_column(name: str, column: pa.ChunkedArray, role: str,
                  locate: Locator) -> pa.ChunkedArray:
    """A numeric column as float64; text that is not a number is an error naming the line."""
    if pa.types.is_floating(column.type) or pa.types.is_integer(column.type):
        return pc.cast(column, pa.float64())
    if pa.types.is_boolean(column.type):
        return pc.cast(pc.cast(column, pa.int64()), pa.float64())
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        try:
            return pc.cast(column, pa.float64())
        except pa.ArrowInvalid:
            valid = pc.match_substring_regex(
                column, r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$|^(?i:[+-]?(nan|inf))$")
            flat = pa.concat_arrays(pc.fill_null(valid, True).chunks)
            row = int(np.flatnonzero(~flat.to_numpy(zero_copy_only=False))[0])
            value = pa.concat_arrays(column.chunks)[row].as_py()
            where = {locate.unit: locate([row])[0]}
            raise InputError(name, f"{role} {value!r} is not a number", **where,
                             hint=_number_hint(role, str(value))) from None
    raise InputError(name, f"the {role} column holds {column.type} values, not numbers",
                     hint=f"write numbers in the {role} column")
