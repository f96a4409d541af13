"""TREC runs (``qid Q0 docid rank score tag``), qrels (``qid iter docid rel``) and MS MARCO runs
(``qid docid rank``), read as trec_eval reads them.

The fields of a line are what ``line.split()`` gives on its bytes: any run of blanks (space,
tab, VT, FF) separates fields, blanks around a field are not part of it; lines end at LF, CR LF
or a lone CR; a line whose first field starts with ``#`` is a comment (trec_eval 10.0), skipped
and counted. Three readers give the same table for every input, cheapest first:

1. pyarrow's multi-threaded CSV reader with the separator of the first data line, straight on
   the file. It is only trusted when nothing can differ from a whitespace split: every one of
   the layout's fields is present and non-empty on every line, no id holds a blank, and no
   line after the first data line is a comment. The fields not read for their value (``Q0``,
   the rank, the tag) are converted to cheap check columns for that.
2. The same reader on a rewritten copy (``ranklens.io.whitespace``): one space between fields,
   no padding, comment lines emptied. Files with padded or tab-and-space separated fields.
3. Arrow's whitespace splitter line by line: irregular files (extra trailing fields on some
   lines only) and the exact line of a wrong one.

None of them loops over rows in Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ranklens.errors import RanklensError
from ranklens.io import build
from ranklens.io.build import ID_TYPE, Ids, ids_per_row, ids_unified, to_numpy, unique_ids
from ranklens.io.detect import BOM, Sniff, ascii_fields, is_comment, non_utf8_error
from ranklens.io.errors import InputError
from ranklens.io.locate import KnownLines, Locator, NonBlankLines, line_bounds
from ranklens.io.source import Loaded
from ranklens.io.whitespace import canonical_text

RUN_FIELDS = ("query_id", "q0", "doc_id", "rank", "score", "tag")
QRELS_FIELDS = ("query_id", "iter", "doc_id", "relevance")
MSMARCO_FIELDS = ("query_id", "doc_id", "rank")
LAYOUTS = {"run": RUN_FIELDS, "qrels": QRELS_FIELDS, "msmarco": MSMARCO_FIELDS}
LAYOUT_TEXT = {"run": "qid Q0 docid rank score tag", "qrels": "qid iter docid rel",
               "msmarco": "qid docid rank"}
_NUMBER_RE = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(?i:nan|inf|infinity)$"
_NUMERIC = {"rank": pa.int64(), "score": pa.float64(), "relevance": pa.int64()}
# fields read only to prove the line is regular: a short list of known values -> bool column
_MAX_CHECK_VALUES = 32
_CHECK_FIELDS = ("q0", "iter", "tag")


class Irregular(RanklensError):
    """The fast reader's table could differ from a whitespace split: use the next reader."""


_REFUSED = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError, Irregular)


@dataclass
class Parsed:
    """Columns of a TREC file, before the run/qrels checks."""

    queries: Ids
    docs: Ids
    numbers: dict[str, pa.ChunkedArray | pa.Array | np.ndarray]
    locate: Locator
    notes: list[str] = field(default_factory=list)
    # id role -> {column: a sample of its distinct values}, the chosen column first, when a
    # table has several columns that could hold that id (see ranklens.io.id_columns)
    id_samples: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)


def read_trec(loaded: Loaded, sniff: Sniff, kind: str, *, unique_docs: bool,
              keep_ranks: bool = False) -> Parsed:
    """Parse a TREC run (``kind="run"``), qrels (``"qrels"``) or MS MARCO run (``"msmarco"``)."""
    fields = LAYOUTS[kind]
    if kind == "msmarco":
        keep_ranks = True
    exact = kind != "run"  # trec_eval rejects qrels lines with a fifth field ("Malformed line")
    if not (exact and sniff.fields > len(fields)):
        try:
            return _read_fast(loaded, sniff, fields, unique_docs=unique_docs,
                              keep_ranks=keep_ranks, checked=True)
        except _REFUSED as error:
            refused = error
        if _unseen_check_value(refused, fields):
            # a Q0 or tag value the sampled lines did not show (a tag per shard): read the
            # check fields as strings instead of rewriting the whole file for the next reader
            try:
                return _read_fast(loaded, sniff, fields, unique_docs=unique_docs,
                                  keep_ranks=keep_ranks, checked=True, open_checks=True)
            except _REFUSED:
                pass
        rewritten = canonical_text(np.frombuffer(loaded.read_all(), dtype=np.uint8))
        text = rewritten.data
        if len(text):
            head = text[:len(loaded.head)].tobytes()
            canonical = Loaded(loaded.name, None, pa.py_buffer(text), loaded.compressed, head,
                               len(text))
            first = next((line for line in head.decode("utf-8", errors="replace").splitlines()
                          if line), "")
            try:
                parsed = _read_fast(canonical, replace(
                    sniff, first_line=first, fields=len(first.split()), data_offset=0,
                    comments_before=0), fields, unique_docs=unique_docs,
                    keep_ranks=keep_ranks, checked=False)
            except _REFUSED:
                pass
            else:
                if rewritten.blanks_changed:
                    parsed.notes.insert(0, "fields split on runs of spaces and tabs, blanks "
                                        "around fields ignored (as trec_eval reads them)")
                if rewritten.comment_lines:
                    parsed.notes.append(comment_note(rewritten.comment_lines))
                return parsed
    # the line-by-line reader reads irregular files and finds the line of a wrong one
    return _read_by_line(loaded, fields, kind, keep_ranks)


def comment_note(count: int) -> str:
    return f"{count:,} comment line{'' if count == 1 else 's'} skipped"


def _unseen_check_value(error: Exception, fields: tuple[str, ...]) -> bool:
    """Whether the fast read failed only on a value of a check field (``Q0``/``iter``, the
    tag) that is not among the values sampled from the file's first and last lines."""
    found = re.match(r"In CSV column #(\d+): CSV conversion error to (null|bool)", str(error))
    return (found is not None and int(found.group(1)) < len(fields)
            and fields[int(found.group(1))] in _CHECK_FIELDS)


def _read_fast(loaded: Loaded, sniff: Sniff, fields: tuple[str, ...], *,
               unique_docs: bool, keep_ranks: bool, checked: bool,
               open_checks: bool = False) -> Parsed:
    """One CSV read; with ``checked``, raises ``Irregular`` unless it equals a whitespace split.

    ``open_checks`` reads the check fields as strings of any value (each still checked for
    blanks and emptiness) instead of against the values sampled from the file.
    """
    delimiter = "\t" if "\t" in sniff.first_line else " "
    count = max(sniff.fields, len(fields))
    names = list(fields) + [f"extra_{i}" for i in range(count - len(fields))]
    wanted: list[str] = [name for name in ("query_id", "doc_id", "rank", "score", "relevance")
                         if name in fields and (keep_ranks or name != "rank")]
    # document ids come as plain strings, one per row, and are not hashed at all unless
    # ``unique_docs`` (repeated pairs are found by a sort of 64-bit keys, ``build``): hashing
    # 7M distinct ids costs more CPU than parsing the whole file
    types: dict[str, pa.DataType] = {
        name: pa.string() if name == "doc_id" else ID_TYPE if name == "query_id"
        else _NUMERIC[name] for name in wanted}
    known: list[str] = []
    if checked:
        types, known = _check_columns(fields, types, sniff, delimiter, loaded, open_checks)
    as_null = pa.null() in types.values()  # the known values are null values, "" is not
    source = loaded.path if loaded.path is not None and not sniff.data_offset else loaded.open()
    if sniff.data_offset and not isinstance(source, str):
        source.seek(sniff.data_offset)
    table = pacsv.read_csv(
        source,
        read_options=pacsv.ReadOptions(column_names=names, block_size=build.BLOCK_SIZE),
        parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False,
                                         double_quote=False, escape_char=False),
        convert_options=pacsv.ConvertOptions(
            column_types=types, include_columns=list(types),
            null_values=known if as_null else [""] if checked else [],
            strings_can_be_null=checked and not as_null, quoted_strings_can_be_null=False,
            true_values=known if known and not as_null else ["-"], false_values=[]))
    if checked and any(table.column(name).null_count for name, kind in types.items()
                       if kind != pa.null()):
        raise Irregular("an empty field")  # two separators in a row, or one at a line's end
    if checked:
        for name, kind in types.items():
            if name not in wanted and kind == ID_TYPE:  # a check column of many values
                _check_clean(table.column(name).chunks)
    chunks = {name: table.column(name).chunks for name in wanted}
    del table  # from here on each chunk is freed as soon as it has been copied
    docs = ids_per_row(chunks.pop("doc_id"))
    queries = ids_unified(pa.chunked_array(chunks.pop("query_id"), type=ID_TYPE))
    if checked:
        _check_ids(queries, docs)
    if unique_docs:
        docs = unique_ids(docs)
    numbers: dict[str, np.ndarray] = {
        name: to_numpy(column, np.float64 if name == "score" else np.int64)
        for name, column in chunks.items()}
    notes = [f"{count - len(fields)} extra trailing field(s) on every line, ignored "
             "(as trec_eval does)"] if count > len(fields) else []
    if sniff.comments_before:
        notes.append(comment_note(sniff.comments_before))
    return Parsed(queries, docs, dict(numbers), NonBlankLines(loaded.read_all,
                                                              skip=sniff.comments_before),
                  notes)


def _check_columns(fields: tuple[str, ...], types: dict[str, pa.DataType], sniff: Sniff,
                   delimiter: str, loaded: Loaded,
                   open_checks: bool = False) -> tuple[dict[str, pa.DataType], list[str]]:
    """Column types that also read the layout's other fields, to prove each line is regular.

    ``Q0``/``iter`` and the tag become columns of type null whose null values are the clean
    values seen in the first 64 KiB and, for a file on disk or in memory, the last 64 KiB
    (two runs concatenated change the tag once), or bool columns with those as true values
    when one of them looks like a number (a grade or score could then read as null); any
    other value fails the conversion (the caller may then read again with ``open_checks``:
    string columns of any value, checked for blanks). The rank is parsed as an integer. With
    bool checks an empty field reads as null; with null checks it fails the conversion of a
    number or check column and ``_check_ids`` finds an empty id.
    """
    lines = _head_lines(loaded, sniff) + _tail_lines(loaded, sniff)
    checks = dict(types)
    known: set[str] = set()
    for position, name in enumerate(fields):
        if name in checks:
            continue
        if name == "rank":
            checks[name] = pa.int32()  # only proves the field is there: the smallest integer
            continue
        values = {line.split(delimiter)[position] for line in lines
                  if len(line.split(delimiter)) > position}
        if not values or any(not value or min(value.encode()) <= 32 for value in values):
            raise Irregular(f"field {name} is empty or padded in the first lines")
        if open_checks or len(known | values) > _MAX_CHECK_VALUES:
            checks[name] = ID_TYPE
            continue
        known |= values
        checks[name] = pa.bool_()
    if known and not any(re.match(_NUMBER_RE, value) for value in known):
        # the known values can be the null values instead (no number column reads them):
        # a column of type null is the cheapest check there is (about 20 ms a column on 7M
        # rows), and an empty field, which is then no null value, fails its conversion
        checks = {name: pa.null() if kind == pa.bool_() else kind
                  for name, kind in checks.items()}
    return checks, sorted(known)


def _head_lines(loaded: Loaded, sniff: Sniff) -> list[str]:
    head = loaded.head[sniff.data_offset:]
    lines = head.splitlines()
    if loaded.size > len(loaded.head):
        lines = lines[:-1]
    return [line.decode("utf-8", errors="replace") for line in lines if line]


def _tail_lines(loaded: Loaded, sniff: Sniff) -> list[str]:
    """The whole data lines of the file's last 64 KiB past its head, when that is cheap to
    read (not through a decompressor); comment lines left out."""
    if (loaded.compressed and loaded.data is None) or loaded.size <= len(loaded.head):
        return []
    tail = _tail(loaded, 1 << 16)
    if loaded.size - len(tail) < len(loaded.head):
        tail = tail[len(loaded.head) - (loaded.size - len(tail)):]
    lines = tail.splitlines()[1:]  # the first may be a piece of a line
    return [text for text in (line.decode("utf-8", errors="replace") for line in lines)
            if text and not is_comment(text)]


def _check_ids(queries: Ids, docs: Ids) -> None:
    """No id is empty or holds a blank (or a control byte), no query id starts a comment."""
    for values in (queries.values, docs.values):
        data = _string_bytes(values)
        if len(data) and data.min() <= 32:
            raise Irregular("an id with a blank")
        if build.has_empty_string(values):
            raise Irregular("an empty field")
    if len(queries.values) and pc.any(pc.starts_with(queries.values, "#")).as_py():
        raise Irregular("a comment line")


def _check_clean(chunks: list[pa.Array]) -> None:
    for chunk in chunks:
        data = _string_bytes(chunk.dictionary)
        if len(data) and data.min() <= 32:
            raise Irregular("a field with a blank")
        if build.has_empty_string(chunk.dictionary):
            raise Irregular("an empty field")


def _string_bytes(values: pa.Array) -> np.ndarray:
    if not len(values):
        return np.empty(0, dtype=np.uint8)
    width = 8 if pa.types.is_large_string(values.type) else 4
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32 if width == 4 else np.int64,
                            count=len(values) + 1, offset=values.offset * width)
    data = values.buffers()[2]
    if data is None:
        return np.empty(0, dtype=np.uint8)
    return np.frombuffer(data, dtype=np.uint8)[int(offsets[0]):int(offsets[-1])]


def _read_by_line(loaded: Loaded, fields: tuple[str, ...], kind: str,
                  keep_ranks: bool) -> Parsed:
    buffer = loaded.read_all()
    lines, line_numbers = split_lines(loaded.name, buffer)
    tokens, counts = whitespace_fields(lines)
    comments = comment_lines(tokens, counts)
    used = (counts > 0) & ~comments
    rows = np.flatnonzero(used)
    if not len(rows):
        what = "blank or a comment" if comments.any() else "blank"
        raise InputError(loaded.name, f"has no data: every line is {what}",
                         hint="choose a file with data in it")
    short = np.flatnonzero(used & (counts < len(fields)))
    if len(short):
        raise _short_line(loaded.name, int(line_numbers[short[0]]), int(counts[short[0]]),
                          len(short), fields, kind)
    if kind != "run":
        long = np.flatnonzero(used & (counts > len(fields)))
        if len(long):
            raise _long_line(loaded.name, int(line_numbers[long[0]]), int(counts[long[0]]),
                             len(long), fields, kind)
    tokens = tokens.filter(pa.array(used))
    lines_used = line_numbers[rows]
    locate = KnownLines(lines_used)
    notes = ["read line by line, fields split on any run of spaces or tabs (as trec_eval)"]
    extra = int(np.count_nonzero(used & (counts > len(fields))))
    if extra:
        notes.append(f"{extra:,} line(s) have extra trailing fields, ignored "
                     "(as trec_eval does)")
    if comments.any():
        notes.append(comment_note(int(np.count_nonzero(comments))))
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
    elif kind == "msmarco":
        numbers["rank"] = _parse_ranks(loaded.name, pc.list_element(tokens, 2), locate)
    else:
        numbers["relevance"] = pc.list_element(tokens, 3)
    return Parsed(queries, docs, numbers, locate, notes)


def comment_lines(tokens: pa.Array, counts: np.ndarray) -> np.ndarray:
    """Mask of the lines whose first field starts with ``#``."""
    first = pc.list_element(tokens.filter(pa.array(counts > 0)), 0)
    mask = np.zeros(len(counts), dtype=bool)
    mask[counts > 0] = pc.starts_with(first, "#").to_numpy(zero_copy_only=False)
    return mask


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


def run_tag(loaded: Loaded) -> str | None:
    """The tag (sixth field) of a TREC run's last data line: what trec_eval prints as ``runid``.

    Reads the last 64 KiB of a file on disk, not the whole file. ``None`` when the last data
    line has fewer than six fields.
    """
    tail = _tail(loaded, 1 << 16)
    for line in reversed(tail.splitlines()):
        text = line.decode("utf-8", errors="replace")
        tokens = ascii_fields(text)
        if tokens and not is_comment(text):
            return tokens[5] if len(tokens) >= 6 else None
    if len(tail) < loaded.size:
        return run_tag(replace(loaded, path=None, data=loaded.read_all(),
                               size=loaded.size)) if loaded.path is not None else None
    return None


def _tail(loaded: Loaded, size: int) -> bytes:
    if loaded.data is not None:
        data = loaded.data
        return bytes(data.slice(max(0, data.size - size)))
    with loaded.open() as stream:
        stream.seek(max(0, loaded.size - size))
        return bytes(stream.read())


def _parse_scores(name: str, text: pa.Array, locate: Locator) -> pa.Array:
    try:
        return pc.cast(text, pa.float64())
    except pa.ArrowInvalid:
        bad = np.flatnonzero(~pc.match_substring_regex(text, _NUMBER_RE)
                             .to_numpy(zero_copy_only=False))
        row = int(bad[0]) if len(bad) else 0
        more = f" ({len(bad):,} such lines)" if len(bad) > 1 else ""
        value = text[row].as_py()
        raise InputError(name, f"score {value!r} is not a number{more}",
                         line=locate([row])[0],
                         hint="the fifth field of a run line is the score: write a number "
                              f"there (e.g. 12.5); trec_eval's atof would read it as "
                              f"{c_atof(value):g} and rank by that") from None


_ATOF_PREFIX = re.compile(r"^\s*([+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)"
                          r"(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE)


def c_atof(text: str) -> float:
    """What C's ``atof`` makes of ``text``: its longest numeric prefix (hex too), else 0."""
    match = _ATOF_PREFIX.match(text)
    if not match:
        return 0.0
    number = match.group(1)
    if "x" in number.lower() and not number.lower().startswith(("inf", "nan")):
        sign = -1.0 if number.startswith("-") else 1.0
        return sign * float(int(number.lstrip("+-"), 16))
    return float(number)


def _parse_ranks(name: str, text: pa.Array, locate: Locator) -> pa.Array:
    try:
        return pc.cast(text, pa.int64())
    except pa.ArrowInvalid:
        bad = np.flatnonzero(~pc.match_substring_regex(text, r"^[+]?\d+$")
                             .to_numpy(zero_copy_only=False))
        row = int(bad[0]) if len(bad) else 0
        raise InputError(name, f"rank {text[row].as_py()!r} is not a whole number",
                         line=locate([row])[0],
                         hint="the third field of an MS MARCO run line (qid docid rank) is "
                              "the rank: 1, 2, 3, ...") from None


def _short_line(name: str, line: int, got: int, how_many: int, fields: tuple[str, ...],
                kind: str) -> InputError:
    layout = LAYOUT_TEXT[kind]
    more = f"; {how_many:,} lines are short" if how_many > 1 else ""
    hint = f"a TREC {kind} line is '{layout}'" if kind != "msmarco" else \
        f"an MS MARCO run line is '{layout}'"
    if kind == "run" and got == 4:
        hint += "; four fields look like qrels (qid iter docid rel): is this a qrels file?"
    if kind == "run" and got == 5:
        hint += "; a missing run tag (sixth field) is the usual cause"
    if kind == "qrels" and got == 3:
        hint += "; the relevance grade (fourth field) is missing"
    return InputError(name, f"has {got} field(s), expected {len(fields)}{more}", line=line,
                      hint=hint)


def _long_line(name: str, line: int, got: int, how_many: int, fields: tuple[str, ...],
               kind: str) -> InputError:
    more = f"; {how_many:,} lines are too long" if how_many > 1 else ""
    if kind == "qrels":
        hint = ("a TREC qrels line is 'qid iter docid rel' and nothing more: remove the extra "
                "field(s); trec_eval rejects such a line too ('Malformed line')")
    else:
        hint = f"an MS MARCO run line is '{LAYOUT_TEXT[kind]}' and nothing more"
    return InputError(name, f"has {got} field(s), expected {len(fields)}{more}", line=line,
                      hint=hint)
