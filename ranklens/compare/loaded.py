"""Parsed inputs of one comparison: `LoadedInputs`, the input of every compare step.

Answers what was read (files, summaries, runs, judgements, per-query tables, segment maps), how
each read went (records, warnings) and what is memoized from it (``cache``: the scoring memo,
ranking depths, filled qrels). It reads no file (``ranklens.compare.inputs.load_inputs``
does) and builds no report: the steps that compute from these inputs (``scored``,
``comparison``, ``health_step``, ``analysis``) take it as their argument and live above it.
Its methods ``report``, ``comparison_report``, ``run_results``, ``results``, ``scored_for``
and ``robustness`` are kept for callers and delegate to those steps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ranklens import io
from ranklens._lazy import imported
from ranklens.compare import coverage as cov
from ranklens.compare.assemble import input_record
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import run_key, run_role
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.scoring import ScoreCache, score, scoring_key
from ranklens.compare.settings import CompareSettings
from ranklens.data import MetricResult, Qrels, Run
from ranklens.io import InputFile
from ranklens.io.shared_queries import RUN_AND_QRELS_FIX, TWO_RUNS_FIX, check_shared_queries
from ranklens.io.source import file_stem
from ranklens.metrics import Evaluation
from ranklens.metrics.checks import TiedScores, no_relevant_warning, tied_scores_warning
from ranklens.metrics.holes import FilledQrels, fill_holes


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
        files = tuple(relabelled(f, relabel.get(f.role, f.role)) for f in self.files
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

    def run_rows(self, index: int) -> int:
        """Rows of run ``index``'s ranking (kept or scored while read); 0 for tables."""
        run = self.run(index)
        if run is not None:
            return len(run)
        summary = self.summaries.get(run_role(index))
        return 0 if summary is None or self.tables is not None else summary.rows

    def treatment_note(self, treatment: str) -> str:
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

    # The steps that compute from these inputs live above this module (it is their input):
    # each method below names its step, which `imported` loads on the call.

    def run_results(self, settings: CompareSettings
                    ) -> tuple[list[dict[str, MetricResult]], list[str]]:
        """Per-query results of every run for the settings' metrics, and notes in words
        (``ranklens.compare.scored.run_results``)."""
        found: tuple[list[dict[str, MetricResult]], list[str]] = imported(
            "ranklens.compare.scored:run_results")(self, settings)
        return found

    def results(self, settings: CompareSettings) -> tuple[dict[str, MetricResult],
                                                          dict[str, MetricResult], list[str]]:
        """Per-query results of the baseline and the first candidate, and notes in words
        (``ranklens.compare.scored.results``)."""
        found: tuple[dict[str, MetricResult], dict[str, MetricResult], list[str]] = imported(
            "ranklens.compare.scored:results")(self, settings)
        return found

    def scored_for(self, settings: CompareSettings, unjudged: str) -> tuple[Evaluation, ...]:
        """Every run scored for ``settings`` under ``unjudged``
        (``ranklens.compare.scored.scored_for``)."""
        found: tuple[Evaluation, ...] = imported("ranklens.compare.scored:scored_for")(
            self, settings, unjudged)
        return found

    def report(self, settings: CompareSettings,
               progress: Callable[[str], None] | None = None, *, strict: bool = False
               ) -> Report:
        """The full comparison report for ``settings`` with its health section
        (``ranklens.compare.analysis.inputs_report``)."""
        report: Report = imported("ranklens.compare.analysis:inputs_report")(
            self, settings, progress, strict=strict)
        return report

    def comparison_report(self, settings: CompareSettings,
                          progress: Callable[[str], None] | None = None) -> Report:
        """The comparison report for ``settings``, without its health section
        (``ranklens.compare.comparison.comparison_report``)."""
        report: Report = imported("ranklens.compare.comparison:comparison_report")(
            self, settings, progress)
        return report

    def robustness(self, settings: CompareSettings
                   ) -> dict[str, tuple[cov.TreatmentResult, ...]]:
        """Each metric's overall comparison under every treatment of unjudged documents
        (``ranklens.compare.input_coverage.robustness``)."""
        found: dict[str, tuple[cov.TreatmentResult, ...]] = imported(
            "ranklens.compare.input_coverage:robustness")(self, settings)
        return found


def relabelled(file: InputFile, role: str) -> InputFile:
    """``file`` as an input of ``role``, keeping its digest when it was computed."""
    if file.role == role:
        return file
    digest = file.__dict__.get("sha256")
    if digest is None:
        return InputFile(role, file.name, file.data)
    return InputFile.with_digest(role, file.name, file.data, digest)


def _distinct(names: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return tuple(out)


def _run_label(label: str, file: str) -> str:
    """A run as warnings name it: its name, and its file when that says more."""
    return label if label == file else f"{label} ({file})"


