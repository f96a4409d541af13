"""Runs and judgements as Spark DataFrames: Parquet, CSV/TSV with a header, TREC text.

``read_run`` gives ``query_id`` (string), ``doc_id`` (string), ``score`` (double);
``read_qrels`` gives ``query_id``, ``doc_id``, ``relevance`` (long). Column names are found by
the same aliases as ``ranklens.io`` (``qid``, ``docno``, ``rel`` ...); ids stay strings
(``007`` stays ``007``; integer id columns are written in decimal).

Like every Spark reader these are lazy: the schema is checked now (missing columns, id types),
the values when the rows are first read, which is in the scoring pass of ``evaluate`` or
``compare``: a duplicate (query, document) pair, a missing or non-finite score or a
non-integer grade stops the job there, and the driver names the file and example rows
(``ranklens.spark.problems``). Fractional grades (an LLM judge's 0.73) are refused so, never
truncated: the Spark engine reads integer grades only; the local engine reads them as gains
(``ranklens.data.grades``). Checking eagerly would cost a second full shuffle of the run;
the scoring pass sees each query's rows together anyway.

TREC text follows trec_eval: fields are separated by any run of blanks or tabs, leading and
trailing blanks are ignored, extra trailing fields are ignored; blank lines and lines starting
with ``#`` are skipped. A run line needs 6 fields (``qid Q0 docid rank score tag``; the rank is
ignored), a qrels line 4 (``qid iter docid rel``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pyspark.errors import AnalysisException
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from ranklens.io.columns import KNOWN_NAMES, normalise, resolve
from ranklens.io.errors import InputError

FORMATS = ("parquet", "csv", "tsv", "trec")
_EXTENSIONS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "tsv",
               ".tab": "tsv", ".trec": "trec", ".run": "trec", ".qrels": "trec"}
_COMPRESSION = (".gz", ".bz2", ".zst", ".snappy", ".lz4", ".deflate")
SOURCE_KEY = "ranklens_source"  # metadata key on query_id: where the rows came from


def read_run(spark: SparkSession, path: str | Path, *, format: str | None = None,
             columns: Mapping[str, str] | None = None) -> DataFrame:
    """A run as a DataFrame ``query_id, doc_id, score`` (lazy; values checked when scored).

    ``path`` is a file, a directory or a glob, local or on any file system Spark reads.
    ``format`` is one of ``parquet``, ``csv``, ``tsv``, ``trec`` (default: from the extension,
    else from the first lines). ``columns`` maps roles to column names when the aliases do not
    find them. Raises ``InputError`` when the path does not exist or a column is missing.
    """
    return _read(spark, str(path), "run", format, columns)


def read_qrels(spark: SparkSession, path: str | Path, *, format: str | None = None,
               columns: Mapping[str, str] | None = None) -> DataFrame:
    """Judgements as a DataFrame ``query_id, doc_id, relevance`` (long); see ``read_run``.

    A grade written ``2.0`` reads as 2; ``1.5`` or text stops the scoring job with an
    ``InputError`` naming the file and rows.
    """
    return _read(spark, str(path), "qrels", format, columns)


def source_of(frame: DataFrame, default: str) -> str:
    """The name ``read_run``/``read_qrels`` recorded on ``frame`` (its path), else ``default``."""
    try:
        metadata = frame.schema["query_id"].metadata
    except (KeyError, IndexError):
        return default
    return str(metadata.get(SOURCE_KEY, {}).get("path", default))


def format_of(frame: DataFrame) -> str | None:
    """The format ``read_run``/``read_qrels`` read ``frame`` from (None for other frames)."""
    try:
        metadata = frame.schema["query_id"].metadata
    except (KeyError, IndexError):
        return None
    found = metadata.get(SOURCE_KEY, {}).get("format")
    return None if found is None else str(found)


# ---- reading --------------------------------------------------------------------------------

def _read(spark: SparkSession, path: str, kind: str, format: str | None,
          columns: Mapping[str, str] | None) -> DataFrame:
    fmt = format or detect_format(spark, path)
    if fmt not in FORMATS:
        raise InputError(path, f"unknown format {fmt!r}", hint=f"use one of {', '.join(FORMATS)}")
    try:
        if fmt == "trec":
            frame = _trec(spark, path, kind)
            names = {"query_id": "field 1", "doc_id": "field 3",
                     "score" if kind == "run" else "relevance":
                         "field 5" if kind == "run" else "field 4"}
        else:
            frame, names = _table(spark, path, kind, fmt, columns)
    except AnalysisException as error:
        raise _analysis_error(path, error) from None
    metadata = {SOURCE_KEY: {"path": path, "format": fmt, "kind": kind, "columns": names}}
    value = "score" if kind == "run" else "relevance"
    return frame.select(F.col("query_id").alias("query_id", metadata=metadata),
                        "doc_id", value)


def detect_format(spark: SparkSession, path: str) -> str:
    """``parquet``, ``csv``, ``tsv`` or ``trec``: by extension, else by the first lines; a
    ``.csv``/``.tsv`` file whose first line is a ``#`` comment is TREC text (a header row does
    not start with ``#``)."""
    name = path.rstrip("/").lower()
    for suffix in _COMPRESSION:
        name = name.removesuffix(suffix)
    by_name = next((fmt for extension, fmt in _EXTENSIONS.items() if name.endswith(extension)),
                   None)
    if by_name in ("parquet", "trec"):
        return by_name
    try:
        head = [row[0] for row in spark.read.text(path).limit(50).collect()]
    except AnalysisException as error:
        raise _analysis_error(path, error) from None
    if any(line.startswith("PAR1") for line in head):
        return "parquet"
    filled = [line for line in head if line.strip()]
    if filled and filled[0].lstrip().startswith("#"):
        return "trec"  # a "#" line opens TREC text (trec_eval 10.0 skips it), never a header
    if by_name is not None:
        return by_name
    lines = [line.strip() for line in head if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise InputError(path, "has no data: every line is blank or a comment",
                         hint="choose a file with data in it, or pass format=")
    first = lines[0]
    separator = "\t" if "\t" in first else ","
    if any(normalise(token) in KNOWN_NAMES for token in first.split(separator)) and (
            separator in first):
        return "tsv" if separator == "\t" else "csv"
    return "trec"


def _trec(spark: SparkSession, path: str, kind: str) -> DataFrame:
    line = F.regexp_replace(F.col("value"), r"^\s+|\s+$", "")
    lines = spark.read.text(path).select(line.alias("line"))
    lines = lines.where((F.length("line") > 0) & ~F.col("line").startswith("#"))
    fields = F.split(F.col("line"), r"\s+")
    needed = 6 if kind == "run" else 4
    complete = F.size(fields) >= needed

    def field(number: int) -> Column:
        return F.when(complete, F.try_element_at(fields, F.lit(number)))

    query = F.try_element_at(fields, F.lit(1)).alias("query_id")
    doc = field(3).alias("doc_id")
    if kind == "run":
        return lines.select(query, doc, field(5).try_cast("double").alias("score"))
    return lines.select(query, doc, _grade(field(4).try_cast("double")).alias("relevance"))


def _table(spark: SparkSession, path: str, kind: str, fmt: str,
           columns: Mapping[str, str] | None) -> tuple[DataFrame, dict[str, str]]:
    if fmt == "parquet":
        raw = spark.read.parquet(path)
    else:
        raw = spark.read.csv(path, header=True, sep="\t" if fmt == "tsv" else ",",
                             inferSchema=False, mode="PERMISSIVE")
    roles = ("query_id", "doc_id", "score") if kind == "run" else \
        ("query_id", "doc_id", "relevance")
    names = resolve(path, raw.columns, roles, explicit=columns, what=kind)
    types = {field.name: field.dataType for field in raw.schema.fields}
    query = _id(path, raw, names["query_id"], types[names["query_id"]], "query id")
    doc = _id(path, raw, names["doc_id"], types[names["doc_id"]], "document id")
    if kind == "run":
        value = _number(raw[names["score"]], types[names["score"]], path, "score")
        return raw.select(query.alias("query_id"), doc.alias("doc_id"),
                          value.alias("score")), names
    grade = raw[names["relevance"]]
    if not isinstance(types[names["relevance"]], T.IntegralType):
        grade = _grade(_number(grade, types[names["relevance"]], path, "relevance"))
    return raw.select(query.alias("query_id"), doc.alias("doc_id"),
                      grade.cast("long").alias("relevance")), names


def _id(path: str, raw: DataFrame, column: str, kind: T.DataType, what: str) -> Column:
    if isinstance(kind, T.StringType | T.IntegralType):
        return raw[column].cast("string")
    raise InputError(path, f"the {what} column {column!r} holds {kind.simpleString()} values, "
                     "not text or integers", hint=f"write {what}s as text or integers")


def _number(column: Column, kind: T.DataType, path: str, what: str) -> Column:
    if isinstance(kind, T.NumericType):
        return column.cast("double")
    if isinstance(kind, T.StringType):
        return F.trim(column).try_cast("double")
    raise InputError(path, f"the {what} column holds {kind.simpleString()} values, not "
                     "numbers", hint=f"write numbers in the {what} column")


def _grade(value: Column) -> Column:
    """An integer grade as long; null when not a whole number (the scorer refuses nulls)."""
    return F.when(value == F.floor(value), value.cast("long"))


def _analysis_error(path: str, error: AnalysisException) -> InputError:
    text = str(error)
    if "PATH_NOT_FOUND" in text or "Path does not exist" in text:
        return InputError(path, "not found", hint="check the path (files, directories and "
                          "globs are accepted)")
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return InputError(path, f"could not be read by Spark ({first})",
                      hint="check the path and the format, or pass format=")
