"""One real Spark session (local[2]) for every Spark test of the run; skipped without pyspark.

CI installs pyspark through the ``spark`` extra and Java 17 from Debian (``.ci/run``), so these
tests run there; a machine without pyspark skips them with the reason below.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install '.[spark]' "
                    "(and Java 17+) to run the Spark engine tests")

from pyspark.sql import SparkSession

SPARK_CONFIG = {
    "spark.driver.memory": "2g",            # a shared 2-core box: keep the JVM small
    "spark.sql.shuffle.partitions": "4",    # tiny test data: few tasks, little overhead
    "spark.default.parallelism": "2",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.execution.arrow.maxRecordsPerBatch": "1000",  # several batches per partition
    # Short jobs on tiny data: the JIT's optimising tier and a parallel GC cost more CPU than
    # they save (the Spark tests took 59-63 CPU-s of Java with the defaults, 36-38 with these)
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
}


def _claim_spark_for_this_worker(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Fail when a second xdist worker starts a Spark session in the same run.

    Every Spark test carries ``xdist_group("spark")`` so that ``--dist loadgroup`` keeps them on
    one worker: one JVM (about 15 s to start and 2 GB) instead of one per worker. When the
    grouping silently stops working (pytest 9.2 with pytest-xdist 3.8 did:
    pytest-dev/pytest-xdist#1386), this says so instead of the suite just getting slower.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return
    claim = tmp_path_factory.getbasetemp().parent / "spark-session-worker"
    try:
        with claim.open("x") as handle:
            handle.write(worker)
    except FileExistsError:
        owner = claim.read_text()
        if owner != worker:
            pytest.fail(f"a second Spark session, on {worker}: {owner} started one already. "
                        "The Spark tests must share one worker (xdist_group 'spark' with "
                        "--dist loadgroup); check the pytest/pytest-xdist versions")


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparkSession]:
    _claim_spark_for_this_worker(tmp_path_factory)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from ranklens.spark import session

    spark = session("local[2]", app_name="ranklens-tests", config=SPARK_CONFIG)
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()
