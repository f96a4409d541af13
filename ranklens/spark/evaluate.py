"""trec_eval-exact per-query metrics of runs held as Spark DataFrames.

How the work is laid out (one shuffle, no Python call per query):

1. the qrels rows and the rows of every run are stacked into one frame ``query_id, doc_id,
   value, side`` (``side`` 0 = qrels, ``r + 1`` = run ``r``);
2. ``repartition(query_id)`` brings every row of a query, run and qrels alike, to one task,
   and ``sortWithinPartitions(query_id)`` (Spark's external sort: it spills, it does not hold
   the partition in memory) puts them next to each other;
3. ``mapInArrow`` hands the sorted rows to ``ranklens.spark.batches.score_batches``, which
   scores a few hundred thousand rows (thousands of queries) per call with the local
   engine's vectorised kernels, carrying a query cut by a batch boundary over to the next.

The values are those of ``ranklens.metrics.evaluate`` (same code on the same rows of each
query). Only per-query numbers ever leave the executors; nothing is cached.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from ranklens.data import MetricResult
from ranklens.metrics.evaluate import Evaluation, metric_specs
from ranklens.metrics.names import MetricSpec
from ranklens.spark.batches import ScoringPlan, score_batches
from ranklens.spark.problems import input_errors
from ranklens.spark.read import source_of
from ranklens.spark.session import described

DEFAULT_CHUNK_ROWS = 1 << 18
_RUN_COLUMNS = ("query_id", "doc_id", "score")
_QRELS_COLUMNS = ("query_id", "doc_id", "relevance")


@dataclass(frozen=True)
class QueryCounts:
    """How many queries were scored, ignored (run only) and missing (judged, not in the run),
    and how many run and qrels rows the scored queries had."""

    scored: int
    ignored: int
    missing: int
    run_rows: int
    judged_rows: int


@dataclass(frozen=True)
class SparkEvaluation:
    """Per-query metric values of one run, computed lazily on Spark.

    ``frame``: ``query_id`` + one double column per metric (canonical names, e.g. ``nDCG@10``),
    one row per scored query, plus the missing queries at 0 with ``missing="zero"``.
    ``queries``: every query of the run or the qrels with its ``status`` (``scored``,
    ``ignored``, ``missing``), ``rows`` (run rows) and ``judged`` (qrels rows).

    Both are plain, uncached DataFrames: every action on them runs the scoring job again.
    ``counts()`` and ``collect()`` each run it once; cache ``scored`` yourself if you want
    several actions on one scoring.
    """

    scored: DataFrame
    metrics: tuple[str, ...]
    missing_policy: str
    inputs: tuple[DataFrame, ...]  # qrels, run: for error messages
    run_name: str = ""
    relevance_level: int = 1
    gain: str = "linear"

    @property
    def frame(self) -> DataFrame:
        statuses = ["scored", "missing"] if self.missing_policy == "zero" else ["scored"]
        return self.scored.where(F.col("status").isin(statuses)).select(
            "query_id", *(F.col(f"`{name}`") for name in self.metrics))

    @property
    def queries(self) -> DataFrame:
        return self.scored.select("query_id", "status", "rows", "judged")

    def counts(self) -> QueryCounts:
        """Scored, ignored and missing queries (one Spark job over the scoring)."""
        with input_errors(self.inputs), described(
                self.scored.sparkSession, f"ranklens: counting the queries of {self.run_name}"):
            rows = self.scored.groupBy("status").agg(
                F.count("*").alias("n"), F.sum("rows").alias("rows"),
                F.sum("judged").alias("judged")).collect()
        by_status = {row["status"]: row for row in rows}

        def count(status: str, column: str = "n") -> int:
            row = by_status.get(status)
            return int(row[column] or 0) if row is not None else 0

        return QueryCounts(count("scored"), count("ignored"), count("missing"),
                           count("scored", "rows"), count("scored", "judged"))

    def collect(self) -> Evaluation:
        """The local ``Evaluation`` (per-query values on the driver), from one Spark job."""
        with input_errors(self.inputs), described(
                self.scored.sparkSession, f"ranklens: scoring {self.run_name} per query"):
            table = self.scored.toArrow()
        return evaluation_of(table, self.metrics, self.missing_policy, self.run_name,
                             relevance_level=self.relevance_level, gain=self.gain)


def evaluate(
    run: DataFrame,
    qrels: DataFrame,
    metrics: Iterable[str | MetricSpec] | str,
    *,
    missing: str = "drop",
    relevance_level: int = 1,
    gain: str = "linear",
    judged_only: bool = False,
    partitions: int | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> SparkEvaluation:
    """Per-query values of ``metrics`` for ``run`` against ``qrels``, as trec_eval computes them.

    ``run`` has ``query_id, doc_id, score``; ``qrels`` has ``query_id, doc_id, relevance``
    (``read_run``/``read_qrels`` give these). Semantics, names and options are those of
    ``ranklens.metrics.evaluate`` (score descending, ties by document id descending; queries
    only in the run are ignored; judged queries missing from the run are dropped or, with
    ``missing="zero"``, scored as an empty ranking; ``judged_only`` is trec_eval's ``-J``).
    ``partitions`` sets the shuffle's partition count (default:
    Spark's, coalesced by adaptive execution); ``chunk_rows`` the rows scored per Python call.

    Nothing runs until an action; a duplicate (query, document) pair or a bad value then
    stops the job (``counts()``/``collect()`` raise ``InputError`` naming file and rows).
    """
    specs = metric_specs(metrics, gain=gain, relevance_level=relevance_level)
    if missing not in ("drop", "zero"):
        raise ValueError(f"missing must be 'drop' or 'zero', not {missing!r}")
    scored = score_runs([run], qrels, specs, missing=missing, partitions=partitions,
                        chunk_rows=chunk_rows, judged_only=judged_only).drop("run")
    name = source_of(run, "run")
    return SparkEvaluation(scored, tuple(spec.name for spec in specs), missing, (qrels, run),
                           run_name=name, relevance_level=relevance_level, gain=gain)


def score_runs(
    runs: Sequence[DataFrame],
    qrels: DataFrame,
    specs: Sequence[MetricSpec],
    *,
    missing: str = "drop",
    partitions: int | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    judged_only: bool = False,
) -> DataFrame:
    """Scored rows of several runs against one qrels in one shuffle (lazy).

    Columns: ``run`` (0-based index into ``runs``), ``query_id``, ``status``, ``rows``,
    ``judged`` and one double per metric (null where a query has no value). Scoring A and B
    together shuffles the qrels once instead of twice.
    """
    _require(qrels, _QRELS_COLUMNS, "qrels")
    for r, run in enumerate(runs):
        _require(run, _RUN_COLUMNS, f"run {r + 1}")
    sources = (source_of(qrels, "qrels"),
               *(source_of(run, f"run {r + 1}") for r, run in enumerate(runs)))
    plan = ScoringPlan(tuple(specs), sources, missing, chunk_rows, judged_only)
    parts = [_side(qrels, "relevance", 0)]
    parts += [_side(run, "score", r + 1) for r, run in enumerate(runs)]
    rows = functools.reduce(DataFrame.unionByName, parts)
    rows = rows.repartition(partitions, "query_id") if partitions else \
        rows.repartition("query_id")
    rows = rows.sortWithinPartitions("query_id")
    return rows.mapInArrow(functools.partial(_score, plan=plan), spark_schema(plan))


def _score(batches: Iterator[pa.RecordBatch], plan: ScoringPlan) -> Iterator[pa.RecordBatch]:
    return score_batches(batches, plan)


def _side(frame: DataFrame, value: str, side: int) -> DataFrame:
    return frame.select(F.col("query_id").cast("string").alias("query_id"),
                        F.col("doc_id").cast("string").alias("doc_id"),
                        F.col(value).cast("double").alias("value"),
                        F.lit(side).cast("int").alias("side"))


def _require(frame: DataFrame, columns: Sequence[str], what: str) -> None:
    absent = [column for column in columns if column not in frame.columns]
    if absent:
        raise ValueError(f"{what} has no column {', '.join(map(repr, absent))} (its columns: "
                         f"{', '.join(frame.columns)}); read it with ranklens.spark.read_"
                         f"{'qrels' if what == 'qrels' else 'run'} or rename the columns")


def spark_schema(plan: ScoringPlan) -> T.StructType:
    """The Spark schema of ``plan.output_schema()``."""
    fields = [T.StructField("run", T.IntegerType(), False),
              T.StructField("query_id", T.StringType(), False),
              T.StructField("status", T.StringType(), False),
              T.StructField("rows", T.LongType(), False),
              T.StructField("judged", T.LongType(), False)]
    fields += [T.StructField(name, T.DoubleType(), True) for name in plan.metric_names]
    return T.StructType(fields)


def evaluation_of(table: pa.Table, metrics: Sequence[str], missing: str,
                  run_name: str = "", *, relevance_level: int = 1,
                  gain: str = "linear") -> Evaluation:
    """A local ``Evaluation`` from the collected scored rows of one run."""
    keep = ["scored", "missing"] if missing == "zero" else ["scored"]
    status = table.column("status")
    kept = table.filter(pc.is_in(status, pa.array(keep)))
    query_ids = kept.column("query_id").to_pylist()
    results = {name: MetricResult.from_arrays(
        name, query_ids, kept.column(name).to_numpy(), run=run_name) for name in metrics}

    def ids(which: str) -> tuple[str, ...]:
        found = table.filter(pc.equal(status, which)).column("query_id").to_pylist()
        return tuple(sorted(found))

    ignored, absent = ids("ignored"), ids("missing")
    return Evaluation(results, ignored, absent, missing, run=run_name,
                      relevance_level=relevance_level, gain=gain)
