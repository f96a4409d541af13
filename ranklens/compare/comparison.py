"""The comparison Report of loaded inputs under settings, without its health section.

Answers "B against A (or each candidate against the baseline), overall and per segment, with
judgement coverage": scores through ``scored``, compares through ``assemble``, measures the
coverage through ``input_coverage``. The health step (``health_step``) and the report of
systems with several runs (``seeds``) build on it; nothing here draws.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import replace

from ranklens.compare import input_coverage
from ranklens.compare.assemble import report_from_run_results
from ranklens.compare.inputs import streamed_treatments
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.report import Report
from ranklens.compare.scored import run_results, scored_for
from ranklens.compare.scoring import settings_key
from ranklens.compare.settings import CompareSettings


def comparison_report(inputs: LoadedInputs, settings: CompareSettings,
                  progress: Callable[[str], None] | None = None) -> Report:
    """The comparison report for ``settings``, without its health section.

    Two runs: B against A as ever. A baseline and several candidates: each candidate
    against the baseline on the queries all runs share, with the family's adjusted p.
    """
    settings = settings.canonical() if inputs.tables is None else settings
    run_names = settings.run_names or inputs.default_run_names
    if len(run_names) != inputs.n_runs:
        raise ValueError(f"{len(run_names)} run names for {inputs.n_runs} runs")
    if progress and inputs.tables is None \
            and settings_key(settings, settings.unjudged) not in inputs.cache:
        progress("scoring the runs")
    per_run, notes = run_results(inputs, settings)
    inputs.check_shared_queries(per_run, settings.missing)
    notes = [*inputs.input_warnings(order=settings.order,
                                  relevance_level=settings.relevance_level,
                                  run_names=settings.run_names), *notes]
    if progress:
        progress("comparing")
    report = report_from_run_results(settings, per_run, notes, inputs=inputs.records,
                                     segment_maps=inputs.segment_maps, run_names=run_names)
    if inputs.qrels is None:
        return report
    if progress:
        progress("checking judgement coverage")
    segments = (None if settings.segment_column is None
                else inputs.segment_maps[settings.segment_column])
    if not report.several:
        return dataclasses.replace(
            report,
            coverage=input_coverage.coverage(inputs, settings, report.comparisons, segments))
    # each candidate's coverage against the baseline, on the queries its comparison used;
    # what pairs share (the baseline's scores and depths, filled qrels) is computed once
    if all(run is not None for run in inputs.runs):
        inputs.ranking_depths()
        largest = max(inputs.run_rows(i) for i in range(inputs.n_runs))
        shown = streamed_treatments(settings, largest, inputs.proxy_qrels is not None)
        for treatment in dict.fromkeys((settings.unjudged, "nonrelevant", *shown)):
            scored_for(inputs, replace(settings, unjudged=treatment), treatment)
    coverages = []
    for j in report.candidates:
        pair_settings = replace(settings, run_names=(run_names[0], run_names[j]))
        compared = {m: frozenset(values["a"]) for m, values in report.per_query.items()}
        coverages.append(input_coverage.coverage(
            inputs.pair(j), pair_settings,
            tuple(c for c in report.comparisons if c.candidate == j), segments, compared))
    return dataclasses.replace(report, candidate_coverage=tuple(coverages))
