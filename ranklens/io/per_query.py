"""Per-query metric tables computed elsewhere (a warehouse, Spark, trec_eval -q).

Wide (``query_id`` + one column per metric), long (``query_id, metric, value``) or trec_eval's
``-q`` output (``measure qid value``) in, ``{metric: MetricResult}`` out. It answers "what
did this run score on each query"; it does not compute metrics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple, Unpack

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import MetricResult
from ranklens.io.build import arrow_indices, check_ids, ids_unified, to_numpy
from ranklens.io.columns import ALIASES, normalise
from ranklens.io.detect import Sniff, ascii_fields, is_number, sniff
from ranklens.io.errors import InputError
from ranklens.io.locate import KnownLines, Locator
from ranklens.io.runs import as_input_errors, run_name
from ranklens.io.source import Loaded, ReadOptions, Source, load, read_options
from ranklens.io.summary import ReadSummary, SetAside
from ranklens.io.tables import id_column, number_column, read_table
from ranklens.io.trec import comment_lines, comment_note, split_lines, whitespace_fields


class PerQueryRead(NamedTuple):
    metrics: dict[str, MetricResult]
    summary: ReadSummary


def read_per_query(
    source: Source,
    *,
    run: str | None = None,
    metrics: Sequence[str] | None = None,
    **options: Unpack[ReadOptions],
) -> PerQueryRead:
    """Read per-query metric values: one ``MetricResult`` per metric, keyed by metric name.

    A ``run`` column (``run``, ``system``, ``tag``...) holding several runs needs ``run=`` to
    pick one; the other runs' rows are set aside and counted. ``metrics`` keeps only the named
    metrics. A missing, non-numeric or non-finite value, or a query listed twice for one
    metric, is an ``InputError`` naming the line. ``name``, ``format``, ``columns`` and
    ``max_bytes`` are the readers' `ReadOptions`.
    """
    name, format, columns, max_bytes = read_options(options, "read_per_query")
    loaded = load(source, name=name, max_bytes=max_bytes)
    with as_input_errors(loaded.name):
        detected = _detected(loaded, format)
        if detected.format == "trec_eval":
            return _read_trec_eval(loaded, run, metrics)
        if detected.format == "unknown":
            raise InputError(loaded.name, "has no header row", line=1,
                             hint="add a header: query_id, then one column per metric")
        table = read_table(loaded, detected, roles=("query_id",),
                           optional=("metric", "value", "run"), explicit=columns,
                           what="per-query table", others=True)
        queries = ids_unified(id_column(loaded.name, table.columns["query_id"], "query id",
                                          table.locate))
        check_ids(loaded.name, queries, "query id", table.locate)
        keep = np.ones(table.rows, dtype=bool)
        set_aside: list[SetAside] = []
        run_label = run or run_name(loaded)
        if "run" in table.columns:
            keep, run_label, aside = _pick_run(loaded.name, table.columns["run"], run,
                                               table.locate)
            set_aside.extend(aside)
        elif run is not None:
            raise InputError(loaded.name, f"has no run column to pick run {run!r} from",
                             hint="leave run= out, or add a 'run' column")
        notes: list[str] = []
        if "metric" in table.columns and "value" in table.columns:
            values = number_column(loaded.name, table.columns["value"], "value",
                                   table.locate)
            names = pc.cast(table.columns["metric"], pa.string())
            results = _long_form(loaded.name, queries.codes, queries.values, names, values,
                                 keep, table.locate, run_label)
            form = "long"
        else:
            candidates = {column: values for column, values in table.other.items()
                          if normalise(column) not in _NOT_METRICS}
            numeric, text = _numeric_columns(loaded.name, candidates, table.locate)
            if text:
                notes.append(f"text column(s) not read as metrics: {', '.join(text)}")
            if not numeric:
                raise InputError(loaded.name, "has no numeric metric column (columns: "
                                 f"{', '.join(table.all_names)})",
                                 hint="add one column per metric with a number per query, or "
                                      "use the long form query_id, metric, value")
            results = {column: _one_metric(loaded.name, column, queries.codes, queries.values,
                                           values, keep, table.locate, run_label)
                       for column, values in numeric.items()}
            form = "wide"
        results = _select(loaded.name, results, metrics)
        kept = int(np.count_nonzero(keep))
        summary = ReadSummary(
            loaded.name, f"{detected.format} ({form})", kept,
            len(np.unique(queries.codes[keep])), None, compressed=loaded.compressed,
            columns=dict(table.names), set_aside=tuple(set_aside),
            notes=(f"metrics: {', '.join(results)}", *notes))
        return PerQueryRead(results, summary)


def _detected(loaded: Loaded, format: str) -> Sniff:
    """What ``loaded`` holds, as a per-query table may: ``sniff``'s answer, with trec_eval's
    lines told apart from an MS MARCO run; an ``InputError`` for a run or qrels file."""
    detected = sniff(loaded, format)
    if detected.format == "msmarco-run" and format == "auto" and not is_number(
            ascii_fields(detected.first_line)[0]):
        # 'recall@100<TAB>q1<TAB>1': a measure name, not an MS MARCO query id
        detected = replace(detected, format="trec_eval")
    if detected.format in ("trec-run", "trec-qrels", "msmarco-run"):
        kind = {"trec-run": "run", "trec-qrels": "qrels file",
                "msmarco-run": "run in MS MARCO format (qid docid rank)"}[detected.format]
        raise InputError(loaded.name, f"looks like a TREC {kind}, not a per-query metric "
                         "table", hint="a per-query table has a query_id column and one "
                         "column per metric (or query_id, metric, value)")
    return detected


_NOT_METRICS = frozenset(
    alias for role in ("doc_id", "segment", "run", "metric", "value") for alias in ALIASES[role]
) | {"q0", "iter"}


def _pick_run(name: str, column: pa.ChunkedArray, run: str | None, locate: Locator
              ) -> tuple[np.ndarray, str, list[SetAside]]:
    labels = pc.cast(column, pa.string())
    present = sorted(value for value in pc.unique(labels).to_pylist() if value is not None)
    if run is None:
        if len(present) > 1:
            raise InputError(name, f"holds {len(present)} runs ({', '.join(present[:10])})",
                             hint="pick one with run=...")
        return np.ones(len(column), dtype=bool), present[0] if present else "", []
    if run not in present:
        raise InputError(name, f"has no rows for run {run!r} (runs: {', '.join(present[:10])})",
                         hint="pick one of the runs listed")
    keep = to_numpy(pc.fill_null(pc.equal(labels, run), False), np.bool_)
    aside = int(np.count_nonzero(~keep))
    lines = tuple(locate(np.flatnonzero(~keep)[:3])) if aside and locate.unit == "line" else ()
    reason = f"rows of other runs than {run!r}"
    return keep, run, [SetAside(reason, aside, lines)] if aside else []


def _numeric_columns(name: str, candidates: Mapping[str, pa.ChunkedArray], locate: Locator
                     ) -> tuple[dict[str, pa.ChunkedArray], list[str]]:
    numeric: dict[str, pa.ChunkedArray] = {}
    text: list[str] = []
    for column, values in candidates.items():
        if pa.types.is_integer(values.type) or pa.types.is_floating(values.type):
            numeric[column] = pc.cast(values, pa.float64())
            continue
        if not pa.types.is_string(values.type):
            text.append(column)
            continue
        blank = pc.equal(pc.utf8_trim_whitespace(values), "")
        values = pc.if_else(blank, pa.scalar(None, pa.string()), values)
        present = pc.drop_null(values)
        looks_numeric = pc.all(pc.match_substring_regex(
            present, r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$|^(?i:[+-]?(nan|inf))$"))
        if len(present) and looks_numeric.as_py():
            numeric[column] = number_column(name, values, column, locate)
        elif len(present) and _mostly_numeric(present):
            numeric[column] = number_column(name, values, column, locate)  # names the line
        else:
            text.append(column)
    return numeric, text


def _mostly_numeric(values: pa.ChunkedArray) -> bool:
    matches = pc.match_substring_regex(values, r"^\s*[+-]?(\d+\.?\d*|\.\d+)")
    return bool(pc.mean(pc.cast(matches, pa.float64())).as_py() >= 0.5)


def _one_metric(name: str, metric: str, codes: np.ndarray, queries: pa.Array,
                values: pa.ChunkedArray | pa.Array | np.ndarray, keep: np.ndarray,
                locate: Locator, run: str) -> MetricResult:
    if not isinstance(values, np.ndarray) and values.null_count:
        missing = np.flatnonzero(to_numpy(pc.is_null(values), np.bool_) & keep)
        if len(missing):
            query = queries[int(codes[missing[0]])].as_py()
            raise InputError(name, f"query {query!r} has no value for {metric!r}",
                             **{locate.unit: locate(missing[:1])[0]},
                             hint="fill in the value or remove the query from the table")
        values = pc.fill_null(values, 0.0)
    numbers = to_numpy(values, np.float64)
    rows = np.flatnonzero(keep)
    finite = np.isfinite(numbers[rows])
    if not finite.all():
        row = int(rows[np.flatnonzero(~finite)[0]])
        query = queries[int(codes[row])].as_py()
        raise InputError(name, f"{metric} for query {query!r} is {float(numbers[row])!r}, not a "
                         "finite number", **{locate.unit: locate([row])[0]},
                         hint="write a number for every query (NaN cannot be compared)")
    query_codes = codes[rows]
    order = np.argsort(query_codes, kind="stable")
    repeated = np.flatnonzero(query_codes[order][1:] == query_codes[order][:-1])
    if len(repeated):
        code = query_codes[order][repeated[0]]
        where = rows[query_codes == code]
        query = queries[int(code)].as_py()
        places = ", ".join(map(str, locate(where[:5])))
        raise InputError(name, f"query {query!r} has {len(where)} values for {metric!r} "
                         f"({locate.unit}s {places})",
                         hint="keep one value per query and metric")
    ids = queries.take(arrow_indices(query_codes)).to_pylist()
    return MetricResult.from_arrays(metric, ids, numbers[rows], run=run)


def _long_form(name: str, codes: np.ndarray, queries: pa.Array, metric_names: pa.ChunkedArray,
               values: pa.ChunkedArray | np.ndarray, keep: np.ndarray, locate: Locator,
               run: str) -> dict[str, MetricResult]:
    if metric_names.null_count:
        row = int(np.flatnonzero(to_numpy(pc.is_null(metric_names), np.bool_))[0])
        raise InputError(name, "metric name is missing", **{locate.unit: locate([row])[0]},
                         hint="name the metric on every row")
    encoded = ids_unified(metric_names)
    results: dict[str, MetricResult] = {}
    for code, metric in enumerate(encoded.values.to_pylist()):
        mine = keep & (encoded.codes == code)
        if mine.any():
            results[metric] = _one_metric(name, metric, codes, queries, values, mine, locate,
                                          run)
    return results


def _select(name: str, results: dict[str, MetricResult], metrics: Sequence[str] | None
            ) -> dict[str, MetricResult]:
    if metrics is None:
        return results
    missing = [metric for metric in metrics if metric not in results]
    if missing:
        raise InputError(name, f"has no metric {', '.join(map(repr, missing))} (metrics: "
                         f"{', '.join(results)})", hint="pick among the metrics listed")
    return {metric: results[metric] for metric in metrics}


def _read_trec_eval(loaded: Loaded, run: str | None, metrics: Sequence[str] | None
                    ) -> PerQueryRead:
    """``trec_eval -q`` output: ``measure <ws> qid <ws> value``; ``all`` rows are summaries.

    Lines starting with ``#`` are comments. Measures whose every per-query value is text
    (trec_eval's ``relstring`` prints ``'223-110113'``) are not metrics: their lines are set
    aside and counted, like the summary rows (``runid`` has only an ``all`` row).
    """
    lines, numbers = split_lines(loaded.name, loaded.read_all())
    tokens, counts = whitespace_fields(lines)
    comments = comment_lines(tokens, counts)
    used = (counts > 0) & ~comments
    wrong = np.flatnonzero(used & (counts != 3))
    if len(wrong):
        raise InputError(loaded.name, f"has {counts[wrong[0]]} field(s), expected 3 "
                         "(measure, query id, value)", line=int(numbers[wrong[0]]),
                         hint="trec_eval -q output has three fields per line")
    tokens = tokens.filter(pa.array(used))
    line_numbers = numbers[used]
    measure = pc.list_element(tokens, 0)
    query = pc.list_element(tokens, 1)
    value_text = pc.list_element(tokens, 2)
    summary_rows = to_numpy(pc.equal(query, "all"), np.bool_)
    text_rows = _text_measure_rows(measure, value_text) & ~summary_rows
    keep = ~summary_rows & ~text_rows
    locate = KnownLines(line_numbers)
    values = number_column(loaded.name, pa.chunked_array([value_text.filter(pa.array(keep))]),
                           "value", KnownLines(line_numbers[keep]))
    full = np.zeros(len(keep))
    full[keep] = to_numpy(values, np.float64)
    queries = ids_unified(query)
    run_label = run or run_name(loaded)
    results = _long_form(loaded.name, queries.codes, queries.values,
                         pa.chunked_array([measure]), full, keep, locate, run_label)
    results = _select(loaded.name, results, metrics)
    set_aside = []
    aside = int(np.count_nonzero(summary_rows))
    if aside:
        set_aside.append(SetAside("trec_eval summary rows (query 'all')", aside,
                                  tuple(int(x) for x in line_numbers[summary_rows][:3])))
    if text_rows.any():
        names = sorted(set(measure.filter(pa.array(text_rows)).to_pylist()))
        set_aside.append(SetAside(
            f"measure(s) {', '.join(names)}: text, not numbers (as trec_eval prints them)",
            int(np.count_nonzero(text_rows)),
            tuple(int(x) for x in line_numbers[text_rows][:3])))
    notes = [f"metrics: {', '.join(results)}"]
    if comments.any():
        notes.append(comment_note(int(np.count_nonzero(comments))))
    summary = ReadSummary(loaded.name, "trec_eval", int(np.count_nonzero(keep)),
                          len(np.unique(queries.codes[keep])), None,
                          compressed=loaded.compressed, set_aside=tuple(set_aside),
                          notes=tuple(notes))
    return PerQueryRead(results, summary)


_VALUE_RE = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(?i:nan|inf|infinity)$"


def _text_measure_rows(measure: pa.Array, value_text: pa.Array) -> np.ndarray:
    """Rows of the measures none of whose values is a number."""
    numeric = to_numpy(pc.match_substring_regex(value_text, _VALUE_RE), np.bool_)
    encoded = ids_unified(measure)
    has_number = np.bincount(encoded.codes[numeric], minlength=len(encoded.values)) > 0
    return ~has_number[encoded.codes]
