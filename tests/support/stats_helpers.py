"""Helpers shared by the ranklens.stats tests (imported by name: tests/stats is on sys.path)."""

from __future__ import annotations

import numpy as np

from ranklens.data import MetricResult


def results_from(
    a: np.ndarray, b: np.ndarray, metric: str = "nDCG@10"
) -> tuple[MetricResult, MetricResult]:
    """Two MetricResults over queries q000, q001, ... with the given values."""
    queries = [f"q{i:03d}" for i in range(len(a))]
    return (
        MetricResult(metric, dict(zip(queries, map(float, a), strict=True)), run="A"),
        MetricResult(metric, dict(zip(queries, map(float, b), strict=True)), run="B"),
    )
