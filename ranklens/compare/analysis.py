"""From input files to a Report: the one pipeline behind the CLI, the app and share links.

``load_inputs`` reads the files once (a baseline and one or more candidate runs + qrels, or
per-query metric tables, an optional segment map and optional proxy judgements);
``LoadedInputs.report(settings)`` evaluates the metrics (memoized per metric set, so changing
the segment column or alpha does not re-score 7M rows), runs the segment comparisons and
measures the judgement coverage with its guardrail and robustness view
(``ranklens.compare.coverage``): for two runs exactly as ever, for several candidates each
against the baseline with the family's adjusted p (``ranklens.compare.family``) and its own
coverage. The faces only collect the files and settings and render the Report.

Given the settings up front (``load_inputs(..., settings=...)``), runs are scored one at a
time as they are read and let go, so ten 7M-row candidates need the memory of about two;
only their per-query values (and what their coverage needs) are kept.

It does not draw, print or cache across processes: the app keeps a ``LoadedInputs`` per set of
input digests, the CLI builds one per invocation.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare.assemble import (
    demo_files,
    input_record,
    report_from_results,
    report_from_run_results,
    scoring_notes,
)
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import (
    MAX_RUNS,
    run_key,
    run_role,
)
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.segments import MetricComparison, compare_metrics
from ranklens.compare.settings import DEFAULT_METRICS, CompareSettings
from ranklens.data import MetricResult, Qrels, Run
from ranklens.health import checks as health_checks
from ranklens.health.self_retrieval import without_self_retrieval
from ranklens.io import InputFile
from ranklens.io.id_columns import with_id_columns_chosen
from ranklens.io.shared_queries import (
    RUN_AND_QRELS_FIX,
    TWO_RUNS_FIX,
    check_shared_queries,
)
from ranklens.io.source import file_stem
from ranklens.metrics import Evaluation, evaluate, parse_metric
from ranklens.metrics.checks import no_relevant_warning, tied_scores_warning
from ranklens.metrics.holes import FilledQrels, fill_holes

__all__ = [
    "DEFAULT_METRICS",
    "ROBUSTNESS_EAGER_ROWS",
    "CompareSettings",
    "Input",
    "LoadedInputs",
    "build_report",
    "demo_files",
    "input_record",
    "load_inputs",
    "report_from_results",
    "report_from_run_results",
    "scoring_notes",
]

Input = InputFile | str | Path
"""An input file as given: its bytes with a role and name, or a path to read."""

_SCORED_KEPT = 16  # metric sets whose per-query values a LoadedInputs keeps
ROBUSTNESS_EAGER_ROWS = 2_000_000
"""Up to this many rows in the two runs, every report holds the robustness view; above, only
when a coverage banner is raised or another treatment was asked for: judged-only lists cost a
pass over every row of both runs (about 2 s of CPU for two 7M-row runs)."""


_LABEL = "\x00run\x00"
"""Where a warning found while a run was read puts the run's name (known at report time)."""

@dataclass(frozen=True, eq=False)
class LoadedInputs:
    """Parsed inputs of one comparison and the account of each read.

    Either ``runs`` and ``qrels`` (rankings to score; run 0 is the baseline) or ``tables``
    (per-query metric values computed elsewhere, one mapping per run) are set. ``runs`` holds
    None for runs that were scored while reading and let go (their per-query values are in
    ``scored``, what their coverage needs in ``derived``). ``segment_maps`` maps each segment
    column to ``{query_id: segment}``. ``proxy_qrels`` are cheap judgements that can fill the
    holes of ``qrels`` (``unjudged="proxy"``). ``files`` are the inputs whose bytes are kept;
    ``records`` describe every input.
    """

    files: tuple[InputFile, ...]
    summaries: Mapping[str, io.ReadSummary]
    runs: tuple[Run | None, ...] = ()
    qrels: Qrels | None = None
    tables: tuple[Mapping[str, MetricResult], ...] | None = None
    segment_maps: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    proxy_qrels: Qrels | None = None
    # scored metrics by argument set; shared with the copies `with_segments` makes
    scored: dict[ScoringKey, tuple[Evaluation, ...]] = field(
        default_factory=dict, repr=False)
    # the inputs' own warnings (tied scores, no relevant document), by argument set
    checked: dict[tuple[Any, ...], tuple[str, ...]] = field(default_factory=dict, repr=False)
    # derived once: the qrels with holes filled, documents retrieved per query
    derived: dict[str, Any] = field(default_factory=dict, repr=False)
    streamed: tuple[InputRecord, ...] = ()  # records of runs whose bytes were not kept
    # runs scored while read: (index, tied-scores warning with _LABEL where the name goes)
    streamed_checks: tuple[tuple[int, str], ...] = ()
    # the runs' id columns named when they were read (``load_inputs(columns=...)``)
    id_columns: tuple[tuple[str, str], ...] = ()

    @property
    def run_a(self) -> Run | None:
        """The baseline's ranking (None for tables, or when scored while reading)."""
        return self.runs[0] if self.runs else None

    @property
    def run_b(self) -> Run | None:
        """The first candidate's ranking."""
        return self.runs[1] if len(self.runs) > 1 else None

    def run(self, index: int) -> Run | None:
        """Run ``index``'s ranking (0 the baseline), or None."""
        return self.runs[index] if index < len(self.runs) else None

    @property
    def tables_a(self) -> Mapping[str, MetricResult] | None:
        return None if self.tables is None else self.tables[0]

    @property
    def tables_b(self) -> Mapping[str, MetricResult] | None:
        return None if self.tables is None else self.tables[1]

    @property
    def n_runs(self) -> int:
        return len(self.tables) if self.tables is not None else len(self.runs)

    @property
    def records(self) -> tuple[InputRecord, ...]:
        """Every input as a report lists it, in role order (runs, qrels, segments)."""
        kept = [input_record(f, self.summaries.get(f.role)) for f in self.files]
        every = {r.role: r for r in (*self.streamed, *kept)}
        runs = [every[run_role(i)] for i in range(self.n_runs) if run_role(i) in every]
        return (*runs, *(r for r in every.values() if not r.role.startswith("run_")))

    def file_name(self, role: str) -> str:
        """The name of the file read for ``role`` (the role itself when there is none)."""
        return next((r.name for r in self.records if r.role == role), role)

    def input_warnings(self, *, order: str = "score", relevance_level: int = 1,
                       run_names: tuple[str, ...] | None = None) -> tuple[str, ...]:
        """What in the inputs makes the metrics say little, in words: judgements without a
        relevant document, a run tied on most queries (scored by score only). Memoized.

        Runs scored while they were read were checked then (`load_inputs` with settings),
        under their file names."""
        labels = run_names or self.default_run_names
        key = (order, relevance_level, labels)
        if key not in self.checked:
            found: list[str] = []
            if self.qrels is not None:
                found.append(no_relevant_warning(self.qrels, self.file_name("qrels"),
                                                 relevance_level) or "")
            if order == "score":
                for index, (run, label) in enumerate(zip(self.runs, labels, strict=False)):
                    if run is not None:
                        found.append(tied_scores_warning(
                            run, _run_label(label, self.file_name(run_role(index)))) or "")
                for index, message in self.streamed_checks:
                    label = _run_label(labels[index], self.file_name(run_role(index)))
                    found.append(message.replace(_LABEL, label))
            self.checked[key] = tuple(message for message in found if message)
        return self.checked[key]

    def check_shared_queries(self, per_run: Sequence[Mapping[str, MetricResult]],
                             missing: str) -> None:
        """Refuse, naming the files and showing ids of each, inputs that share no query:
        a run and the judgements, or a candidate and the baseline (tables)."""
        names = [self.file_name(run_role(i)) for i in range(len(per_run))]
        if self.qrels is not None:
            judged = self.qrels.query_ids()
            for run, name in zip(self.runs, names, strict=False):
                if run is not None:  # a run scored while read was checked then
                    check_shared_queries((name, run.query_ids()),
                                         (self.file_name("qrels"), judged), RUN_AND_QRELS_FIX)
        if missing == "zero":
            return
        for metric in per_run[0]:
            for results, name in zip(per_run[1:], names[1:], strict=True):
                check_shared_queries((names[0], list(per_run[0][metric].per_query)),
                                     (name, list(results[metric].per_query)), TWO_RUNS_FIX)

    def pair(self, candidate: int) -> LoadedInputs:
        """The baseline and run ``candidate`` as the inputs of a two-run comparison (the same
        parsed runs and values, nothing read again; the candidate takes the role run_b)."""
        if not 1 <= candidate < self.n_runs:
            raise ValueError(f"no candidate {candidate}; there are {self.n_runs - 1}")
        if self.n_runs == 2:
            return self
        relabel = {run_role(0): run_role(0), run_role(candidate): run_role(1)}
        files = tuple(_as_file(f, relabel.get(f.role, f.role)) for f in self.files
                      if f.role in relabel or not f.role.startswith("run_"))
        summaries = {relabel.get(role, role): summary for role, summary in self.summaries.items()
                     if role in relabel or not role.startswith("run_")}
        streamed = tuple(dataclasses.replace(r, role=relabel[r.role]) for r in self.streamed
                         if r.role in relabel)
        chosen = (0, candidate)
        return dataclasses.replace(
            self, files=files, summaries=summaries,
            runs=tuple(self.runs[i] for i in chosen) if self.runs else (),
            tables=None if self.tables is None else tuple(self.tables[i] for i in chosen),
            scored={key: tuple(evs[i] for i in chosen) for key, evs in self.scored.items()},
            streamed=streamed, checked={},
            streamed_checks=tuple((chosen.index(i), m) for i, m in self.streamed_checks
                                  if i in chosen),
            derived={**{k: v for k, v in self.derived.items() if k != "depths"},
                     **({"depths": tuple(self.derived["depths"][i] for i in chosen)}
                        if "depths" in self.derived else {})})

    def with_segments(self, segments: InputFile | None, *,
                      max_bytes: int | None = None) -> LoadedInputs:
        """The same runs and judgements with another segment map (or none), without re-reading
        the runs: a new segment file costs only its own read."""
        files = tuple(f for f in self.files if f.role != "segments")
        summaries = {k: v for k, v in self.summaries.items() if k != "segments"}
        segment_maps: dict[str, Mapping[str, str]] = {}
        if segments is not None:
            segment_map, summaries["segments"] = io.read_segments(
                segments.data, name=segments.name, max_bytes=max_bytes)
            segment_maps = dict(segment_map.by_column)
            files = (*files, segments)
        return dataclasses.replace(self, files=files, summaries=summaries,
                                   segment_maps=segment_maps)

    @property
    def segment_columns(self) -> tuple[str, ...]:
        return tuple(self.segment_maps)

    @property
    def default_run_names(self) -> tuple[str, ...]:
        """Names shown for the runs (baseline first): the file names without suffixes; a
        name two files share gets " (2)", " (3)" ... after the first."""
        names = {r.role: r.name for r in self.records}
        stems = [file_stem(names.get(run_role(i), run_key(i).upper()))
                 for i in range(self.n_runs)]
        return _distinct(stems)

    @property
    def available_metrics(self) -> tuple[str, ...] | None:
        """Metrics of per-query tables (present in every one); None when runs are scored."""
        if self.tables is None:
            return None
        return tuple(m for m in self.tables[0] if all(m in t for t in self.tables[1:]))

    @property
    def treatments(self) -> tuple[Treatment, ...]:
        """Treatments of unjudged documents these inputs allow (proxy needs proxy qrels)."""
        if self.qrels is None:
            return ()
        return cov.TREATMENTS if self.proxy_qrels is not None else cov.TREATMENTS[:2]

    def filled_qrels(self) -> FilledQrels:
        """The qrels with their holes filled by the proxy labels (computed once)."""
        if self.qrels is None or self.proxy_qrels is None:
            raise ValueError("filling unjudged documents with proxy labels needs proxy "
                             "judgements (--proxy-qrels, or the proxy file on the page)")
        if "filled" not in self.derived:
            self.derived["filled"] = fill_holes(self.qrels, self.proxy_qrels)
        filled: FilledQrels = self.derived["filled"]
        return filled

    def ranking_depths(self) -> tuple[dict[str, int], ...]:
        """Documents retrieved per query by each run, the baseline first (computed once; for
        runs scored while read, computed then)."""
        if "depths" not in self.derived:
            if self.tables is not None or not self.runs:
                raise ValueError("these inputs are per-query tables: there are no rankings")
            self.derived["depths"] = tuple(cov.ranking_depths(run) for run in self.runs
                                           if run is not None)
        depths: tuple[dict[str, int], ...] = self.derived["depths"]
        return depths

    def evaluations(self, metrics: tuple[str, ...], *, missing: str = "drop",
                    order: str = "score", gain: str = "linear",
                    relevance_level: int = 1,
                    unjudged: str = "nonrelevant") -> tuple[Evaluation, ...]:
        """Per-query values of ``metrics`` for every run (memoized per argument set), with
        unjudged documents treated as ``unjudged`` says."""
        key = _scoring_key(metrics, missing, order, gain, relevance_level, unjudged)
        if key not in self.scored:
            if any(run is None for run in self.runs):
                done = ", ".join(sorted({m for k in self.scored for m in k[0]}))
                raise ValueError(
                    "the runs were scored while they were read (for " + (done or "nothing")
                    + ") and not kept; read them again to score other metrics or options")
            if len(self.scored) >= _SCORED_KEPT:
                self.scored.pop(next(iter(self.scored)))
            self.scored[key] = self._evaluate(*key)
        return self.scored[key]

    def _evaluate(self, metrics: tuple[str, ...], missing: str, order: str, gain: str,
                  relevance_level: int, unjudged: str) -> tuple[Evaluation, ...]:
        if not self.runs or self.qrels is None:
            raise ValueError("these inputs are per-query tables: there are no runs to score")
        if unjudged not in cov.TREATMENTS:
            raise ValueError(f"unjudged must be one of {', '.join(cov.TREATMENTS)}, "
                             f"not {unjudged!r}")
        qrels = self.filled_qrels().qrels if unjudged == "proxy" else self.qrels
        # two runs at a time: numpy and arrow release the GIL, so on two cores the runs are
        # scored side by side; the values are the same as scored in turn.
        with ThreadPoolExecutor(max_workers=2) as pool:
            return tuple(pool.map(
                lambda run: _score(run, qrels, metrics, missing, order, gain, relevance_level,
                                   unjudged),
                self.runs))

    def run_results(self, settings: CompareSettings
                    ) -> tuple[list[dict[str, MetricResult]], list[str]]:
        """Per-query results of every run for the settings' metrics, and notes in words."""
        notes: list[str] = []
        if self.tables is not None:
            names = list(settings.metrics)
            unknown = [m for m in names if any(m not in t for t in self.tables)]
            if unknown:
                raise ValueError(f"the per-query tables have no column for {unknown}; they "
                                 f"have {list(self.available_metrics or ())}")
            if settings.unjudged != "nonrelevant":
                raise ValueError("per-query tables carry no judgements: unjudged documents "
                                 "can only be treated as the tables' producer did")
            return [{m: table[m] for m in names} for table in self.tables], notes
        evaluations = self._scored(settings, settings.unjudged)
        labels = self.default_run_names if settings.run_names is None else settings.run_names
        notes = scoring_notes(labels, evaluations, settings.missing)
        if settings.unjudged != "nonrelevant":
            notes.append(f"{cov.TREATMENT_NAMES[settings.unjudged]}: "
                         f"{self._treatment_note(settings.unjudged)}")
        asked = [parse_metric(m).name for m in settings.metrics]
        return [{m: ev.results[m] for m in asked} for ev in evaluations], notes

    def results(self, settings: CompareSettings) -> tuple[dict[str, MetricResult],
                                                          dict[str, MetricResult], list[str]]:
        """Per-query results of the baseline and the first candidate, and notes in words."""
        per_run, notes = self.run_results(settings)
        return per_run[0], per_run[1], notes

    def _treatment_note(self, treatment: str) -> str:
        """What a treatment of unjudged documents did to these inputs, in words."""
        if treatment == "judged-only":
            return "unjudged documents removed from both rankings before scoring"
        if treatment == "proxy":
            filled = self.filled_qrels()
            if not filled.n_filled:
                return "the proxy labels no unjudged document: same as non-relevant"
            note = f"{filled.n_filled:,} unjudged documents take the proxy's label"
            if filled.n_proxy_only_queries:
                note += (f"; {filled.n_proxy_only_queries:,} queries with proxy labels only "
                         "are not compared")
            return note
        return ""

    def _scored(self, settings: CompareSettings, unjudged: str) -> tuple[Evaluation, ...]:
        """Every run scored on the settings' metrics and the judged@k their coverage needs, in
        one pass (judged@k of condensed lists says nothing, so judged-only lists get theirs
        from the full lists in a second pass, see `_coverage`)."""
        return self.evaluations(_scored_names(settings.metrics, unjudged),
                                missing=settings.missing, order=settings.order,
                                gain=settings.gain, relevance_level=settings.relevance_level,
                                unjudged=unjudged)

    def report(self, settings: CompareSettings,
               progress: Callable[[str], None] | None = None, *, strict: bool = False
               ) -> Report:
        """The full comparison report for ``settings`` with its health section
        (``ranklens.health``); ``strict`` raises ``HealthCheckFailed`` when a check fails.

        The report's settings name the id columns the runs were read by (``columns=`` of
        `load_inputs`); settings that name other ones raise ``ValueError``: read the inputs
        with ``columns=settings.id_columns()``.
        """
        return health_checks.report_with_health(self, self.settings_read(settings), progress,
                                                strict)

    def settings_read(self, settings: CompareSettings) -> CompareSettings:
        """``settings`` with the id columns these inputs were read by; ``ValueError`` when
        they name others (the numbers would be another reading's)."""
        read = dict(self.id_columns)
        named = settings.id_columns() or {}
        if named and named != read:
            listed = ", ".join(f"{role} {column!r}" for role, column in named.items())
            raise ValueError(
                f"the settings name the id columns {listed}, but the runs were read "
                + (f"by {dict(read)}" if read else "by the columns the judgements chose")
                + ": read them with load_inputs(..., columns=settings.id_columns())")
        return settings if named else settings.with_id_columns(read)

    def comparison_report(self, settings: CompareSettings,
                          progress: Callable[[str], None] | None = None) -> Report:
        """The comparison report for ``settings``, without its health section.

        Two runs: B against A as ever. A baseline and several candidates: each candidate
        against the baseline on the queries all runs share, with the family's adjusted p.
        """
        settings = settings.canonical() if self.tables is None else settings
        run_names = settings.run_names or self.default_run_names
        if len(run_names) != self.n_runs:
            raise ValueError(f"{len(run_names)} run names for {self.n_runs} runs")
        if progress and self.tables is None and _scoring_key(
                _scored_names(settings.metrics, settings.unjudged), settings.missing,
                settings.order, settings.gain, settings.relevance_level,
                settings.unjudged) not in self.scored:
            progress("scoring the runs")
        per_run, notes = self.run_results(settings)
        self.check_shared_queries(per_run, settings.missing)
        notes = [*self.input_warnings(order=settings.order,
                                      relevance_level=settings.relevance_level,
                                      run_names=settings.run_names), *notes]
        if progress:
            progress("comparing")
        report = report_from_run_results(settings, per_run, notes, inputs=self.records,
                                         segment_maps=self.segment_maps, run_names=run_names)
        if self.qrels is None:
            return report
        if progress:
            progress("checking judgement coverage")
        segments = (None if settings.segment_column is None
                    else self.segment_maps[settings.segment_column])
        if not report.several:
            return dataclasses.replace(
                report, coverage=self._coverage(settings, report.comparisons, segments))
        # each candidate's coverage against the baseline, on the queries its comparison used;
        # what pairs share (the baseline's scores and depths, filled qrels) is computed once
        if all(run is not None for run in self.runs):
            self.ranking_depths()
            largest = max(self.run_rows(i) for i in range(self.n_runs))
            shown = _streamed_treatments(settings, largest, self.proxy_qrels is not None)
            for treatment in dict.fromkeys((settings.unjudged, "nonrelevant", *shown)):
                self._scored(replace(settings, unjudged=treatment), treatment)
        coverages = []
        for j in report.candidates:
            pair_settings = replace(settings, run_names=(run_names[0], run_names[j]))
            compared = {m: frozenset(values["a"]) for m, values in report.per_query.items()}
            coverages.append(self.pair(j)._coverage(
                pair_settings, tuple(c for c in report.comparisons if c.candidate == j),
                segments, queries=compared))
        return dataclasses.replace(report, candidate_coverage=tuple(coverages))

    def _coverage(self, settings: CompareSettings, comparisons: tuple[MetricComparison, ...],
                  segments: Mapping[str, str] | None,
                  queries: Mapping[str, frozenset[str]] | None = None) -> cov.Coverage:
        """Judged@k of both runs (A and B) per metric and row, the guardrail, and the
        robustness view. ``queries`` (per metric) restricts judged@k to the queries a
        comparison paired when that was narrower than A and B's own (several candidates)."""
        treatment = settings.unjudged
        # coverage is measured on the lists as retrieved: condensed lists have no holes left
        measured = "nonrelevant" if treatment == "judged-only" else treatment
        eval_a, eval_b = self._scored(replace(settings, unjudged=measured), measured)
        depths_a, depths_b = self.ranking_depths()
        scored_a, scored_b = self._scored(settings, treatment)

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
        rows = self.run_rows(0) + self.run_rows(1)
        wanted = (rows <= ROBUSTNESS_EAGER_ROWS or treatment != "nonrelevant"
                  or any(m.alert for m in metrics))
        if wanted and self._can_score(settings, self.treatments):
            return cov.Coverage(treatment, tuple(metrics), self.robustness(settings))
        if wanted:
            note = ("Robustness view not computed: the runs were scored one at a time as they "
                    f"were read and not kept (they hold {rows:,} rows); compare this candidate "
                    "with the baseline alone to see it.")
        else:
            note = (f"Robustness view not computed: no coverage banner, and the runs hold "
                    f"{rows:,} rows (above {ROBUSTNESS_EAGER_ROWS:,}, judged-only lists cost a "
                    "pass over every row); ask for another treatment of unjudged documents to "
                    "see it.")
        return cov.Coverage(treatment, tuple(metrics), {}, (note,))

    def _can_score(self, settings: CompareSettings, treatments: Sequence[str]) -> bool:
        """Whether every run can be scored (or was) for ``settings`` under ``treatments``."""
        if all(run is not None for run in self.runs):
            return True
        return all(_scoring_key(_scored_names(settings.metrics, t), settings.missing,
                                settings.order, settings.gain, settings.relevance_level, t)
                   in self.scored for t in treatments)

    def run_rows(self, index: int) -> int:
        """Rows of run ``index``'s ranking (kept or scored while read); 0 for tables."""
        run = self.run(index)
        if run is not None:
            return len(run)
        summary = self.summaries.get(run_role(index))
        return 0 if summary is None or self.tables is not None else summary.rows

    def robustness(self, settings: CompareSettings
                   ) -> dict[str, tuple[cov.TreatmentResult, ...]]:
        """The robustness view: each metric's overall comparison of A and B under every
        treatment of unjudged documents these inputs allow (non-relevant, judged-only, and
        proxy labels when proxy judgements were given), with the same statistics settings.
        With several candidates, ask a `pair`."""
        by_treatment = {}
        for treatment in self.treatments:
            variant = replace(settings, unjudged=treatment, segment_column=None)
            results_a, results_b, _ = self.results(variant)
            comparisons = compare_metrics(results_a, results_b, None, variant.segment_options())
            informative = treatment != "proxy" or self.filled_qrels().n_filled > 0
            by_treatment[treatment] = ({c.metric: c.overall for c in comparisons},
                                       self._treatment_note(treatment), informative)
        return {metric: tuple(cov.TreatmentResult(t, results[metric], note, informative)
                              for t, (results, note, informative) in by_treatment.items())
                for metric in settings.metrics}


class ScoringKey(NamedTuple):
    """What a set of per-query values was scored under: the one key of the scoring memo."""

    metrics: tuple[str, ...]
    missing: str
    order: str
    gain: str
    relevance_level: int
    unjudged: str


def _scoring_key(metrics: Sequence[str], missing: str, order: str, gain: str,
                 relevance_level: int, unjudged: str) -> ScoringKey:
    return ScoringKey(tuple(metrics), missing, order, gain, relevance_level, unjudged)


class StreamedRun(NamedTuple):
    """One run read and scored by `_load_streaming`, then let go: what is kept of it.

    ``scored`` is None when the judgements failed to read (their error is raised after every
    run's own); ``tied`` is the tied-scores warning with `_LABEL` for the run's name.
    """

    scored: dict[ScoringKey, Evaluation] | None
    summary: io.ReadSummary
    record: InputRecord
    tied: str
    depths: dict[str, int]


def _scored_names(metrics: Sequence[str], unjudged: str) -> tuple[str, ...]:
    """The metrics scored for a report: the asked ones and the judged@k their coverage is
    measured at (not for judged-only lists, whose judged@k says nothing)."""
    extra = () if unjudged == "judged-only" else tuple(
        cov.judged_name(cov.coverage_depth(m)) for m in metrics)
    return tuple(dict.fromkeys((*metrics, *extra)))


def _score(run: Run | None, qrels: Qrels, metrics: Sequence[str], missing: str, order: str,
           gain: str, relevance_level: int, unjudged: str) -> Evaluation:
    """``run`` scored on ``qrels`` (already filled with proxy labels for "proxy")."""
    assert run is not None  # checked by the caller
    return evaluate(run, qrels, list(metrics), missing="zero" if missing == "zero" else "drop",
                    order=order, gain=gain, relevance_level=relevance_level,
                    judged_only=unjudged == "judged-only")


def _distinct(names: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return tuple(out)


def _as_file(given: Input, role: str) -> InputFile:
    """``given`` as an InputFile of ``role`` (a path is read; a file of another role is
    relabelled, keeping its digest when it was computed)."""
    if not isinstance(given, InputFile):
        return InputFile.from_path(role, given)
    if given.role == role:
        return given
    digest = given.__dict__.get("sha256")
    if digest is None:
        return InputFile(role, given.name, given.data)
    return InputFile.with_digest(role, given.name, given.data, digest)


def load_inputs(
    run_a: Input,
    run_b: Input,
    *candidates: Input,
    qrels: Input | None = None,
    segments: Input | None = None,
    proxy_qrels: Input | None = None,
    max_bytes: int | None = None,
    settings: CompareSettings | None = None,
    columns: Mapping[str, str] | None = None,
) -> LoadedInputs:
    """Read the inputs of one comparison; every problem is an ``io.InputError`` in words.

    ``run_a`` is the baseline, ``run_b`` and any further ``candidates`` are compared with it
    (a baseline and up to 25 candidates; their roles become run_a, run_b, run_c, ...). Each
    input is an ``InputFile`` or a path. With ``qrels`` the runs are rankings; without, they
    are per-query metric tables (query id + one column per metric, or long form).
    ``segments`` is a segment map with one or more segment columns. ``proxy_qrels`` (role
    ``qrels_proxy``) are cheap judgements that can fill the holes of ``qrels``; they need
    ``qrels``.

    With ``settings`` (and ``qrels``), each run is scored for those settings' metrics (and
    what their judgement coverage needs) as soon as it is read, and its ranking and bytes are
    let go: memory holds about two runs however many there are. Such inputs cannot be scored
    again for other metrics or options.

    ``columns`` maps roles to the runs' column names (``{"doc_id": "docno"}``); without it a
    run table with several id columns (``docid`` and ``docno``) is read by the one whose values
    occur in the qrels (``ranklens.io.id_columns``), and its summary says which and why.
    """
    given = (run_a, run_b, *candidates)
    if len(given) > MAX_RUNS:
        run_role(len(given) - 1)  # raises, in words
    if columns is None and settings is not None:
        columns = settings.id_columns()
    named = _named_id_columns(columns)
    if proxy_qrels is not None and qrels is None:
        name = proxy_qrels.name if isinstance(proxy_qrels, InputFile) else str(proxy_qrels)
        raise io.InputError(name, "proxy judgements fill the holes of the judgements, and "
                            "there are none", hint="Give the judgements (qrels) too.")
    # runs keep their rank column: order="rank" is offered when scores are tied
    read = functools.partial(io.read_run, keep_ranks=True, columns=columns) \
        if qrels is not None else io.read_per_query
    if settings is not None and qrels is not None:
        return dataclasses.replace(
            _load_streaming(given, qrels, segments, proxy_qrels, max_bytes,
                            settings.canonical(), columns), id_columns=named)
    files = tuple(_as_file(f, run_role(i)) for i, f in enumerate(given))
    extra = _extra_files(qrels, segments, proxy_qrels)
    summaries: dict[str, io.ReadSummary] = {}
    loaded: dict[str, Any] = {}
    # Every file is parsed in its own thread and the digests computed meanwhile (arrow, numpy
    # and hashlib release the GIL): on two cores the single-threaded phases of one read
    # overlap another. Errors surface in the order of a sequential read (A, B, ..., qrels).
    with ThreadPoolExecutor(max_workers=5) as pool:
        reads = {f.role: pool.submit(read, f.data, name=f.name, max_bytes=max_bytes)
                 for f in files}
        for f in extra:
            reader = io.read_segments if f.role == "segments" else io.read_qrels
            reads[f.role] = pool.submit(reader, f.data, name=f.name, max_bytes=max_bytes)
        digests = pool.submit(lambda: [f.sha256 for f in (*files, *extra)])
        try:
            for role, future in reads.items():
                loaded[role], summaries[role] = future.result()
            digests.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    segment_maps = dict(loaded.pop("segments").by_column) if segments is not None else {}
    for f in files if qrels is not None else ():  # several id columns: the qrels' ones
        loaded[f.role], summaries[f.role] = _id_columns_chosen(
            (loaded[f.role], summaries[f.role]), loaded["qrels"], f, max_bytes, columns)
    values = tuple(loaded[f.role] for f in files)
    if qrels is not None:
        return LoadedInputs((*files, *extra), summaries, runs=values, qrels=loaded["qrels"],
                            segment_maps=segment_maps, proxy_qrels=loaded.get("qrels_proxy"),
                            id_columns=named)
    return LoadedInputs((*files, *extra), summaries, tables=values, segment_maps=segment_maps)


def _named_id_columns(columns: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """The id roles of ``columns`` (what a report's settings name), in a fixed order."""
    return tuple((role, columns[role]) for role in ("doc_id", "query_id")
                 if columns and columns.get(role))


def _extra_files(qrels: Input | None, segments: Input | None,
                 proxy_qrels: Input | None) -> tuple[InputFile, ...]:
    return tuple(_as_file(f, role) for f, role in ((qrels, "qrels"), (segments, "segments"),
                                                   (proxy_qrels, "qrels_proxy"))
                 if f is not None)


def _id_columns_chosen(read: tuple[Run, io.ReadSummary], qrels: Qrels, file: InputFile,
                       max_bytes: int | None, columns: Mapping[str, str] | None
                       ) -> tuple[Run, io.ReadSummary]:
    """The run as read, or read again by the id columns whose values the qrels hold."""
    return with_id_columns_chosen(read, qrels, lambda chosen: io.read_run(
        file.data, name=file.name, max_bytes=max_bytes, keep_ranks=True,
        columns={**(columns or {}), **chosen}))


def _streamed_treatments(settings: CompareSettings, rows: int, proxy: bool
                         ) -> tuple[Treatment, ...]:
    """Treatments a run scored while read is scored under: the settings' own; non-relevant
    too under judged-only (coverage is measured on the lists as retrieved); and every
    treatment where `LoadedInputs._coverage` would show the robustness view without knowing
    the verdict (a small run, or a treatment other than the default)."""
    every = cov.TREATMENTS if proxy else cov.TREATMENTS[:2]
    if settings.unjudged != "nonrelevant" or 2 * rows <= ROBUSTNESS_EAGER_ROWS:
        return every
    return ("nonrelevant",)


def _load_streaming(given: Sequence[Input], qrels: Input, segments: Input | None,
                    proxy_qrels: Input | None, max_bytes: int | None,
                    settings: CompareSettings,
                    columns: Mapping[str, str] | None = None) -> LoadedInputs:
    """`load_inputs` scoring each run as it is read: two runs in memory at a time.

    The judgements, the segment map and the proxy judgements are read on a thread of their own
    meanwhile; a run waits for the judgements only to be scored. Besides the settings' metrics
    each run keeps what its judgement coverage needs: judged@k, residuals, the documents
    retrieved per query, and the robustness view's treatments when they would be shown
    (`_streamed_treatments`).
    """
    extra = _extra_files(qrels, segments, proxy_qrels)
    with ThreadPoolExecutor(max_workers=1) as side, ThreadPoolExecutor(max_workers=2) as pool:
        reads: dict[str, Future[Any]] = {
            f.role: side.submit(io.read_segments if f.role == "segments" else io.read_qrels,
                                f.data, name=f.name, max_bytes=max_bytes) for f in extra}
        filled: Future[Any] | None = None
        if proxy_qrels is not None:
            filled = side.submit(lambda: fill_holes(reads["qrels"].result()[0],
                                                    reads["qrels_proxy"].result()[0]))

        def read_and_score(index: int) -> StreamedRun:
            file = _as_file(given[index], run_role(index))
            run, summary = io.read_run(file.data, name=file.name, max_bytes=max_bytes,
                                       keep_ranks=True, columns=columns)
            if summary.id_samples and reads["qrels"].exception() is None:
                run, summary = _id_columns_chosen((run, summary), reads["qrels"].result()[0],
                                                  file, max_bytes, columns)
            record = input_record(file, summary)
            del file  # the bytes go as soon as the run is parsed
            if reads["qrels"].exception() is not None:
                # raised below, after every run's error
                return StreamedRun(None, summary, record, "", {})
            judged: Qrels = reads["qrels"].result()[0]
            health_checks.remember(facts, record.sha256, health_checks.run_facts(run, judged))
            if settings.drop_self_retrieval:
                run = without_self_retrieval(run)
            # what LoadedInputs checks on runs it keeps, checked while this one is here
            check_shared_queries((record.name, run.query_ids()),
                                 (qrels_name, judged.query_ids()), RUN_AND_QRELS_FIX)
            tied = (tied_scores_warning(run, _LABEL) or "") if settings.order == "score" else ""
            scored = {}
            for treatment in _streamed_treatments(settings, len(run), filled is not None):
                names = _scored_names(settings.metrics, treatment)
                key = _scoring_key(names, settings.missing, settings.order, settings.gain,
                                   settings.relevance_level, treatment)
                labels = (filled.result().qrels if treatment == "proxy" and filled is not None
                          else judged)
                scored[key] = _score(run, labels, names, settings.missing, settings.order,
                                     settings.gain, settings.relevance_level, treatment)
            return StreamedRun(scored, summary, record, tied, cov.ranking_depths(run))

        qrels_name = next(f.name for f in extra if f.role == "qrels")
        facts: dict[str, Any] = {}  # the health checks' counts of each run, by digest

        futures = [pool.submit(read_and_score, i) for i in range(len(given))]
        try:  # errors in the order of the arguments: the runs, then qrels and the others
            done = [future.result() for future in futures]
            side_results = {role: future.result() for role, future in reads.items()}
            filled_qrels = None if filled is None else filled.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            side.shutdown(wait=False, cancel_futures=True)
            raise
    summaries: dict[str, io.ReadSummary] = {run_role(i): streamed.summary
                                            for i, streamed in enumerate(done)}
    summaries.update({role: summary for role, (_, summary) in side_results.items()})
    segment_maps = (dict(side_results["segments"][0].by_column) if segments is not None
                    else {})
    # a key every run was scored for (runs of other sizes may have more treatments)
    keys = [key for key in (done[0].scored or {})
            if all(key in (d.scored or {}) for d in done)]
    derived: dict[str, Any] = {"depths": tuple(d.depths for d in done), **facts,
                               health_checks.DROPPED: settings.drop_self_retrieval}
    if filled_qrels is not None:
        derived["filled"] = filled_qrels
    proxy = side_results.get("qrels_proxy")
    return LoadedInputs(
        extra, summaries, runs=(None,) * len(given), qrels=side_results["qrels"][0],
        segment_maps=segment_maps, proxy_qrels=None if proxy is None else proxy[0],
        scored={key: tuple((d.scored or {})[key] for d in done) for key in keys},
        streamed=tuple(d.record for d in done),
        streamed_checks=tuple((index, d.tied) for index, d in enumerate(done) if d.tied),
        derived=derived)


def build_report(
    run_a: Input,
    run_b: Input,
    *candidates: Input,
    qrels: Input | None = None,
    segments: Input | None = None,
    settings: CompareSettings | None = None,
    proxy_qrels: Input | None = None,
    columns: Mapping[str, str] | None = None,
    strict: bool = False,
) -> Report:
    """Read, score and compare in one call, for scripts and tests.

    The same Report as ``load_inputs(...).report(settings)``, which the CLI and the app call in
    two steps (they show progress between reading and scoring, and the app keeps the inputs).
    ``columns`` names the runs' columns (``{"doc_id": "docno"}``; without it, the id columns
    the settings name); ``strict`` raises ``ranklens.health.HealthCheckFailed`` when a health
    check fails.
    """
    if columns is None and settings is not None:
        columns = settings.id_columns()
    inputs = load_inputs(run_a, run_b, *candidates, qrels=qrels, segments=segments,
                         proxy_qrels=proxy_qrels, columns=columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report carries every warning in words
        return inputs.report(settings or CompareSettings(), strict=strict)


def _run_label(label: str, file: str) -> str:
    """A run as warnings name it: its name, and its file when that says more."""
    return label if label == file else f"{label} ({file})"


