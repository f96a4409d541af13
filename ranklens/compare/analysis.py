"""From input files to a Report: the one pipeline behind the CLI, the app and share links.

``load_inputs`` reads the files once (runs + qrels, or two per-query metric tables, an optional
segment map and optional proxy judgements); ``LoadedInputs.report(settings)`` evaluates the
metrics (memoized per metric set, so changing the segment column or alpha does not re-score 7M
rows), runs the segment comparisons and measures the judgement coverage of both runs with its
guardrail and robustness view (``ranklens.compare.coverage``). The faces only collect the files
and settings and render the Report.

It does not draw, print or cache across processes: the app keeps a ``LoadedInputs`` per set of
input digests, the CLI builds one per invocation.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.segments import MetricComparison, compare_metrics
from ranklens.data import MetricResult, Qrels, Run
from ranklens.io import InputFile
from ranklens.io.shared_queries import (
    RUN_AND_QRELS_FIX,
    TWO_RUNS_FIX,
    check_shared_queries,
)
from ranklens.io.source import file_stem
from ranklens.metrics import Evaluation, evaluate, parse_metric
from ranklens.metrics.checks import no_relevant_warning, tied_scores_warning
from ranklens.metrics.holes import FilledQrels, fill_holes
from ranklens.stats import DEFAULT_INTERVAL, MIN_QUERIES

DEFAULT_METRICS = ("nDCG@10",)
_SCORED_KEPT = 16  # metric sets whose per-query values a LoadedInputs keeps
ROBUSTNESS_EAGER_ROWS = 2_000_000
"""Up to this many rows in the two runs, every report holds the robustness view; above, only
when a coverage banner is raised or another treatment was asked for: judged-only lists cost a
pass over every row of both runs (about 2 s of CPU for two 7M-row runs)."""


@dataclass(frozen=True)
class CompareSettings:
    """Every parameter of a comparison report, with the defaults a first visit uses.

    ``unjudged`` is how documents without a judgement are scored: ``"nonrelevant"``
    (trec_eval's default), ``"judged-only"`` (removed from the rankings, trec_eval -J) or
    ``"proxy"`` (labelled by the proxy judgements given with the inputs).
    """

    metrics: tuple[str, ...] = DEFAULT_METRICS
    segment_column: str | None = None
    alpha: float = 0.05
    n_resamples: int = 10_000
    n_permutations: int = 10_000
    seed: int = 0
    missing: str = "drop"
    interval: str = DEFAULT_INTERVAL
    adjust_method: str = "bh"
    order: str = "score"
    gain: str = "linear"
    relevance_level: int = 1
    min_queries: int = MIN_QUERIES
    run_names: tuple[str, str] | None = None
    unjudged: str = "nonrelevant"

    def canonical(self) -> CompareSettings:
        """Same settings with metric names in canonical form and duplicates removed."""
        names = tuple(dict.fromkeys(parse_metric(m).name for m in self.metrics))
        return dataclasses.replace(self, metrics=names)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as plain JSON (tuples become lists): what reports and links store."""
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, written_by: str = "this") -> CompareSettings:
        """Settings back from `to_dict`'s form (lists back to tuples).

        Raises ``ValueError`` naming the settings this version does not know (``written_by``
        says which ranklens wrote them): applying only the known ones would give other numbers
        than the writer saw.
        """
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"these settings were written by ranklens {written_by} with settings this "
                f"version does not know ({', '.join(unknown)}); open them with that version "
                "or newer")
        tuples = {"metrics", "run_names"}
        values: dict[str, Any] = {
            key: tuple(value) if key in tuples and isinstance(value, list) else value
            for key, value in data.items()}
        return cls(**values)


@dataclass(frozen=True, eq=False)
class LoadedInputs:
    """Parsed inputs of one comparison and the account of each read.

    Either ``run_a``/``run_b``/``qrels`` (rankings to score) or ``tables_a``/``tables_b``
    (per-query metric values computed elsewhere) are set. ``segment_maps`` maps each segment
    column to ``{query_id: segment}``. ``proxy_qrels`` are cheap judgements that can fill the
    holes of ``qrels`` (``unjudged="proxy"``).
    """

    files: tuple[InputFile, ...]
    summaries: Mapping[str, io.ReadSummary]
    run_a: Run | None = None
    run_b: Run | None = None
    qrels: Qrels | None = None
    tables_a: Mapping[str, MetricResult] | None = None
    tables_b: Mapping[str, MetricResult] | None = None
    segment_maps: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    proxy_qrels: Qrels | None = None
    # scored metrics by argument set; shared with the copies `with_segments` makes
    scored: dict[tuple[Any, ...], tuple[Evaluation, Evaluation]] = field(
        default_factory=dict, repr=False)
    # the inputs' own warnings (tied scores, no relevant document), by argument set
    checked: dict[tuple[Any, ...], tuple[str, ...]] = field(default_factory=dict, repr=False)
    # derived once: the qrels with holes filled, documents retrieved per query
    derived: dict[str, Any] = field(default_factory=dict, repr=False)

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
    def default_run_names(self) -> tuple[str, str]:
        """Names shown for A and B: the run tags or file names."""
        files = {f.role: f.name for f in self.files}
        return (file_stem(files.get("run_a", "A")), file_stem(files.get("run_b", "B")))

    def file_name(self, role: str) -> str:
        """The name of the file read for ``role`` (the role itself when there is none)."""
        return next((f.name for f in self.files if f.role == role), role)

    def input_warnings(self, *, order: str = "score", relevance_level: int = 1,
                       run_names: tuple[str, str] | None = None) -> tuple[str, ...]:
        """What in the inputs makes the metrics say little, in words: judgements without a
        relevant document, a run tied on most queries (scored by score only). Memoized."""
        labels = run_names or self.default_run_names
        key = (order, relevance_level, labels)
        if key not in self.checked:
            found: list[str] = []
            if self.qrels is not None:
                found.append(no_relevant_warning(self.qrels, self.file_name("qrels"),
                                                 relevance_level) or "")
            if order == "score":
                for run, role, label in ((self.run_a, "run_a", labels[0]),
                                         (self.run_b, "run_b", labels[1])):
                    if run is not None:
                        found.append(tied_scores_warning(
                            run, _run_label(label, self.file_name(role))) or "")
            self.checked[key] = tuple(message for message in found if message)
        return self.checked[key]

    def check_shared_queries(self, results_a: Mapping[str, MetricResult],
                             results_b: Mapping[str, MetricResult], missing: str) -> None:
        """Refuse, naming the files and showing ids of each, inputs that share no query:
        a run and the judgements, or the two runs (two tables)."""
        name_a, name_b = self.file_name("run_a"), self.file_name("run_b")
        if self.qrels is not None:
            judged = self.qrels.query_ids()
            for run, name in ((self.run_a, name_a), (self.run_b, name_b)):
                assert run is not None
                check_shared_queries((name, run.query_ids()), (self.file_name("qrels"), judged),
                                     RUN_AND_QRELS_FIX)
        if missing == "zero":
            return
        for metric in results_a:
            check_shared_queries((name_a, list(results_a[metric].per_query)),
                                 (name_b, list(results_b[metric].per_query)), TWO_RUNS_FIX)

    @property
    def available_metrics(self) -> tuple[str, ...] | None:
        """Metrics of per-query tables (present in both); None when runs are scored here."""
        if self.tables_a is None or self.tables_b is None:
            return None
        return tuple(m for m in self.tables_a if m in self.tables_b)

    @property
    def treatments(self) -> tuple[str, ...]:
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

    def ranking_depths(self) -> tuple[dict[str, int], dict[str, int]]:
        """Documents retrieved per query by A and by B (computed once)."""
        if self.run_a is None or self.run_b is None:
            raise ValueError("these inputs are per-query tables: there are no rankings")
        if "depths" not in self.derived:
            self.derived["depths"] = (cov.ranking_depths(self.run_a),
                                      cov.ranking_depths(self.run_b))
        depths: tuple[dict[str, int], dict[str, int]] = self.derived["depths"]
        return depths

    def evaluations(self, metrics: tuple[str, ...], *, missing: str = "drop",
                    order: str = "score", gain: str = "linear",
                    relevance_level: int = 1,
                    unjudged: str = "nonrelevant") -> tuple[Evaluation, Evaluation]:
        """Per-query values of ``metrics`` for A and B (memoized per argument set), with
        unjudged documents treated as ``unjudged`` says."""
        key = (tuple(metrics), missing, order, gain, relevance_level, unjudged)
        if key not in self.scored:
            if len(self.scored) >= _SCORED_KEPT:
                self.scored.pop(next(iter(self.scored)))
            self.scored[key] = self._evaluate(*key)
        return self.scored[key]

    def _evaluate(self, metrics: tuple[str, ...], missing: str, order: str, gain: str,
                  relevance_level: int, unjudged: str) -> tuple[Evaluation, Evaluation]:
        if self.run_a is None or self.run_b is None or self.qrels is None:
            raise ValueError("these inputs are per-query tables: there are no runs to score")
        if unjudged not in cov.TREATMENTS:
            raise ValueError(f"unjudged must be one of {', '.join(cov.TREATMENTS)}, "
                             f"not {unjudged!r}")
        options: dict[str, Any] = dict(missing="zero" if missing == "zero" else "drop",
                                       order=order, gain=gain, relevance_level=relevance_level,
                                       judged_only=unjudged == "judged-only")
        qrels = self.filled_qrels().qrels if unjudged == "proxy" else self.qrels
        # A and B in two threads: numpy and arrow release the GIL, so on two cores the runs
        # are scored side by side; the values are the same as scored in turn.
        with ThreadPoolExecutor(max_workers=2) as pool:
            eval_a, eval_b = pool.map(lambda run: evaluate(run, qrels, list(metrics), **options),
                                      (self.run_a, self.run_b))
        return eval_a, eval_b

    def results(self, settings: CompareSettings) -> tuple[dict[str, MetricResult],
                                                          dict[str, MetricResult], list[str]]:
        """Per-query results of A and B for the settings' metrics, and notes in words."""
        notes: list[str] = []
        if self.tables_a is not None and self.tables_b is not None:
            names = list(settings.metrics)
            unknown = [m for m in names if m not in self.tables_a or m not in self.tables_b]
            if unknown:
                raise ValueError(f"the per-query tables have no column for {unknown}; they "
                                 f"have {list(self.available_metrics or ())}")
            if settings.unjudged != "nonrelevant":
                raise ValueError("per-query tables carry no judgements: unjudged documents "
                                 "can only be treated as the tables' producer did")
            return ({m: self.tables_a[m] for m in names},
                    {m: self.tables_b[m] for m in names}, notes)
        eval_a, eval_b = self._scored(settings, settings.unjudged)
        labels = self.default_run_names if settings.run_names is None else settings.run_names
        notes = scoring_notes(labels, (eval_a, eval_b), settings.missing)
        if settings.unjudged != "nonrelevant":
            notes.append(f"{cov.TREATMENT_NAMES[settings.unjudged]}: "
                         f"{self._treatment_note(settings.unjudged)}")
        asked = [parse_metric(m).name for m in settings.metrics]
        return ({m: eval_a.results[m] for m in asked}, {m: eval_b.results[m] for m in asked},
                notes)

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

    def _scored(self, settings: CompareSettings, unjudged: str) -> tuple[Evaluation, Evaluation]:
        """A and B scored on the settings' metrics and the judged@k their coverage needs, in
        one pass (judged@k of condensed lists says nothing, so judged-only lists get theirs
        from the full lists in a second pass, see `_coverage`)."""
        extra = () if unjudged == "judged-only" else self._judged_names(settings.metrics)
        names = tuple(dict.fromkeys((*settings.metrics, *extra)))
        return self.evaluations(names, missing=settings.missing, order=settings.order,
                                gain=settings.gain, relevance_level=settings.relevance_level,
                                unjudged=unjudged)

    @staticmethod
    def _judged_names(metrics: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(cov.judged_name(cov.coverage_depth(m)) for m in metrics))

    def report(self, settings: CompareSettings,
               progress: Callable[[str], None] | None = None) -> Report:
        """The full comparison report for ``settings``."""
        settings = settings.canonical() if self.tables_a is None else settings
        if progress:
            progress("scoring the runs")
        results_a, results_b, notes = self.results(settings)
        self.check_shared_queries(results_a, results_b, settings.missing)
        notes = [*self.input_warnings(order=settings.order,
                                      relevance_level=settings.relevance_level,
                                      run_names=settings.run_names), *notes]
        if progress:
            progress("comparing")
        report = report_from_results(
            settings, results_a, results_b, notes,
            inputs=tuple(input_record(f, self.summaries.get(f.role)) for f in self.files),
            segment_maps=self.segment_maps,
            run_names=settings.run_names or self.default_run_names)
        if self.run_a is None or self.qrels is None:
            return report
        if progress:
            progress("checking judgement coverage")
        segments = (None if settings.segment_column is None
                    else self.segment_maps[settings.segment_column])
        return dataclasses.replace(
            report, coverage=self._coverage(settings, report.comparisons, segments))

    def _coverage(self, settings: CompareSettings, comparisons: tuple[MetricComparison, ...],
                  segments: Mapping[str, str] | None) -> cov.Coverage:
        """Judged@k of both runs per metric and row, the guardrail, and the robustness view."""
        treatment = settings.unjudged
        # coverage is measured on the lists as retrieved: condensed lists have no holes left
        measured = "nonrelevant" if treatment == "judged-only" else treatment
        eval_a, eval_b = self._scored(replace(settings, unjudged=measured), measured)
        depths_a, depths_b = self.ranking_depths()
        scored_a, scored_b = self._scored(settings, treatment)
        metrics = []
        for comparison in comparisons:
            judged = cov.judged_name(cov.coverage_depth(comparison.metric))
            guarded, note = True, ""
            if treatment == "judged-only":
                guarded, note = False, "judged-only lists hold no unjudged document"
            metrics.append(cov.metric_coverage(
                comparison, eval_a.results[judged], eval_b.results[judged], depths_a,
                depths_b, segments=segments, missing=settings.missing,
                residual_a=scored_a.residuals.get(comparison.metric),
                residual_b=scored_b.residuals.get(comparison.metric),
                guarded=guarded, note=note))
        rows = len(self.run_a or ()) + len(self.run_b or ())
        if (rows <= ROBUSTNESS_EAGER_ROWS or treatment != "nonrelevant"
                or any(m.alert for m in metrics)):
            return cov.Coverage(treatment, tuple(metrics), self.robustness(settings))
        note = (f"Robustness view not computed: no coverage banner, and the runs hold "
                f"{rows:,} rows (above {ROBUSTNESS_EAGER_ROWS:,}, judged-only lists cost a pass "
                "over every row); ask for another treatment of unjudged documents to see it.")
        return cov.Coverage(treatment, tuple(metrics), {}, (note,))

    def robustness(self, settings: CompareSettings
                   ) -> dict[str, tuple[cov.TreatmentResult, ...]]:
        """The robustness view: each metric's overall comparison under every treatment of
        unjudged documents these inputs allow (non-relevant, judged-only, and proxy labels
        when proxy judgements were given), with the same statistics settings."""
        by_treatment = {}
        for treatment in self.treatments:
            variant = replace(settings, unjudged=treatment, segment_column=None)
            results_a, results_b, _ = self.results(variant)
            comparisons = compare_metrics(
                results_a, results_b, None, alpha=settings.alpha,
                n_resamples=settings.n_resamples, n_permutations=settings.n_permutations,
                seed=settings.seed, missing=settings.missing, interval=settings.interval,
                adjust_method=settings.adjust_method, min_queries=settings.min_queries)
            informative = treatment != "proxy" or self.filled_qrels().n_filled > 0
            by_treatment[treatment] = ({c.metric: c.overall for c in comparisons},
                                       self._treatment_note(treatment), informative)
        return {metric: tuple(cov.TreatmentResult(t, results[metric], note, informative)
                              for t, (results, note, informative) in by_treatment.items())
                for metric in settings.metrics}


def scoring_notes(labels: tuple[str, str], evaluations: tuple[Evaluation, Evaluation],
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
    segments = None
    if settings.segment_column is not None:
        if settings.segment_column not in segment_maps:
            raise ValueError(f"no segment column {settings.segment_column!r}; the segment "
                             f"map has {list(segment_maps) or 'none'}")
        segments = segment_maps[settings.segment_column]
    comparisons = compare_metrics(
        results_a, results_b, segments, segment_column=settings.segment_column,
        alpha=settings.alpha, n_resamples=settings.n_resamples,
        n_permutations=settings.n_permutations, seed=settings.seed,
        missing=settings.missing, interval=settings.interval,
        adjust_method=settings.adjust_method, min_queries=settings.min_queries)
    messages = list(dict.fromkeys([*notes, *(w for c in comparisons for w in c.warnings)]))
    return Report(
        params=dataclasses.replace(settings, run_names=run_names).to_dict(),
        inputs=inputs,
        comparisons=comparisons,
        per_query={m: {"a": dict(results_a[m].per_query), "b": dict(results_b[m].per_query)}
                   for m in results_a},
        warnings=tuple(messages),
        run_names=run_names,
    )


def load_inputs(
    run_a: InputFile,
    run_b: InputFile,
    *,
    qrels: InputFile | None = None,
    segments: InputFile | None = None,
    proxy_qrels: InputFile | None = None,
    max_bytes: int | None = None,
) -> LoadedInputs:
    """Read the inputs of one comparison; every problem is an ``io.InputError`` in words.

    With ``qrels``, ``run_a``/``run_b`` are rankings; without, they are per-query metric tables
    (query id + one column per metric, or long form). ``segments`` is a segment map with one
    or more segment columns. ``proxy_qrels`` (role ``qrels_proxy``) are cheap judgements that
    can fill the holes of ``qrels``; they need ``qrels``.
    """
    if proxy_qrels is not None and qrels is None:
        raise io.InputError(proxy_qrels.name, "proxy judgements fill the holes of the "
                            "judgements, and there are none",
                            hint="Give the judgements (qrels) too.")
    files = tuple(f for f in (run_a, run_b, qrels, segments, proxy_qrels) if f is not None)
    summaries: dict[str, io.ReadSummary] = {}
    loaded: dict[str, Any] = {}
    # runs keep their rank column: order="rank" is offered when scores are tied
    read = functools.partial(io.read_run, keep_ranks=True) if qrels is not None \
        else io.read_per_query
    # Every file is parsed in its own thread and the digests computed meanwhile (arrow, numpy
    # and hashlib release the GIL): on two cores the single-threaded phases of one read
    # overlap another. Errors surface in the order of a sequential read (A, B, qrels, ...).
    with ThreadPoolExecutor(max_workers=5) as pool:
        reads = {f.role: pool.submit(read, f.data, name=f.name, max_bytes=max_bytes)
                 for f in (run_a, run_b)}
        if qrels is not None:
            reads["qrels"] = pool.submit(io.read_qrels, qrels.data, name=qrels.name,
                                         max_bytes=max_bytes)
        if segments is not None:
            reads["segments"] = pool.submit(io.read_segments, segments.data,
                                            name=segments.name, max_bytes=max_bytes)
        if proxy_qrels is not None:
            reads["qrels_proxy"] = pool.submit(io.read_qrels, proxy_qrels.data,
                                               name=proxy_qrels.name, max_bytes=max_bytes)
        digests = pool.submit(lambda: [f.sha256 for f in files])
        try:
            for role, future in reads.items():
                loaded[role], summaries[role] = future.result()
            digests.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    segment_maps = dict(loaded.pop("segments").by_column) if segments is not None else {}
    if qrels is not None:
        return LoadedInputs(files, summaries, run_a=loaded["run_a"], run_b=loaded["run_b"],
                            qrels=loaded["qrels"], segment_maps=segment_maps,
                            proxy_qrels=loaded.get("qrels_proxy"))
    return LoadedInputs(files, summaries, tables_a=loaded["run_a"], tables_b=loaded["run_b"],
                        segment_maps=segment_maps)


def build_report(
    run_a: InputFile,
    run_b: InputFile,
    *,
    qrels: InputFile | None = None,
    segments: InputFile | None = None,
    settings: CompareSettings | None = None,
    proxy_qrels: InputFile | None = None,
) -> Report:
    """Read, score and compare in one call, for scripts and tests.

    The same Report as ``load_inputs(...).report(settings)``, which the CLI and the app call in
    two steps (they show progress between reading and scoring, and the app keeps the inputs).
    """
    inputs = load_inputs(run_a, run_b, qrels=qrels, segments=segments,
                         proxy_qrels=proxy_qrels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report carries every warning in words
        return inputs.report(settings or CompareSettings())


def demo_files() -> dict[str, InputFile]:
    """The bundled demo inputs as InputFiles, by role."""
    from ranklens import demo

    return {role: InputFile.from_path(role, path) for role, path in demo.paths().items()}


def _run_label(label: str, file: str) -> str:
    """A run as warnings name it: its name, and its file when that says more."""
    return label if label == file else f"{label} ({file})"


def input_record(file: InputFile, summary: io.ReadSummary | None) -> InputRecord:
    """How a report lists one input: role, name, digest, size and what the reader made of it."""
    plain: dict[str, Any] = {}
    if summary is not None:
        plain = {
            "format": summary.format, "rows": summary.rows, "queries": summary.queries,
            "documents": summary.documents, "compressed": summary.compressed,
            "columns": dict(summary.columns),
            "set_aside": [asdict(item) for item in summary.set_aside],
            "notes": list(summary.notes), "description": summary.describe(),
        }
    return InputRecord(file.role, file.name, file.sha256, len(file.data), plain)
