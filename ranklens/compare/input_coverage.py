"""The judgement coverage of one comparison's inputs: judged@k of both runs per metric and row,
the guardrail, and the robustness view (every treatment of unjudged documents).

The ``LoadedInputs`` side of ``ranklens.compare.coverage``: it scores what the measures need
through the inputs' memo (``LoadedInputs.scored_for``) and hands the numbers to
``ranklens.compare.coverage``, which does the arithmetic. It reads no file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from ranklens.compare import coverage as cov
from ranklens.compare import scoring
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.scored import results, scored_for
from ranklens.compare.scoring import settings_key
from ranklens.compare.segments import MetricComparison, compare_metrics
from ranklens.compare.settings import CompareSettings
from ranklens.data import MetricResult

__all__ = ["coverage", "robustness", "treatment_note"]


def treatment_note(inputs: LoadedInputs, treatment: str) -> str:
    """What a treatment of unjudged documents did to these inputs, in words
    (``LoadedInputs.treatment_note``)."""
    return inputs.treatment_note(treatment)


def coverage(inputs: LoadedInputs, settings: CompareSettings,
             comparisons: tuple[MetricComparison, ...], segments: Mapping[str, str] | None,
             queries: Mapping[str, frozenset[str]] | None = None) -> cov.Coverage:
    """Judged@k of both runs (A and B) per metric and row, the guardrail, and the
    robustness view. ``queries`` (per metric) restricts judged@k to the queries a
    comparison paired when that was narrower than A and B's own (several candidates)."""
    treatment = settings.unjudged
    # coverage is measured on the lists as retrieved: condensed lists have no holes left
    measured = "nonrelevant" if treatment == "judged-only" else treatment
    eval_a, eval_b = scored_for(inputs, replace(settings, unjudged=measured), measured)
    depths_a, depths_b = inputs.ranking_depths()
    scored_a, scored_b = scored_for(inputs, settings, treatment)

    def within(result: MetricResult | None, metric: str) -> MetricResult | None:
        if result is None or queries is None or metric not in queries:
            return result
        wanted = queries[metric]
        # a set lookup per query: np.isin on object arrays compares every pair
        mask = np.fromiter((q in wanted for q in result.query_ids.tolist()), dtype=bool,
                           count=len(result.query_ids))
        return result if mask.all() else result.restrict(mask)

    metrics = []
    for comparison in comparisons:
        metric = comparison.metric
        judged = cov.judged_name(cov.coverage_depth(metric))
        guarded, note = True, ""
        if treatment == "judged-only":
            guarded, note = False, "judged-only lists hold no unjudged document"
        judged_a, judged_b = (within(eval_a.results[judged], metric),
                              within(eval_b.results[judged], metric))
        assert judged_a is not None and judged_b is not None
        metrics.append(cov.metric_coverage(
            comparison, judged_a, judged_b, depths_a, depths_b, segments=segments,
            missing=settings.missing,
            residual_a=within(scored_a.residuals.get(metric), metric),
            residual_b=within(scored_b.residuals.get(metric), metric),
            guarded=guarded, note=note))
    rows = inputs.run_rows(0) + inputs.run_rows(1)
    wanted = (rows <= scoring.ROBUSTNESS_EAGER_ROWS or treatment != "nonrelevant"
              or any(m.alert for m in metrics))
    if wanted and _can_score(inputs, settings, inputs.treatments):
        return cov.Coverage(treatment, tuple(metrics), robustness(inputs, settings))
    if wanted:
        note = ("Robustness view not computed: the runs were scored one at a time as they "
                f"were read and not kept (they hold {rows:,} rows); compare this candidate "
                "with the baseline alone to see it.")
    else:
        note = (f"Robustness view not computed: no coverage banner, and the runs hold "
                f"{rows:,} rows (above {scoring.ROBUSTNESS_EAGER_ROWS:,}, judged-only lists "
                "cost a pass over every row); ask for another treatment of unjudged documents "
                "to see it.")
    return cov.Coverage(treatment, tuple(metrics), {}, (note,))


def _can_score(inputs: LoadedInputs, settings: CompareSettings,
               treatments: Sequence[str]) -> bool:
    """Whether every run can be scored (or was) for ``settings`` under ``treatments``."""
    if all(run is not None for run in inputs.runs):
        return True
    return all(settings_key(settings, t) in inputs.cache for t in treatments)


def robustness(inputs: LoadedInputs, settings: CompareSettings
               ) -> dict[str, tuple[cov.TreatmentResult, ...]]:
    """The robustness view: each metric's overall comparison of A and B under every
    treatment of unjudged documents these inputs allow (non-relevant, judged-only, and
    proxy labels when proxy judgements were given), with the same statistics settings.
    With several candidates, ask a `pair`."""
    by_treatment = {}
    for treatment in inputs.treatments:
        variant = replace(settings, unjudged=treatment, segment_column=None)
        results_a, results_b, _ = results(inputs, variant)
        comparisons = compare_metrics(results_a, results_b, None, variant.segment_options())
        informative = treatment != "proxy" or inputs.filled_qrels().n_filled > 0
        by_treatment[treatment] = ({c.metric: c.overall for c in comparisons},
                                   treatment_note(inputs, treatment), informative)
    return {metric: tuple(cov.TreatmentResult(t, results[metric], note, informative)
                          for t, (results, note, informative) in by_treatment.items())
            for metric in settings.metrics}
