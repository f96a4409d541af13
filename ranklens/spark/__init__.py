"""trec_eval-exact evaluation on Apache Spark, for runs past one machine (``ranklens[spark]``).

    from ranklens import spark as rs
    session = rs.session("local[*]")                 # or the SparkSession you already have
    run = rs.read_run(session, "s3://lake/runs/bm25/")
    qrels = rs.read_qrels(session, "s3://lake/qrels.parquet")
    evaluation = rs.evaluate(run, qrels, ["nDCG@10", "AP"])
    evaluation.frame.write.parquet("per_query/")     # query_id, nDCG@10, AP
    report = rs.compare(session, "runs/a/", "runs/b/", "qrels/",
                        CompareSettings(metrics=("nDCG@10",)))  # ranklens.compare.analysis

Spark scores (one shuffle, the local engine's kernels on Arrow batches of thousands of
queries); ranklens decides (the per-query values go to the same statistics as a local
comparison). This package is the only place ranklens imports pyspark; the rest of ranklens
works without it. Executors need ranklens installed as well as pyspark.
"""

from __future__ import annotations

import warnings

try:
    import pyspark  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised without the extra installed
    raise ImportError("ranklens.spark needs pyspark: pip install 'ranklens[spark]' "
                      "(and Java 17 or newer)") from error

# pyspark checks the pandas version whenever an Arrow UDF is declared; ranklens hands Spark
# pyarrow batches only (mapInArrow) and never converts through pandas, so the notice that
# pandas >= 3 is not fully supported does not concern this package's work.
warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas",
                        category=FutureWarning)

from ranklens.spark.compare import compare  # noqa: E402
from ranklens.spark.evaluate import QueryCounts, SparkEvaluation, evaluate, score_runs  # noqa: E402
from ranklens.spark.read import detect_format, read_qrels, read_run  # noqa: E402
from ranklens.spark.session import described, session  # noqa: E402

__all__ = [
    "QueryCounts",
    "SparkEvaluation",
    "compare",
    "described",
    "detect_format",
    "evaluate",
    "read_qrels",
    "read_run",
    "score_runs",
    "session",
]
