"""The per-query values of loaded inputs under settings: what every compare step scores.

Answers "the runs' per-query values of these metrics, under this treatment of unjudged
documents" (`scored_for`, memoized in the inputs' ``ScoreCache``), and the settings' metrics
of every run with notes in words (`run_results`, `results`). Nothing here compares.
"""

from __future__ import annotations

from ranklens.compare import coverage as cov
from ranklens.compare.assemble import scoring_notes
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.scoring import scored_names
from ranklens.compare.settings import CompareSettings
from ranklens.compare.tie_reading import readings_to_score
from ranklens.data import MetricResult
from ranklens.metrics import Evaluation, parse_metric


def scored_for(inputs: LoadedInputs, settings: CompareSettings,
               unjudged: str) -> tuple[Evaluation, ...]:
    """Every run scored on the settings' metrics and the judged@k their coverage needs, in
    one pass (judged@k of condensed lists says nothing, so judged-only lists get theirs
    from the full lists in a second pass, see ``comparison``), and under the settings' own
    treatment the other tie readings the tie sentence will read (`tie_reading`)."""
    extra = readings_to_score(inputs, settings) if unjudged == settings.unjudged else ()
    return inputs.evaluations((*scored_names(settings.metrics, unjudged), *extra),
                              missing=settings.missing, order=settings.order,
                              gain=settings.gain, relevance_level=settings.relevance_level,
                              unjudged=unjudged)


def run_results(inputs: LoadedInputs, settings: CompareSettings
                ) -> tuple[list[dict[str, MetricResult]], list[str]]:
    """Per-query results of every run for the settings' metrics, and notes in words."""
    notes: list[str] = []
    if inputs.tables is not None:
        names = list(settings.metrics)
        unknown = [m for m in names if any(m not in t for t in inputs.tables)]
        if unknown:
            raise ValueError(f"the per-query tables have no column for {unknown}; they "
                             f"have {list(inputs.available_metrics or ())}")
        if settings.unjudged != "nonrelevant":
            raise ValueError("per-query tables carry no judgements: unjudged documents "
                             "can only be treated as the tables' producer did")
        return [{m: table[m] for m in names} for table in inputs.tables], notes
    evaluations = scored_for(inputs, settings, settings.unjudged)
    labels = inputs.default_run_names if settings.run_names is None else settings.run_names
    notes = scoring_notes(labels, evaluations, settings.missing)
    if settings.unjudged != "nonrelevant":
        notes.append(f"{cov.TREATMENT_NAMES[settings.unjudged]}: "
                     f"{inputs.treatment_note(settings.unjudged)}")
    asked = [parse_metric(m).name for m in settings.metrics]
    return [{m: ev.results[m] for m in asked} for ev in evaluations], notes


def results(inputs: LoadedInputs, settings: CompareSettings
            ) -> tuple[dict[str, MetricResult], dict[str, MetricResult], list[str]]:
    """Per-query results of the baseline and the first candidate, and notes in words."""
    per_run, notes = run_results(inputs, settings)
    return per_run[0], per_run[1], notes
