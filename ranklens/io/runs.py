"""Public readers for runs and judgements: ``read_run`` and ``read_qrels``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import NamedTuple, Unpack

import numpy as np
import pyarrow as pa

from ranklens.data import Qrels, Run
from ranklens.data.grades import GRADE_POLICIES, GradePolicy
from ranklens.data.id_keys import pair_keys, remember_row_keys
from ranklens.io.build import (
    check_finite,
    check_ids,
    check_no_nulls,
    check_unique_pairs,
    ids_by_block,
    ids_unified,
    read_grades,
    to_numpy,
    unique_ids,
)
from ranklens.io.detect import BOM, Sniff, sniff
from ranklens.io.errors import InputError
from ranklens.io.source import Loaded, ReadOptions, Source, file_stem, load, read_options
from ranklens.io.summary import ReadSummary
from ranklens.io.trec import Parsed, read_trec, run_tag


class RunRead(NamedTuple):
    """A run and the account of its reading; unpacks as ``run, summary = read_run(...)``."""

    run: Run
    summary: ReadSummary


class QrelsRead(NamedTuple):
    qrels: Qrels
    summary: ReadSummary


def read_run(
    source: Source,
    *,
    unique_docs: bool = False,
    keep_ranks: bool = False,
    **options: Unpack[ReadOptions],
) -> RunRead:
    """Read a ranking from a TREC run, CSV/TSV, Parquet or JSONL file (path, bytes or upload).

    ``name``, ``format``, ``columns`` (roles ``query_id``, ``doc_id``, ``score``, ``rank``)
    and ``max_bytes`` are the readers' `ReadOptions`; ``name`` becomes ``Run.name``. Raises
    ``InputError`` for anything it cannot read whole; it never returns part of a file.

    Document ids: ``run.docs`` may hold an id more than once (a TREC run's holds one string per
    row; each row's code still names its id); pass ``unique_docs=True`` for one entry per
    distinct id, at the cost of hashing every id (about a second for 7M distinct ids). The
    rank column is not read unless ``keep_ranks=True`` (metrics order by score, as trec_eval
    does; ranks are for an explicit rank-ordering option).

    An MS MARCO run (``qid docid rank``, no score) is a ranked list: its score is ``-rank``, so
    the usual score order is its rank order; a rank given twice for one query is an error.
    """
    name, format, columns, max_bytes = read_options(options, "read_run")
    loaded = load(source, name=name, max_bytes=max_bytes)
    with as_input_errors(loaded.name):
        detected = sniff(loaded, _trec_alias(format, "run"))
        if detected.format == "trec-qrels":
            raise InputError(
                loaded.name, "looks like TREC qrels (judgements: 'qid iter docid rel', "
                f"4 fields), not a run (first line: {detected.first_line[:60]!r})",
                hint="give this file as the judgements (qrels); a run line is "
                     "'qid Q0 docid rank score tag'")
        _refuse_other_kinds(loaded, detected, "run")
        kind = "msmarco" if detected.format == "msmarco-run" else "run"
        parsed, names = _parse(loaded, detected, kind, columns, unique_docs, keep_ranks)
        check_ids(loaded.name, parsed.queries, "query id", parsed.locate)
        check_ids(loaded.name, parsed.docs, "document id", parsed.locate)
        ranks: np.ndarray | None
        if kind == "msmarco":
            ranks = msmarco_ranks(loaded.name, parsed)
            scores = -ranks.astype(np.float64)
            parsed.notes.insert(0, "MS MARCO run (qid docid rank, no score): ranked by the rank "
                                "column, rank 1 first (score = -rank); a ranklens extension: "
                                "trec_eval refuses a three-field run line as malformed")
        else:
            scores = to_numpy(parsed.numbers["score"], np.float64)
            check_finite(loaded.name, scores, parsed.locate)
            ranks = _ranks(parsed)
        # ids stored per row or per block are checked by their 64-bit keys (then kept for the
        # metrics, which match the run's documents to the qrels by the same keys)
        keys = None if parsed.docs.unique else pair_keys(parsed.queries.codes,
                                                         parsed.docs.values, parsed.docs.codes)
        check_unique_pairs(loaded.name, parsed.queries, parsed.docs, parsed.locate, "run", keys)
        parsed.notes += bom_note(loaded, detected.format)
        run = Run(parsed.queries.codes, parsed.queries.values, parsed.docs.codes,
                  parsed.docs.values, scores=scores,
                  ranks=ranks if keep_ranks or kind == "msmarco" else None,
                  name=run_name(loaded))
        if keys is not None:
            remember_row_keys(run, keys)
        summary = ReadSummary(
            loaded.name, detected.format, len(scores), len(parsed.queries.values),
            len(parsed.docs.values) if parsed.docs.unique else None,
            compressed=loaded.compressed, columns=names, notes=tuple(parsed.notes),
            run_tag=run_tag(loaded) if kind == "run" and detected.format == "trec-run"
            else None, id_samples=parsed.id_samples)
        # documents is None when the document ids were not deduplicated: counting distinct
        # ids would cost a hash of every id (read with unique_docs=True to count them)
        return RunRead(run, summary)


def bom_note(loaded: Loaded, format: str) -> list[str]:
    """The note for a TREC file that opens with a UTF-8 byte-order mark (skipped here)."""
    if not format.startswith("trec") or not loaded.head.startswith(BOM):
        return []
    return ["a UTF-8 byte-order mark opens the file: skipped (trec_eval keeps it as part of "
            "the first query id, which then matches no query of the other file)"]


def read_qrels(
    source: Source,
    *,
    grades: GradePolicy = "real",
    **options: Unpack[ReadOptions],
) -> QrelsRead:
    """Read judgements from TREC qrels, CSV/TSV, Parquet or JSONL (path, bytes or upload).

    Whole grades are integers (``2.0`` is read as 2). A fractional grade (an LLM judge's 0.73)
    is kept with ``grades="real"`` (the default; the summary's notes say the rule that reads it,
    ``ranklens.data.grades``), refused naming its line with ``grades="integer"`` (the trec_eval
    drop-in), or truncated toward zero with ``grades="truncate"`` (trec_eval's atol; counted in
    the notes). The same `ReadOptions` and guarantees as ``read_run``; ``qrels.docs`` always
    holds each document id once.
    """
    name, format, columns, max_bytes = read_options(options, "read_qrels")
    loaded = load(source, name=name, max_bytes=max_bytes)
    with as_input_errors(loaded.name):
        detected = sniff(loaded, _trec_alias(format, "qrels"))
        if detected.format in ("trec-run", "msmarco-run"):
            what = "a TREC run ('qid Q0 docid rank score tag'" if detected.format == \
                "trec-run" else "an MS MARCO run ('qid docid rank'"
            raise InputError(
                loaded.name, f"looks like {what}, {detected.fields} fields), not judgements "
                f"(first line: {detected.first_line[:60]!r})",
                hint="give this file as a run; a qrels line is 'qid iter docid rel'")
        if detected.format == "unknown" and detected.fields > 4 and detected.header is None \
                and detected.delimiter is None:
            # a qrels line with a fifth field: the reader names the line (trec_eval rejects it)
            detected = replace(detected, format="trec-qrels")
        _refuse_other_kinds(loaded, detected, "qrels")
        parsed, names = _parse(loaded, detected, "qrels", columns, True, False)
        check_ids(loaded.name, parsed.queries, "query id", parsed.locate)
        check_ids(loaded.name, parsed.docs, "document id", parsed.locate)
        check_no_nulls(loaded.name, parsed.numbers["relevance"], "relevance", parsed.locate)
        if grades not in GRADE_POLICIES:
            raise ValueError(f"grades must be one of {', '.join(GRADE_POLICIES)}, not {grades!r}")
        relevance = read_grades(loaded.name, parsed.numbers["relevance"], parsed.locate,
                                policy=grades, notes=parsed.notes)
        parsed.notes += bom_note(loaded, detected.format)
        check_unique_pairs(loaded.name, parsed.queries, parsed.docs, parsed.locate, "qrels")
        qrels = Qrels(parsed.queries.codes, parsed.queries.values, parsed.docs.codes,
                      parsed.docs.values, relevance=relevance, name=run_name(loaded))
        summary = ReadSummary(
            loaded.name, detected.format, len(relevance), len(parsed.queries.values),
            len(parsed.docs.values), compressed=loaded.compressed, columns=names,
            notes=tuple(parsed.notes))
        return QrelsRead(qrels, summary)


def _trec_alias(format: str, kind: str) -> str:
    return f"trec-{kind}" if format == "trec" else format


def _refuse_other_kinds(loaded: Loaded, detected: Sniff, kind: str) -> None:
    if detected.format == "trec_eval":
        raise InputError(
            loaded.name, "looks like trec_eval output ('measure qid value'), not a "
            f"{kind} (first line: {detected.first_line[:60]!r})",
            hint="load it as a per-query metric table instead; if it is a run or qrels "
                 "without a header, add one (e.g. query_id, doc_id, score); an MS MARCO run "
                 "is 'qid docid rank' with whole ranks 1, 2, ...")
    if detected.format == "unknown":
        layouts = ("a TREC run line is 'qid Q0 docid rank score tag', an MS MARCO run line "
                   "'qid docid rank' (rank 1, 2, ...)") if kind == "run" else \
            "a TREC qrels line is 'qid iter docid rel'"
        raise InputError(
            loaded.name, f"is not a recognised {kind} format: the first data line has "
            f"{detected.fields} whitespace-separated field(s) and no header "
            f"({detected.first_line[:60]!r})", line=first_data_line(loaded, detected),
            hint=f"{layouts}; a CSV/TSV needs a header row")


def _parse(loaded: Loaded, detected: Sniff, kind: str, columns: Mapping[str, str] | None,
           unique_docs: bool, keep_ranks: bool) -> tuple[Parsed, dict[str, str]]:
    if detected.format in ("trec-run", "trec-qrels", "msmarco-run"):
        parsed = read_trec(loaded, detected, kind, unique_docs=unique_docs,
                           keep_ranks=keep_ranks)
        layout = {"run": ("query_id", "doc_id", "score"), "msmarco": ("query_id", "doc_id",
                  "rank"), "qrels": ("query_id", "doc_id", "relevance")}[kind]
        positions = {"query_id": 1, "doc_id": 3, "rank": 4, "score": 5, "relevance": 4}
        if kind == "msmarco":
            positions = {"query_id": 1, "doc_id": 2, "rank": 3}
        return parsed, {role: f"field {positions[role]}" for role in layout}
    # the table readers (CSV, Parquet, JSON) load only for a file that needs them
    from ranklens.io.id_columns import ROLE_WORDS, sample_ids
    from ranklens.io.tables import id_column, number_column, read_table

    roles = ("query_id", "doc_id", "score") if kind == "run" else \
        ("query_id", "doc_id", "relevance")
    optional = ("rank",) if kind == "run" and keep_ranks else ()
    try:
        table = read_table(loaded, detected, roles=roles, optional=optional, explicit=columns,
                           what=kind)
    except InputError as error:
        raise _wrong_kind(loaded, detected, kind, error) from None
    locate = table.locate
    queries = ids_unified(id_column(loaded.name, table.columns["query_id"], "query id",
                                          table.locate))
    doc_column = id_column(loaded.name, table.columns["doc_id"], "document id", locate)
    docs = ids_by_block(doc_column) if pa.types.is_dictionary(doc_column.type) else \
        ids_unified(doc_column)
    if unique_docs:
        docs = unique_ids(docs)
    numbers: dict[str, pa.ChunkedArray | pa.Array] = {}
    value_role = "score" if kind == "run" else "relevance"
    value = table.columns[value_role]
    if kind == "run":
        check_no_nulls(loaded.name, value, "score", locate)
        value = number_column(loaded.name, value, "score", locate)
    elif pa.types.is_string(value.type):
        check_no_nulls(loaded.name, value, "relevance", locate)
    numbers[value_role] = value
    notes = list(table.notes)
    if "rank" in table.columns:
        rank = table.columns["rank"]
        if rank.null_count == 0 and (pa.types.is_floating(rank.type)
                                     or pa.types.is_integer(rank.type)):
            numbers["rank"] = rank
        else:
            notes.append("the rank column has gaps or text: ignored (metrics order by score)")
    if kind == "run":  # a column the user named is said, as a chosen one is (id_columns)
        notes += [f"{ROLE_WORDS[role]} from column {table.names[role]!r}, as named"
                  for role in ("query_id", "doc_id") if columns and role in columns]
    ignored = [column for column in table.all_names if column not in table.names.values()]
    if ignored:
        notes.append(f"column(s) not used: {', '.join(ignored)}")
    samples = {role: {table.names[role]: sample_ids(table.columns[role]),
                      **{column: sample_ids(values) for column, values in others.items()}}
               for role, others in table.alternatives.items()}
    return Parsed(queries, docs, numbers, locate, notes, samples), dict(table.names)


def _wrong_kind(loaded: Loaded, detected: Sniff, kind: str, error: InputError) -> InputError:
    """A table with relevance but no score (or the reverse) is the other kind of file."""
    if "has no" not in error.message or (detected.header is None
                                         and detected.format != "parquet"):
        return error
    available = error.message
    if kind == "run" and any(alias in available for alias in ("'relevance'", "'rel'",
                                                               "'label'", "'grade'")):
        return InputError(loaded.name, "has a relevance column but no score column: it "
                          "looks like judgements (qrels), not a run",
                          hint="give this file as the judgements, or map the score column "
                               "with columns={'score': ...}")
    if kind == "qrels" and any(alias in available for alias in ("'score'", "'sim'")):
        return InputError(loaded.name, "has a score column but no relevance column: it "
                          "looks like a run, not judgements",
                          hint="give this file as a run, or map the grade column with "
                               "columns={'relevance': ...}")
    return error


def _ranks(parsed: Parsed) -> np.ndarray | None:
    rank = parsed.numbers.get("rank")
    if rank is None:
        return None
    if not isinstance(rank, np.ndarray) and pa.types.is_floating(rank.type):
        values = to_numpy(rank, np.float64)
        if not np.all(values == np.round(values)):
            parsed.notes.append("the rank column holds non-integers: ignored (metrics order "
                                "by score)")
            return None
        return values.astype(np.int64)
    return to_numpy(rank, np.int64)


def msmarco_ranks(name: str, parsed: Parsed) -> np.ndarray:
    """The ranks of an MS MARCO run: whole numbers >= 1, each at most once per query."""
    ranks = to_numpy(parsed.numbers["rank"], np.int64)
    bad = np.flatnonzero(ranks < 1)
    if len(bad):
        raise InputError(name, f"rank {int(ranks[bad[0]])} is not 1 or more",
                         line=parsed.locate([int(bad[0])])[0],
                         hint="MS MARCO ranks count from 1 (the best document of the query)")
    queries = parsed.queries.codes
    order = np.lexsort((ranks, queries))
    same = np.flatnonzero((queries[order][1:] == queries[order][:-1])
                          & (ranks[order][1:] == ranks[order][:-1]))
    if len(same):
        rows = np.sort(order[[same[0], same[0] + 1]])
        query = parsed.queries.values[int(queries[rows[0]])].as_py()
        lines = ", ".join(map(str, parsed.locate(rows)))
        raise InputError(name, f"query {query!r} has rank {int(ranks[rows[0]])} twice "
                         f"({parsed.locate.unit}s {lines})",
                         hint="an MS MARCO run gives each document of a query its own rank: "
                              "ranklens will not guess which document comes first")
    return ranks


def first_data_line(loaded: Loaded, detected: Sniff) -> int:
    """1-based number of the first data line (after blank and comment lines)."""
    head = loaded.head[:detected.data_offset]
    return len(head.removeprefix(b"\xef\xbb\xbf").splitlines()) + 1


def run_name(loaded: Loaded) -> str:
    return file_stem(loaded.name)


@contextmanager
def as_input_errors(name: str) -> Iterator[None]:
    """Whatever the underlying readers raise leaves here as an ``InputError``."""
    try:
        yield
    except InputError:
        raise
    except (pa.ArrowException, OSError, ValueError, UnicodeError, IndexError) as error:
        raise InputError(name, f"could not be read ({type(error).__name__}: {error})",
                         hint="check the format, or pass format= explicitly") from None
    except Exception as error:  # a bug of ours: still no raw traceback for the user
        raise InputError(name, f"could not be read: unexpected {type(error).__name__} "
                         f"({error})", hint="this is a ranklens bug: please report it with "
                         "the file") from error


