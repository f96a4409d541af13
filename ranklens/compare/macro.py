"""Several test collections in one report: the macro average of B - A over collections.

A segment column may be declared the collection (``ranklens compare --collection
FILE:COLUMN``, the Compare page's "Collections" control). The report then leads with the macro
average, the mean over collections of each collection's mean difference
(`ranklens.stats.macro_compare`: stratified bootstrap within collections, stratified sign-flip
p), with the pooled mean over all queries beside it; and one comparison per collection (the
rows of a per-collection forest plot, with q-values across the collections and their FCR
intervals, `ranklens.compare.segments.compare_segments` with the collections as segments).

`with_macro` adds this to a finished report from its per-query values (nothing is scored
again), one `MacroSection` per metric and candidate; the faces render it
(``ranklens.compare.macro_views``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ranklens import codec
from ranklens.compare.family import run_key
from ranklens.compare.segments import (
    UNSEGMENTED,
    MetricComparison,
    SegmentOptions,
    compare_segments,
)
from ranklens.data import MetricResult
from ranklens.stats import InsufficientSampleError, MacroComparison, PairedOptions, macro_compare
from ranklens.stats.macro import CollectionMean
from ranklens.stats.pairing import pair_quietly

if TYPE_CHECKING:
    from ranklens.compare.report import InputRecord, Report

MACRO_INTERVAL = "studentized"
"""The macro interval: stratified bootstrap-t, as `compare` shows from 20 queries."""


@dataclass(frozen=True)
class MacroSection:
    """One metric and candidate over the collections of ``column``.

    ``macro`` is the macro average of B - A with its stratified interval and p-value (None
    when a collection has fewer than 2 paired queries: ``note`` says which); ``collections``
    the comparison per collection (its ``segments``; its overall row is the pooled one).
    ``mean_a``/``mean_b`` are the macro averages of each run's per-collection means.
    """

    metric: str
    column: str
    collections: MetricComparison
    macro: MacroComparison | None
    mean_a: float
    mean_b: float
    candidate: int = 1
    note: str = ""

    @property
    def n_collections(self) -> int:
        return len(self.collections.segments)


def with_macro(report: Report, collections: Mapping[str, str], column: str,
               record: InputRecord | None = None) -> Report:
    """``report`` with a `MacroSection` per metric and candidate over ``collections`` (query
    id -> collection name; queries absent from it form "(no segment)", reported, not dropped),
    and ``record`` (the collection map's input) among its inputs."""
    params, default = report.params, PairedOptions()
    statistics = PairedOptions(
        alpha=float(params.get("alpha", default.alpha)),
        n_resamples=int(params.get("n_resamples", default.n_resamples)),
        n_permutations=int(params.get("n_permutations", default.n_permutations)),
        seed=int(params.get("seed", 0)), missing=params.get("missing", default.missing),
        interval=params.get("interval", default.interval),
        min_queries=int(params.get("min_queries", default.min_queries)))
    sections = []
    for candidate in report.candidates:
        key = run_key(candidate)
        for metric in report.metrics:
            values = report.per_query.get(metric)
            if values is None or key not in values:
                continue
            sections.append(_section(metric, values["a"], values[key], collections, column,
                                     statistics, candidate))
    inputs = report.inputs if record is None else (*report.inputs, record)
    params = {**report.params, "collection_column": column}
    return dataclasses.replace(report, macro=tuple(sections), inputs=inputs, params=params)


def _section(metric: str, values_a: Mapping[str, float], values_b: Mapping[str, float],
             collections: Mapping[str, str], column: str, statistics: PairedOptions,
             candidate: int) -> MacroSection:
    options = SegmentOptions(statistics, "bh", column)
    # the comparison carries its notes in words (``warnings``); the pairing's are the same
    per_collection = compare_segments(MetricResult(metric, values_a),
                                      MetricResult(metric, values_b), collections, options)
    paired = pair_quietly(values_a, values_b, missing=statistics.missing, min_queries=0)
    names = [collections.get(q, UNSEGMENTED) for q in paired.queries.tolist()]
    deltas: dict[str, list[float]] = {}
    means_a: dict[str, list[float]] = {}
    means_b: dict[str, list[float]] = {}
    for name, a, b in zip(names, paired.a.tolist(), paired.b.tolist(), strict=True):
        deltas.setdefault(name, []).append(b - a)
        means_a.setdefault(name, []).append(a)
        means_b.setdefault(name, []).append(b)
    mean_a = sum(sum(v) / len(v) for v in means_a.values()) / max(len(means_a), 1)
    mean_b = sum(sum(v) / len(v) for v in means_b.values()) / max(len(means_b), 1)
    macro, note = None, ""
    try:
        macro = macro_compare(deltas, alpha=statistics.alpha,
                              n_resamples=statistics.n_resamples,
                              n_permutations=statistics.n_permutations, seed=statistics.seed,
                              interval=MACRO_INTERVAL)
    except InsufficientSampleError as error:
        note = f"No macro average: {error}"
    return MacroSection(metric, column, per_collection, macro, mean_a, mean_b, candidate, note)


def candidate_sections(sections: tuple[MacroSection, ...],
                       candidate: int) -> tuple[MacroSection, ...]:
    """The sections of one candidate, as its two-run view holds them (candidate 1)."""
    return tuple(dataclasses.replace(s, candidate=1) for s in sections
                 if s.candidate == candidate)


codec.register(CollectionMean, codec.Form(order=("name", "n_queries", "mean")))
codec.register(MacroSection, codec.Form(
    order=("metric", "column", "macro", "mean_a", "mean_b", "collections"),
    omit_default=("candidate", "note")))
