"""``compare`` on Spark: Spark scores both runs, ranklens decides on the driver.

Both runs and the qrels go through one scoring job (``score_runs``); only the per-query
values come back to the driver (a million queries x 2 runs x a few metrics is tens of MB).
From there the report is built by the same code as the local pipeline
(``ranklens.compare.analysis.report_from_results``): same statistics, seeds and JSON schema.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io as std_io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyspark.sql import DataFrame, SparkSession

from ranklens import io
from ranklens.compare.analysis import (
    CompareSettings,
    input_record,
    report_from_results,
    scoring_notes,
)
from ranklens.compare.report import InputRecord, Report
from ranklens.io import InputFile
from ranklens.io.source import file_stem
from ranklens.metrics.evaluate import metric_specs
from ranklens.spark.evaluate import DEFAULT_CHUNK_ROWS, evaluation_of, score_runs
from ranklens.spark.problems import input_errors
from ranklens.spark.read import SOURCE_KEY, read_qrels, read_run, source_of
from ranklens.spark.session import described

Input = str | Path | DataFrame
Segments = str | Path | Mapping[str, str] | DataFrame | None


def compare(
    spark: SparkSession,
    run_a: Input,
    run_b: Input,
    qrels: Input,
    settings: CompareSettings | None = None,
    *,
    segments: Segments = None,
    partitions: int | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """The comparison ``Report`` of B against A under ``settings``, metrics scored on Spark.

    ``run_a``, ``run_b`` and ``qrels`` are paths (read with ``read_run``/``read_qrels``) or
    DataFrames with their columns. ``segments`` is a segment map file on the driver's file
    system (as ``ranklens compare --segments``), a ``{query_id: segment}`` mapping, or a
    DataFrame with ``query_id`` and segment column(s); the settings' ``segment_column`` picks
    one (default: the first). ``settings`` are those of the local pipeline (default
    ``CompareSettings()``; documents are ordered by score); the numbers equal the local
    pipeline's on the same data and seed.

    Input records hold the path, a digest of the file listing (path, size, modification time;
    Spark reads the data where it lies, so there are no bytes on the driver to hash) and the
    rows and queries the scoring job saw.
    """
    settings = settings or CompareSettings()
    if settings.order != "score":
        raise ValueError("the Spark engine orders documents by score only (order='score')")
    frames = {"run_a": _frame(spark, run_a, "run"), "run_b": _frame(spark, run_b, "run"),
              "qrels": _frame(spark, qrels, "qrels")}
    segment_maps, segment_record, chosen = _segments(spark, segments, settings.segment_column)
    settings = dataclasses.replace(settings, segment_column=chosen).canonical()
    missing = settings.missing
    specs = metric_specs(settings.metrics, gain=settings.gain,
                         relevance_level=settings.relevance_level)
    policy = "zero" if missing == "zero" else "drop"
    scored = score_runs([frames["run_a"], frames["run_b"]], frames["qrels"], specs,
                        missing=policy, partitions=partitions, chunk_rows=chunk_rows)
    sources = {role: source_of(frame, role) for role, frame in frames.items()}
    if progress:
        progress("scoring the runs on Spark")
    with input_errors((frames["qrels"], frames["run_a"], frames["run_b"])), described(
            spark, f"ranklens: scoring {sources['run_a']} and {sources['run_b']} against "
                   f"{sources['qrels']} ({', '.join(settings.metrics)})"):
        table = scored.toArrow()
    names = settings.metrics
    evaluations = tuple(
        evaluation_of(table.filter(pc.equal(table.column("run"), r)), names, policy,
                      file_stem(sources[role]))
        for r, role in enumerate(("run_a", "run_b")))
    labels = ((settings.run_names[0], settings.run_names[1]) if settings.run_names else
              (file_stem(sources["run_a"]), file_stem(sources["run_b"])))
    notes = scoring_notes(labels, (evaluations[0], evaluations[1]), missing)
    records = tuple(_record(spark, role, frames[role], table, r)
                    for role, r in (("run_a", 0), ("run_b", 1), ("qrels", None)))
    if segment_record is not None:
        records = (*records, segment_record)
    if progress:
        progress("comparing")
    return report_from_results(
        settings, dict(evaluations[0].results), dict(evaluations[1].results), notes,
        inputs=records, segment_maps=segment_maps, run_names=labels)


def _frame(spark: SparkSession, value: Input, kind: str) -> DataFrame:
    if isinstance(value, DataFrame):
        return value
    return read_run(spark, value) if kind == "run" else read_qrels(spark, value)


def _segments(spark: SparkSession, segments: Segments, column: str | None
              ) -> tuple[dict[str, Mapping[str, str]], InputRecord | None, str | None]:
    """Segment maps by column, the input record of a segment file, the column chosen."""
    if segments is None:
        if column is not None:
            raise ValueError(f"segment_column={column!r} needs segments=")
        return {}, None, None
    record = None
    if isinstance(segments, DataFrame):
        buffer = std_io.BytesIO()
        pq.write_table(segments.toArrow(), buffer)
        segment_map, _ = io.read_segments(buffer.getvalue(), name="segments (DataFrame)",
                                          column=column)
        maps = dict(segment_map.by_column)
        chosen = segment_map.column
    elif isinstance(segments, str | Path):
        file = InputFile.from_path("segments", segments)
        segment_map, summary = io.read_segments(file.data, name=file.name)
        maps = dict(segment_map.by_column)
        record = input_record(file, summary)
        chosen = column if column is not None else segment_map.column
    else:
        chosen = column or "segment"
        maps = {chosen: dict(segments)}
    if chosen not in maps:
        raise ValueError(f"no segment column {chosen!r}; the segment map has "
                         f"{', '.join(maps)}")
    return maps, record, chosen


def _record(spark: SparkSession, role: str, frame: DataFrame, table: pa.Table,
            run: int | None) -> InputRecord:
    """What the report says about one input: path, listing digest, rows and queries seen."""
    meta = _metadata(frame)
    first = table.filter(pc.equal(table.column("run"), 0 if run is None else run))
    counts = first.column("judged" if run is None else "rows")
    rows = int(pc.sum(counts).as_py() or 0)
    queries = int(pc.sum(pc.greater(counts, 0).cast(pa.int64())).as_py() or 0)
    fmt = f"{meta.get('format', 'DataFrame')} (Spark)"
    digest, size, files = _listing_digest(spark, frame)
    source = str(meta.get("path", role))
    notes = [f"read and scored on Spark from {files} file(s); sha256 is of the file listing "
             "(path, size, modification time), not of the content"] if files else \
        ["a Spark DataFrame not read from files: no digest"]
    summary: dict[str, Any] = {
        "format": fmt, "rows": rows, "queries": queries, "documents": None,
        "compressed": False, "columns": dict(meta.get("columns", {})), "set_aside": [],
        "notes": notes,
        "description": f"{source} ({fmt}): {rows:,} rows, {queries:,} queries; {notes[0]}.",
    }
    return InputRecord(role, source, digest, size, summary)


def _metadata(frame: DataFrame) -> dict[str, Any]:
    try:
        found = frame.schema["query_id"].metadata.get(SOURCE_KEY, {})
    except (KeyError, IndexError):
        return {}
    return dict(found)


def _listing_digest(spark: SparkSession, frame: DataFrame) -> tuple[str, int, int]:
    """sha256 of the sorted (path, size, modification time) of the frame's files; total size.

    Sizes and times come from Hadoop's FileSystem (any file system Spark reads); where that
    is not reachable (Spark Connect), the digest covers the paths only and the size is 0.
    """
    files = sorted(frame.inputFiles())
    if not files:
        return "", 0, 0
    lines, total = [], 0
    try:
        jvm = spark.sparkContext._jvm
        conf = spark.sparkContext._jsc.hadoopConfiguration()
        assert jvm is not None
        for name in files:
            path = jvm.org.apache.hadoop.fs.Path(name)
            status = path.getFileSystem(conf).getFileStatus(path)
            total += int(status.getLen())
            lines.append(f"{name}\t{status.getLen()}\t{status.getModificationTime()}")
    except Exception:  # no JVM gateway: paths only
        lines, total = list(files), 0
    return hashlib.sha256("\n".join(lines).encode()).hexdigest(), total, len(files)
