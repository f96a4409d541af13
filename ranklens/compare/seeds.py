"""Systems given as several runs (training seeds): the report with both answers (issue 31).

`seeded_report` is what ``LoadedInputs.report`` returns when the settings group the runs
into systems (``CompareSettings.seed_runs``: how many runs, in order, each system has). Every
run is read and scored as any run is; then each system's runs are averaged per query, on the
queries all its runs scored (the others are left out, said in the report's warnings, with
which runs lacked them), and the report's comparisons (all the statistics, segments and
q-values of a comparison, several candidates with their family) are those of the means:
*these trained runs*. Its ``seeds`` section holds, per candidate and metric,
`ranklens.stats.compare_seeds` of the runs: *a new training run*, the variance components and
each of the candidate's runs against the baseline's mean, with the new-run p adjusted for the
family of candidates (Holm, `ranklens.stats.new_run_family`).

It does not measure judgement coverage or run health checks on the averaged systems (they are
properties of one ranking; the report says so), and it does not render.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ranklens.compare.assemble import report_from_run_results
from ranklens.compare.family import run_role
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.scored import run_results
from ranklens.compare.seed_section import SeedAnswer, SeedsSection
from ranklens.compare.settings import CompareSettings
from ranklens.data import MetricResult
from ranklens.stats.pairing import examples
from ranklens.stats.seeds import compare_seeds_with_notes, new_run_family

SEED_FAMILY_METHOD = "holm"


def system_slices(seed_runs: Sequence[int], n_runs: int) -> tuple[range, ...]:
    """The run indices of each system, in order; ``ValueError`` when they do not add up."""
    if sum(seed_runs) != n_runs:
        raise ValueError(f"seed_runs {tuple(seed_runs)} group {sum(seed_runs)} runs, but "
                         f"{n_runs} were given")
    starts = np.cumsum([0, *seed_runs])
    return tuple(range(int(starts[i]), int(starts[i + 1])) for i in range(len(seed_runs)))


def system_name(run_names: Sequence[str]) -> str:
    """A default name for a system from its runs' names: their common prefix without a
    trailing separator or "seed" (``n_seed1``, ``n_seed2`` -> ``n``), else the first name."""
    if len(run_names) == 1:
        return run_names[0]
    first = run_names[0]
    size = next((i for i in range(len(first))
                 if any(len(n) <= i or n[i] != first[i] for n in run_names)), len(first))
    prefix = first[:size].rstrip("_-. ")
    for tail in ("seed", "run", "fold"):
        if prefix.lower().endswith(tail):
            prefix = prefix[: -len(tail)].rstrip("_-. ")
    return prefix or run_names[0]


def seeded_report(inputs: LoadedInputs, settings: CompareSettings,
                  progress: Callable[[str], None] | None = None) -> Report:
    """The report of systems given as several runs (module docstring).

    ``settings.seed_runs`` groups ``inputs``' runs (baseline system first); ``run_names``,
    when given, names the systems. ``ValueError`` when the groups do not add up to the runs,
    or a system's runs share fewer than two queries.
    """
    seed_runs = settings.seed_runs
    assert seed_runs is not None
    if inputs.tables is None:
        settings = settings.canonical()
    slices = system_slices(seed_runs, inputs.n_runs)
    run_names = inputs.default_run_names
    systems = settings.run_names or tuple(
        system_name([run_names[i] for i in group]) for group in slices)
    if len(systems) != len(slices):
        raise ValueError(f"{len(systems)} system names for {len(slices)} systems")
    flat = dataclasses.replace(settings, run_names=run_names, seed_runs=None,
                               segment_column=None)
    if progress:
        progress("scoring the runs")
    per_run, notes = run_results(inputs, flat)
    inputs.check_shared_queries(per_run, settings.missing)
    notes = [*inputs.input_warnings(order=settings.order,
                                    relevance_level=settings.relevance_level,
                                    run_names=run_names), *notes]
    means = []
    for name, group in zip(systems, slices, strict=True):
        averaged, dropped = _system_means([per_run[i] for i in group],
                                          [run_names[i] for i in group], name)
        means.append(averaged)
        notes.extend(dropped)
    if inputs.qrels is not None:
        notes.append("Judgement coverage and the health checks are measured run by run: they "
                     "are not shown for systems given as several runs (compare one run of "
                     "each system to see them).")
    if progress:
        progress("comparing")
    shown = dataclasses.replace(settings, run_names=tuple(systems))
    report = report_from_run_results(shown, means, notes, inputs=_records(inputs, slices),
                                     segment_maps=inputs.segment_maps, run_names=systems)
    if progress:
        progress("comparing each seed")
    section = SeedsSection(
        systems=tuple(systems),
        runs=tuple(tuple(run_names[i] for i in group) for group in slices),
        answers=_answers(settings, [[per_run[i] for i in group] for group in slices],
                         [[run_names[i] for i in group] for group in slices]),
        family_method=SEED_FAMILY_METHOD)
    seed_notes = [n for a in section.answers for n in _seed_notes(a, systems)]
    return dataclasses.replace(
        report, seeds=section,
        warnings=tuple(dict.fromkeys([*report.warnings, *seed_notes])))


def _system_means(results: Sequence[Mapping[str, MetricResult]], names: Sequence[str],
                  system: str) -> tuple[dict[str, MetricResult], list[str]]:
    """Per metric, the per-query mean over a system's runs on the queries all of them scored,
    and a sentence per metric where some were left out (which, and which runs lacked them)."""
    means: dict[str, MetricResult] = {}
    notes: list[str] = []
    for metric in results[0]:
        sets = [set(r[metric].query_ids.tolist()) for r in results]
        common = sorted(set.intersection(*sets))
        left_out = sorted(set.union(*sets) - set(common))
        if len(common) < 2:
            raise ValueError(f"the runs of {system} share {len(common)} queries scored for "
                             f"{metric}: every seed of a system must be scored on the same "
                             "queries")
        if left_out:
            lacking = [name for name, s in zip(names, sets, strict=True) if left_out[0] not in s]
            notes.append(f"{system}: {len(left_out)} queries left out of {metric} because not "
                         f"every run of it scored them ({examples(left_out)}; e.g. "
                         f"{left_out[0]} is not scored by {', '.join(lacking)}): every seed "
                         "of a system must be scored on the same queries")
        wanted = np.array(common, dtype=object)
        matrix = np.column_stack([
            r[metric].values[np.searchsorted(r[metric].query_ids, wanted)] for r in results])
        means[metric] = MetricResult.from_arrays(metric, wanted, matrix.mean(axis=1),
                                                 run=system)
    return means, notes


def _answers(settings: CompareSettings, systems: Sequence[Sequence[Mapping[str, MetricResult]]],
             names: Sequence[Sequence[str]]) -> tuple[SeedAnswer, ...]:
    """`compare_seeds` of every candidate system against the baseline's, per metric, and the
    family-wise adjusted new-run p with several candidates."""
    answers: list[SeedAnswer] = []
    metrics = list(systems[0][0])
    options = settings.paired_options()
    for j in range(1, len(systems)):
        for metric in metrics:
            # its notes are in the report already, in other words: the dropped queries by
            # `_seed_notes`, a small sample by the report's own comparison of the same means
            comparison, _ = compare_seeds_with_notes(
                _named(systems[0], names[0], metric), _named(systems[j], names[j], metric),
                options)
            answers.append(SeedAnswer(metric, j, comparison, tuple(names[j])))
    if len(systems) > 2:
        for metric in metrics:
            chosen = [i for i, a in enumerate(answers) if a.metric == metric]
            adjusted = new_run_family([answers[i].comparison for i in chosen],
                                      method=SEED_FAMILY_METHOD)
            for i, p in zip(chosen, adjusted, strict=True):
                answers[i] = dataclasses.replace(answers[i], adjusted_p=p)
    return tuple(answers)


def _named(runs: Sequence[Mapping[str, MetricResult]], names: Sequence[str],
           metric: str) -> list[MetricResult]:
    """Each run's result of ``metric`` under the run's name (what dropped queries cite)."""
    return [MetricResult.from_arrays(metric, r[metric].query_ids, r[metric].values, run=name)
            for r, name in zip(runs, names, strict=True)]


def _seed_notes(answer: SeedAnswer, systems: Sequence[str]) -> list[str]:
    """The words of `compare_seeds`' notes, with the systems' names: a system with one run,
    and the queries some run of either system did not score."""
    comparison = answer.comparison
    names = (systems[0], systems[answer.candidate])
    notes = []
    if comparison.new_run is None:
        notes.append(f"{names[0]} and {names[1]} have one run each: the seed variance cannot "
                     "be measured, so only the answer for these trained runs is given.")
    for name, count in zip(names, (comparison.n_seeds_a, comparison.n_seeds_b), strict=True):
        if count == 1 and comparison.new_run is not None:
            notes.append(f"{name} has one run: it is taken as deterministic (no seed "
                         f"variance); if {name} is trained with seeds too, the new-run "
                         "interval is too narrow.")
    if comparison.dropped:
        first = comparison.dropped[0]
        notes.append(f"{answer.metric}, {names[1]} against {names[0]}: {len(comparison.dropped)}"
                     f" queries left out of both answers because some runs did not score them "
                     f"({examples([d.query for d in comparison.dropped])}; e.g. {first.query} "
                     f"is {first.reason}).")
    return notes


def _records(inputs: LoadedInputs, slices: Sequence[range]) -> tuple[InputRecord, ...]:
    """The inputs as the report lists them: a system's first run under the system's role
    (run_a, run_b, ...), its further runs as run_b_seed2, run_b_seed3, ..."""
    roles = {}
    for s, group in enumerate(slices):
        for k, i in enumerate(group):
            roles[run_role(i)] = run_role(s) if k == 0 else f"{run_role(s)}_seed{k + 1}"
    return tuple(dataclasses.replace(r, role=roles.get(r.role, r.role)) for r in inputs.records)
