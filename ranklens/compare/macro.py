"""Several test collections in one report: the macro average of B - A over collections.

A segment column may be declared the collection (``ranklens compare --collection
FILE:COLUMN``, the Compare page's "Collections" control). The report then leads with the macro
average, the mean over collections of each collection's mean difference
(`ranklens.stats.macro_compare`: stratified bootstrap within collections, stratified sign-flip
p), with the pooled mean over all queries beside it; and one comparison per collection (the
rows of a per-collection forest plot, with q-values across the collections and their FCR
intervals, `ranklens.compare.segments.compare_segments` with the collections as segments).

`macro_section` computes one metric and candidate from per-query values (nothing is scored
again): a `MacroSection`; `ranklens.compare.steps.with_macro` adds one per metric and candidate
to a finished report; the faces render it
(``ranklens.compare.sections.collections``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ranklens import codec
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


def macro_section(metric: str, values_a: Mapping[str, float], values_b: Mapping[str, float],
             collections: Mapping[str, str], column: str, statistics: PairedOptions,
             candidate: int) -> MacroSection:
    """One metric and candidate over ``collections``: the per-collection comparison and the
    macro average of B - A (None, with a ``note``, when a collection is too small)."""
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
