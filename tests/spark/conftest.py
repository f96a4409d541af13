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
}


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from ranklens.spark import session

    spark = session("local[2]", app_name="ranklens-tests", config=SPARK_CONFIG)
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()
