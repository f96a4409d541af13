"""TREC runs (``qid Q0 docid rank score tag``) and qrels (``qid iter docid rel``).

Up to three tries, cheapest first. (1) pyarrow's multi-threaded CSV reader with one separator
(the common file). (2) If the file mixes tabs and spaces, the same reader on a copy with tabs
turned into spaces. (3) Otherwise (padded fields, extra trailing fields on some lines, a bad
value) arrow's whitespace splitter line by line, which either reads the file the way trec_eval
does or finds the exact line that is wrong. None of them loops over rows in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ranklens.io import build
from ranklens.io.build import ID_TYPE, Ids, ids_by_block, ids_unified, to_numpy, unique_ids
from ranklens.io.detect import BOM, Sniff, non_utf8_error
from ranklens.io.errors import InputError
from ranklens.io.locate import KnownLines, Locator, NonBlankLines, line_bounds
from ranklens.io.source import Loaded

RUN_FIELDS = ("query_id", "q0", "doc_id", "rank", "score", "tag")
QRELS_FIELDS = ("query_id", "iter", "doc_id", "relevance")
_NUMBER_RE = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(?i:nan|inf|infinity)$"


@dataclass
class Parsed:
    """Columns of a TREC file, before the run/qrels checks."""

    queries: Ids
    docs: Ids
    numbers: dict[str, pa.ChunkedArray | pa.Array | np.ndarray]
    locate: Locator
    notes: list[str] = field(default_factory=list)


def read_trec(loaded: Loaded, sniff: Sniff, kind: str, *, unique_docs: bool,
              keep_ranks: bool = False) -> Parsed:
    """Parse a TREC run (``kind="run"``) or qrels (``kind="qrels"``) into columns."""
    fields = RUN_FIELDS if kind == "run" else QRELS_FIELDS
    refused = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError)
    try:
        return _read_fast(loaded, sniff, fields, unique_docs=unique_docs,
                          keep_ranks=keep_ranks)
    except refused:
        pass
    data = np.frombuffer(loaded.read_all(), dtype=np.uint8)
    if (data == 9).any() and (data == 32).any():
        # tabs on some lines, spaces on others: one separator after all, once tabs are spaces
        spaced = np.where(data == 9, np.uint8(32), data)
        respaced = replace(loaded, path=None, data=pa.py_buffer(spaced),
                           head=spaced[:len(loaded.head)].tobytes())
        try:
            parsed = _read_fast(respaced, replace(sniff, first_line=sniff.first_line.replace(
                "\t", " ")), fields, unique_docs=unique_docs, keep_ranks=keep_ranks)
        except refused:
            pass
        else:
            parsed.notes.append("tabs and spaces both separate fields: read alike "
                                "(as trec_eval does)")
            return parsed
    del data
    # the line-by-line reader reads irregular files and finds the line of a wrong one
    return _read_by_line(loaded, fields, kind, keep_ranks)


def _read_fast(loaded: Loaded, sniff: Sniff, fields: tuple[str, ...], *,
               unique_docs: bool, keep_ranks: bool) -> Parsed:
    delimiter = "\t" if "\t" in sniff.first_line else " "
    count = max(sniff.fields, len(fields))
    names = list(fields) + [f"extra_{i}" for i in range(count - len(fields))]
    numeric = {"rank": pa.int64(), "score": pa.float64(), "relevance": pa.int64()}
    wanted = [name for name in ("query_id", "doc_id", "rank", "score", "relevance")
              if name in fields and (keep_ranks or name != "rank")]
    types = {name: ID_TYPE if name.endswith("_id") else numeric[name] for name in wanted}
    table = pacsv.read_csv(
        loaded.path if loaded.path is not None else loaded.open(),
        read_options=pacsv.ReadOptions(column_names=names, block_size=build.BLOCK_SIZE),
        parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False,
                                         double_quote=False, escape_char=False),
        convert_options=pacsv.ConvertOptions(column_types=types, include_columns=wanted,
                                             null_values=[], strings_can_be_null=False,
                                             quoted_strings_can_be_null=False))
    chunks = {name: table.column(name).chunks for name in wanted}
    del table  # from here on each chunk is freed as soon as it has been copied
    docs = ids_by_block(chunks.pop("doc_id"))
    if unique_docs:
        docs = unique_ids(docs)
    queries = ids_unified(pa.chunked_array(chunks.pop("query_id"), type=ID_TYPE))
    numbers: dict[str, np.ndarray] = {
        name: to_numpy(column, np.float64 if name == "score" else np.int64)
        for name, column in chunks.items()}
    notes = [f"{count - len(fields)} extra trailing field(s) on every line, ignored "
             "(as trec_eval does)"] if count > len(fields) else []
    return Parsed(queries, docs, dict(numbers), NonBlankLines(loaded.read_all), notes)


def _read_by_line(loaded: Loaded, fields: tuple[str, ...], kind: str,
                  keep_ranks: bool) -> Parsed:
    buffer = loaded.read_all()
    lines, line_numbers = split_lines(loaded.name, buffer)
    tokens, counts = whitespace_fields(lines)
    used = counts > 0
    rows = np.flatnonzero(used)
    if not len(rows):
        raise InputError(loaded.name, "has no data: every line is blank",
                         hint="choose a file with data in it")
    short = np.flatnonzero(used & (counts < len(fields)))
    if len(short):
        raise _short_line(loaded.name, int(line_numbers[short[0]]), int(counts[short[0]]),
                          len(short), fields, kind)
    tokens = tokens.filter(pa.array(used))
    lines_used = line_numbers[rows]
    locate = KnownLines(lines_used)
    notes = ["read line by line, fields split on any run of spaces or tabs (as trec_eval)"]
    extra = int(np.count_nonzero(counts > len(fields)))
    if extra:
        notes.append(f"{extra:,} line(s) have extra trailing fields, ignored "
                     "(as trec_eval does)")
    position = {name: i for i, name in enumerate(fields)}
    queries = ids_unified(pc.list_element(tokens, position["query_id"]))
    docs = ids_unified(pc.list_element(tokens, position["doc_id"]))
    numbers: dict[str, pa.ChunkedArray | pa.Array] = {}
    if kind == "run":
        numbers["score"] = _parse_scores(loaded.name, pc.list_element(tokens, 4), locate)
        try:
            if keep_ranks:
                numbers["rank"] = pc.cast(pc.list_element(tokens, 3), pa.int64())
        except pa.ArrowInvalid:
            notes.append("the rank column holds non-integers: ignored (metrics order by "
                         "score, as trec_eval does)")
    else:
        numbers["relevance"] = pc.list_element(tokens, 3)
    return Parsed(queries, docs, numbers, locate, notes)


def split_lines(name: str, buffer: pa.Buffer) -> tuple[pa.Array, np.ndarray]:
    """Every physical line as a string (line break included) and its 1-based number."""
    data = np.frombuffer(buffer, dtype=np.uint8)
    skip = 3 if bytes(data[:3]) == BOM else 0
    starts, _ = line_bounds(data)
    if skip and len(starts):
        starts = starts.copy()
        starts[0] = skip
    offsets = np.append(starts, len(data))
    offset_type, string_type = ((np.int32, pa.string()) if len(data) < 2**31 - 1
                                else (np.int64, pa.large_string()))
    lines = pa.Array.from_buffers(string_type, len(starts),
                                  [None, pa.py_buffer(offsets.astype(offset_type)), buffer])
    try:
        lines.validate(full=True)
    except pa.ArrowInvalid:
        text = bytes(buffer)
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise non_utf8_error(name, text, error.start) from None
        raise
    return lines, np.arange(1, len(starts) + 1)


def whitespace_fields(lines: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """Fields of each line split on runs of ASCII whitespace (C ``isspace``, as trec_eval),
    and the number of fields per line (0 for a blank line)."""
    trimmed = pc.ascii_trim_whitespace(lines)
    tokens = pc.ascii_split_whitespace(trimmed)
    counts = pc.list_value_length(tokens).to_numpy(zero_copy_only=False).astype(np.int64)
    lengths = pc.binary_length(trimmed).to_numpy(zero_copy_only=False)
    counts[lengths == 0] = 0
    return tokens, counts


def _parse_scores(name: str, text: pa.Array, locate: Locator) -> pa.Array:
    try:
        return pc.cast(text, pa.float64())
    except pa.ArrowInvalid:
        bad = np.flatnonzero(~pc.match_substring_regex(text, _NUMBER_RE)
                             .to_numpy(zero_copy_only=False))
        row = int(bad[0]) if len(bad) else 0
        more = f" ({len(bad):,} such lines)" if len(bad) > 1 else ""
        raise InputError(name, f"score {text[row].as_py()!r} is not a number{more}",
                         line=locate([row])[0],
                         hint="the fifth field of a run line is the score: write a number "
                              "there (e.g. 12.5)") from None


def _short_line(name: str, line: int, got: int, how_many: int, fields: tuple[str, ...],
                kind: str) -> InputError:
    layout = "qid Q0 docid rank score tag" if kind == "run" else "qid iter docid rel"
    more = f"; {how_many:,} lines are short" if how_many > 1 else ""
    hint = f"a TREC {kind} line is '{layout}'"
    if kind == "run" and got == 4:
        hint += "; four fields look like qrels (qid iter docid rel): is this a qrels file?"
    if kind == "run" and got == 5:
        hint += "; a missing run tag (sixth field) is the usual cause"
    if kind == "qrels" and got == 3:
        hint += "; the relevance grade (fourth field) is missing"
    return InputError(name, f"has {got} field(s), expected {len(fields)}{more}", line=line,
                      hint=hint)
