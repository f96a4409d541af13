"""A Spark session for ranklens, and the job descriptions the Spark UI shows for its work.

``session()`` is a convenience for the CLI, the tests and a laptop: on a cluster, pass the
session you already have to ``read_run``, ``evaluate`` and ``compare`` instead. It does not
tune Spark beyond what ranklens needs (Python workers on this interpreter, Arrow batches).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[*]"


def session(
    master: str = DEFAULT_MASTER,
    *,
    app_name: str = "ranklens",
    config: Mapping[str, Any] | None = None,
) -> SparkSession:
    """Get or create a ``SparkSession`` whose Python workers run this interpreter.

    ``PYSPARK_PYTHON`` is set to ``sys.executable`` unless already set, so that workers import
    the same ranklens, numpy and pyarrow as the driver. ``config`` entries are passed to the
    builder (e.g. ``{"spark.driver.memory": "2g"}``; driver memory only takes effect when no
    JVM is running yet). An existing session is returned as it is (Spark's getOrCreate).
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in (config or {}).items():
        builder = builder.config(key, str(value))
    return builder.getOrCreate()


@contextmanager
def described(spark: SparkSession, text: str) -> Iterator[None]:
    """Jobs started inside the block carry ``text`` as their description in the Spark UI.

    The previous description is restored afterwards. A Spark Connect session (which has no
    ``sparkContext``) is left as it is.
    """
    try:
        context = spark.sparkContext
    except Exception:  # Spark Connect: descriptions are not settable from the client
        yield
        return
    previous = context.getLocalProperty("spark.job.description")
    context.setJobDescription(text)
    try:
        yield
    finally:
        context.setJobDescription(previous)  # type: ignore[arg-type]
