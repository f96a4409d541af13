"""From per-query results to a Report: the statistics of the settings, and the inputs' records.

`report_from_results` (two runs) and `report_from_run_results` (a baseline and candidates)
run the comparisons of ``ranklens.compare.segments`` / ``ranklens.compare.family`` on values
already scored (locally, on Spark or elsewhere); `scoring_notes` and `input_record` say in
words and records what the scoring and reading saw. Nothing here reads or scores a file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from ranklens import io
from ranklens.compare.family import compare_runs, run_key
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.segments import compare_metrics
from ranklens.compare.settings import CompareSettings, settings_dict
from ranklens.data import MetricResult
from ranklens.io import InputFile
from ranklens.metrics import Evaluation


def scoring_notes(labels: Sequence[str], evaluations: Sequence[Evaluation],
                  missing: str) -> list[str]:
    """In words, per run: queries not scored for lack of judgements, judged queries absent."""
    notes: list[str] = []
    for label, ev in zip(labels, evaluations, strict=True):
        if ev.n_ignored:
            notes.append(f"{label}: {ev.n_ignored} queries have no judgements and are not "
                         "scored (as trec_eval does)")
        if ev.n_missing:
            verb = "scored 0 (trec_eval -c)" if missing == "zero" else "left out"
            notes.append(f"{label}: {ev.n_missing} judged queries are not in the run: {verb}")
    return notes


def report_from_results(
    settings: CompareSettings,
    results_a: Mapping[str, MetricResult],
    results_b: Mapping[str, MetricResult],
    notes: list[str],
    *,
    inputs: tuple[InputRecord, ...],
    segment_maps: Mapping[str, Mapping[str, str]],
    run_names: tuple[str, str],
) -> Report:
    """The Report of per-query results already computed (here, on Spark, or elsewhere).

    Runs the segment comparisons and statistics of ``settings`` on ``results_a``/``results_b``
    and records ``inputs`` as given; it reads no file and scores nothing.
    """
    return report_from_run_results(settings, [results_a, results_b], notes, inputs=inputs,
                                   segment_maps=segment_maps, run_names=run_names)


def report_from_run_results(
    settings: CompareSettings,
    per_run: Sequence[Mapping[str, MetricResult]],
    notes: list[str],
    *,
    inputs: tuple[InputRecord, ...],
    segment_maps: Mapping[str, Mapping[str, str]],
    run_names: Sequence[str],
) -> Report:
    """`report_from_results` for a baseline (``per_run[0]``) and one or more candidates.

    Two runs: B against A as ever. Several candidates: each against the baseline on the
    queries all runs share, with the family's adjusted p (``ranklens.compare.family``).
    """
    segments = None
    if settings.segment_column is not None:
        if settings.segment_column not in segment_maps:
            raise ValueError(f"no segment column {settings.segment_column!r}; the segment "
                             f"map has {list(segment_maps) or 'none'}")
        segments = segment_maps[settings.segment_column]
    if len(per_run) == 2:
        results_a, results_b = per_run
        comparisons = compare_metrics(results_a, results_b, segments,
                                      settings.segment_options())
        messages = list(dict.fromkeys([*notes, *(w for c in comparisons for w in c.warnings)]))
        return Report(
            params=settings_dict(settings, run_names),
            inputs=inputs,
            comparisons=comparisons,
            per_query={m: {"a": dict(results_a[m].per_query), "b": dict(results_b[m].per_query)}
                       for m in results_a},
            warnings=tuple(messages),
            run_names=tuple(run_names),
        )
    several, families, aligned, caught = compare_runs(
        per_run, run_names, segments, settings.family_options())
    return Report(
        params=settings_dict(settings, run_names),
        inputs=inputs,
        comparisons=several,
        per_query={m: {run_key(i): dict(result.per_query)
                       for i, result in enumerate(runs)} for m, runs in aligned.items()},
        warnings=tuple(dict.fromkeys([*notes, *caught])),
        run_names=tuple(run_names),
        families=families,
    )


def demo_files() -> dict[str, InputFile]:
    """The bundled demo inputs as InputFiles, by role."""
    from ranklens import demo

    return {role: InputFile.from_path(role, path) for role, path in demo.paths().items()}


def input_record(file: InputFile, summary: io.ReadSummary | None) -> InputRecord:
    """How a report lists one input: role, name, digest, size and what the reader made of it."""
    plain: dict[str, Any] = {}
    if summary is not None:
        plain = {
            "format": summary.format, "rows": summary.rows, "queries": summary.queries,
            "documents": summary.documents, "compressed": summary.compressed,
            "columns": dict(summary.columns),
            # plain JSON values (lines as a list), so that a record reads back equal
            "set_aside": [{**asdict(item), "lines": list(item.lines)}
                          for item in summary.set_aside],
            "notes": list(summary.notes), "description": summary.describe(),
        }
    return InputRecord(file.role, file.name, file.sha256, len(file.data), plain)
