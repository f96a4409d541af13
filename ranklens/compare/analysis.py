"""From input files to a Report: the one pipeline behind the CLI, the app and share links.

``load_inputs`` (``ranklens.compare.inputs``) reads the files once (a baseline and one or more
candidate runs + qrels, or per-query metric tables, an optional segment map and optional proxy
judgements); ``LoadedInputs.report(settings)`` evaluates the metrics (memoized per metric set
in its ``ScoreCache``, ``ranklens.compare.scoring``, so changing the segment column or alpha
does not re-score 7M rows), runs the segment comparisons and measures the judgement coverage
with its guardrail and robustness view (``ranklens.compare.coverage``): for two runs exactly as
ever, for several candidates each against the baseline with the family's adjusted p
(``ranklens.compare.family``) and its own coverage. The faces only collect the files and
settings and render the Report.

It does not draw, print or cache across processes: the app keeps a ``LoadedInputs`` per set of
input digests, the CLI builds one per invocation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Unpack

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare import health_step, input_coverage
from ranklens.compare.assemble import (
    demo_files,
    input_record,
    report_from_results,
    report_from_run_results,
    scoring_notes,
)
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import run_key, run_role
from ranklens.compare.inputs import (
    ComparisonFiles,
    Input,
    as_file,
    load_inputs,
    streamed_treatments,
)
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.scoring import (
    ROBUSTNESS_EAGER_ROWS,
    ScoreCache,
    score,
    scored_names,
    scoring_key,
    settings_key,
)
from ranklens.compare.segments import MetricComparison
from ranklens.compare.settings import DEFAULT_METRICS, CompareSettings
from ranklens.data import MetricResult, Qrels, Run
from ranklens.io import InputFile
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, TWO_RUNS_FIX, check_shared_queries
from ranklens.io.source import file_stem
from ranklens.metrics import Evaluation, parse_metric
from ranklens.metrics.checks import TiedScores, no_relevant_warning, tied_scores_warning
from ranklens.metrics.holes import FilledQrels, fill_holes

__all__ = [
    "DEFAULT_METRICS",
    "ROBUSTNESS_EAGER_ROWS",
    "CompareSettings",
    "Input",
    "LoadedInputs",
    "ScoreCache",
    "build_report",
    "demo_files",
    "input_record",
    "load_inputs",
    "report_from_results",
    "report_from_run_results",
    "scoring_notes",
]


@dataclass(frozen=True, eq=False)
class LoadedInputs:
    """Parsed inputs of one comparison and the account of each read.

    Either ``runs`` and ``qrels`` (rankings to score; run 0 is the baseline) or ``tables``
    (per-query metric values computed elsewhere, one mapping per run) are set. ``runs`` holds
    None for runs that were scored while reading and let go (their per-query values and what
    their coverage needs are in ``cache``). ``segment_maps`` maps each segment
    column to ``{query_id: segment}``. ``proxy_qrels`` are cheap judgements that can fill the
    holes of ``qrels`` (``unjudged="proxy"``). ``files`` are the inputs whose bytes are kept;
    ``records`` describe every input. ``cache`` keeps what is computed from them (the
    scoring memo, shared with the copies `with_segments` makes); nothing else changes.
    """

    files: tuple[InputFile, ...]
    summaries: Mapping[str, io.ReadSummary]
    runs: tuple[Run | None, ...] = ()
    qrels: Qrels | None = None
    tables: tuple[Mapping[str, MetricResult], ...] | None = None
    segment_maps: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    proxy_qrels: Qrels | None = None
    cache: ScoreCache = field(default_factory=ScoreCache, repr=False)
    streamed: tuple[InputRecord, ...] = ()  # records of runs whose bytes were not kept
    # runs scored while read whose scores are tied on most queries: (index, the tie facts)
    streamed_checks: tuple[tuple[int, TiedScores], ...] = ()
    # the runs' id columns named when they were read (``load_inputs(columns=...)``)
    id_columns: tuple[tuple[str, str], ...] = ()

    @property
    def derived(self) -> dict[str, Any]:
        """What is derived once from these inputs (filled qrels, depths, health facts)."""
        return self.cache.derived

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
        if key not in self.cache.checked:
            found: list[str] = []
            if self.qrels is not None:
                found.append(no_relevant_warning(self.qrels, self.file_name("qrels"),
                                                 relevance_level) or "")
            if order == "score":
                for index, (run, label) in enumerate(zip(self.runs, labels, strict=False)):
                    if run is not None:
                        found.append(tied_scores_warning(
                            run, _run_label(label, self.file_name(run_role(index)))) or "")
                for index, tied in self.streamed_checks:
                    found.append(tied.warning(
                        _run_label(labels[index], self.file_name(run_role(index)))) or "")
            self.cache.checked[key] = tuple(message for message in found if message)
        return self.cache.checked[key]

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
        files = tuple(as_file(f, relabel.get(f.role, f.role)) for f in self.files
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
            cache=ScoreCache(
                {key: tuple(evs[i] for i in chosen) for key, evs in self.cache.items()},
                {**{k: v for k, v in self.derived.items() if k != "depths"},
                 **({"depths": tuple(self.derived["depths"][i] for i in chosen)}
                    if "depths" in self.derived else {})}),
            streamed=streamed,
            streamed_checks=tuple((chosen.index(i), t) for i, t in self.streamed_checks
                                  if i in chosen))

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
        key = scoring_key(metrics, missing, order, gain, relevance_level, unjudged)
        found = self.cache.get(key)
        if found is None:
            if any(run is None for run in self.runs):
                done = ", ".join(sorted({m for k in self.cache for m in k.metrics}))
                raise ValueError(
                    "the runs were scored while they were read (for " + (done or "nothing")
                    + ") and not kept; read them again to score other metrics or options")
            found = self._evaluate(*key)
            self.cache.put(key, found)
        return found

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
                lambda run: score(run, qrels, metrics, missing, order, gain, relevance_level,
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
        evaluations = self.scored_for(settings, settings.unjudged)
        labels = self.default_run_names if settings.run_names is None else settings.run_names
        notes = scoring_notes(labels, evaluations, settings.missing)
        if settings.unjudged != "nonrelevant":
            notes.append(f"{cov.TREATMENT_NAMES[settings.unjudged]}: "
                         f"{input_coverage.treatment_note(self, settings.unjudged)}")
        asked = [parse_metric(m).name for m in settings.metrics]
        return [{m: ev.results[m] for m in asked} for ev in evaluations], notes

    def results(self, settings: CompareSettings) -> tuple[dict[str, MetricResult],
                                                          dict[str, MetricResult], list[str]]:
        """Per-query results of the baseline and the first candidate, and notes in words."""
        per_run, notes = self.run_results(settings)
        return per_run[0], per_run[1], notes

    def scored_for(self, settings: CompareSettings, unjudged: str) -> tuple[Evaluation, ...]:
        """Every run scored on the settings' metrics and the judged@k their coverage needs, in
        one pass (judged@k of condensed lists says nothing, so judged-only lists get theirs
        from the full lists in a second pass, see `_coverage`), and under the settings' own
        treatment the other tie readings the tie sentence will read (`tie_reading`)."""
        from ranklens.compare.tie_reading import readings_to_score

        extra = readings_to_score(self, settings) if unjudged == settings.unjudged else ()
        return self.evaluations((*scored_names(settings.metrics, unjudged), *extra),
                                missing=settings.missing, order=settings.order,
                                gain=settings.gain, relevance_level=settings.relevance_level,
                                unjudged=unjudged)

    def report(self, settings: CompareSettings,
               progress: Callable[[str], None] | None = None, *, strict: bool = False
               ) -> Report:
        """The full comparison report for ``settings`` with its health section
        (``ranklens.health``); ``strict`` raises ``HealthCheckFailed`` when a check fails.

        Systems given as several runs (``settings.seed_runs``): `ranklens.compare.seeds`.
        The report's settings name the id columns the runs were read by (``columns=`` of
        `load_inputs`); settings that name other ones raise ``ValueError``: read the inputs
        with ``columns=settings.id_columns()``.
        """
        settings = self.settings_read(settings)
        if settings.seed_runs is not None:
            from ranklens.compare.seeds import seeded_report

            return seeded_report(self, settings, progress)
        return health_step.report_with_health(self, settings, progress, strict)

    def settings_read(self, settings: CompareSettings) -> CompareSettings:
        """``settings`` with the id columns these inputs were read by; ``ValueError`` when
        they name others (the numbers would be another reading's)."""
        read = dict(self.id_columns)
        named = settings.id_columns() or {}
        if named and named != read:
            listed = ", ".join(f"{role} {column!r}" for role, column in named.items())
            raise ValueError(
                f"the settings name the id columns {listed}, but the runs were read "
                + (f"by {read}" if read else "by the columns the judgements chose")
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
        if progress and self.tables is None \
                and settings_key(settings, settings.unjudged) not in self.cache:
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
            shown = streamed_treatments(settings, largest, self.proxy_qrels is not None)
            for treatment in dict.fromkeys((settings.unjudged, "nonrelevant", *shown)):
                self.scored_for(replace(settings, unjudged=treatment), treatment)
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
        """Judged@k, the guardrail and the robustness view (`input_coverage.coverage`)."""
        return input_coverage.coverage(self, settings, comparisons, segments, queries)

    def run_rows(self, index: int) -> int:
        """Rows of run ``index``'s ranking (kept or scored while read); 0 for tables."""
        run = self.run(index)
        if run is not None:
            return len(run)
        summary = self.summaries.get(run_role(index))
        return 0 if summary is None or self.tables is not None else summary.rows

    def robustness(self, settings: CompareSettings
                   ) -> dict[str, tuple[cov.TreatmentResult, ...]]:
        """Each metric's overall comparison under every treatment of unjudged documents
        (`input_coverage.robustness`)."""
        return input_coverage.robustness(self, settings)


def _distinct(names: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return tuple(out)


def build_report(
    run_a: Input,
    run_b: Input,
    *candidates: Input,
    settings: CompareSettings | None = None,
    strict: bool = False,
    **files: Unpack[ComparisonFiles],
) -> Report:
    """Read, score and compare in one call, for scripts and tests.

    The same Report as ``load_inputs(...).report(settings)``, which the CLI and the app call in
    two steps (they show progress between reading and scoring, and the app keeps the inputs).
    ``qrels``, ``segments``, ``proxy_qrels`` and ``columns`` are `load_inputs`'
    (`ComparisonFiles`); without ``columns``, the id columns the settings name. ``strict``
    raises ``ranklens.health.HealthCheckFailed`` when a health check fails.
    """
    if files.get("columns") is None and settings is not None:
        files["columns"] = settings.id_columns()
    inputs = load_inputs(run_a, run_b, *candidates, **files)
    return inputs.report(settings or CompareSettings(), strict=strict)


def _run_label(label: str, file: str) -> str:
    """A run as warnings name it: its name, and its file when that says more."""
    return label if label == file else f"{label} ({file})"


