"""The report step of "and where?": slices where B - A differs, found and confirmed (issue 48).

`with_discovery` answers, for a two-run report (or the first candidate of several), on the
first metric: which groups of queries have a B - A unlike the rest's, searched over every
column of the segment map, their pairs, and what ranklens knows of each query (judged relevant
documents; each run's judged@k; the top-10 overlap of the two runs when the runs are at hand;
the query's length in terms when its text is given; the baseline's own score, with its
regression-to-the-mean caveat), each half of a random split searching for slices that the
other half confirms (cross-fitting, `ranklens.stats.slices`). It keeps the report's numbers as they
are and adds ``Report.discovered`` and ``params["discover"]`` (the split, its seed, how many
slices were searched). Per-query tables (no judgements) get the segment map's columns and the
baseline's score only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.query_features import (
    BASELINE_CAVEAT,
    judged_relevant,
    query_terms,
    top_k_overlap,
)
from ranklens.compare.report import Report
from ranklens.compare.slice_result import DiscoveredSlice
from ranklens.stats.slices import MIN_SLICE, binned, discover_slices

SPLIT = 0.5


def with_discovery(report: Report, inputs: LoadedInputs, seed: int = 0, *,
                   query_texts: Mapping[str, str] | None = None) -> Report:
    """``report`` with the slices found on its first metric (see the module's text); with
    ``query_texts``, the queries' length in terms is searched too."""
    metric = report.metrics[0]
    values = report.per_query.get(metric, {})
    keys = list(values)
    if len(keys) < 2:
        return report
    a, b = values[keys[0]], values[keys[1]]
    ids = sorted(set(a) & set(b))
    deltas = np.array([b[q] - a[q] for q in ids], dtype=np.float64)
    features: dict[str, list[str]] = {}
    for column, mapping in (inputs.segment_maps or {}).items():
        features[column] = [str(mapping.get(q, "(none)")) for q in ids]
    qrels = inputs.qrels
    if qrels is not None:
        features["judged relevant"] = judged_relevant(ids, qrels)
    run_a, run_b = (*tuple(inputs.runs or ()), None, None)[:2]
    if run_a is not None and run_b is not None and qrels is not None:
        features["top-10 overlap"] = top_k_overlap(ids, run_a, run_b, 10)
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is not None:  # judged@k of each run, as the coverage step measured it
        for side, key in (("A", "judged_a"), ("B", "judged_b")):
            judged = coverage.per_query.get(key)
            if judged:
                features[f"judged@{coverage.depth} {side}"] = binned(
                    [judged.get(q, 0.0) for q in ids])
    if query_texts:
        features["query terms"] = query_terms(ids, query_texts)
    features["baseline score"] = binned([a[q] for q in ids])
    found = discover_slices(deltas, features, seed=seed, split=SPLIT)
    alpha = float(report.params.get("alpha", 0.05))
    slices = tuple(DiscoveredSlice(**s.held_out(), columns=dict(s.columns),
                                   confirmed=s.q_value <= alpha,
                                   queries=members(ids, features, dict(s.columns)))
                   for s in found.slices)
    params = {**report.params, "discover": {
        "metric": metric, "split": SPLIT, "seed": seed, "min_size": MIN_SLICE,
        "searched": found.n_candidates, "search_queries": found.n_search,
        "confirm_queries": found.n_confirm, "tests": found.n_tests, "method": "cross-fitted",
        "features": list(features),
        "caveat": BASELINE_CAVEAT}}
    return dataclasses.replace(report, params=params, discovered=slices)


def members(ids: list[str], features: dict[str, list[str]], columns: dict[str, str]
            ) -> tuple[str, ...]:
    """The queries of ``ids`` whose every feature named in ``columns`` has its value."""
    return tuple(q for i, q in enumerate(ids)
                 if all(features[name][i] == value for name, value in columns.items()))


__all__ = ["DiscoveredSlice", "members", "with_discovery"]
