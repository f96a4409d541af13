"""The Report: what went in (digests of the inputs, every parameter), what came out, in JSON.

A report answers "what exactly was compared, how, and with what result" so that a colleague,
the CLI and a share link show the same numbers byte for byte. It does not compute anything:
``ranklens.compare.analysis`` builds reports; the faces (CLI, app) only render them.

A report of two runs is written as schema 2 (`SCHEMA`), exactly as before several candidates
existed. A report of a baseline and several candidates is schema 3 (`SEVERAL_SCHEMA`): the same
keys, plus ``families`` (per metric, the comparisons adjusted together and their adjusted p), a
``candidate`` on each comparison, one per-query key per run ("a" the baseline, "b", "c",
...) and ``candidate_coverage`` (each candidate's judgement coverage against the baseline,
as ``coverage`` is for two runs). This version reads schemas 1 to 3.

JSON round trip: ``Report.from_json(report.to_json()) == report``, and floats survive exactly
(``json`` writes the shortest repr that reads back to the same double). Each result is stored
as its flat `ComparisonResult.row` and read back by `ComparisonResult.from_row`, which
rebuilds the nested interval, t-test and win/tie/loss counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ranklens import codec
from ranklens._lazy import imported, installed_version
from ranklens.compare.coverage import Coverage
from ranklens.compare.family import FamilyComparison, PairRow, run_key, run_role
from ranklens.compare.macro import MacroSection, candidate_sections
from ranklens.compare.seed_section import SeedsSection
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.compare.slice_result import DiscoveredSlice
from ranklens.health import HealthReport
from ranklens.stats import ComparisonResult

if TYPE_CHECKING:
    import pandas as pd

SCHEMA = 2
"""Version 2 (issue 15): every result carries ``n_snapped`` (per-query differences within the
float-noise tolerance, counted as ties) and ``interval`` names the interval actually shown
("studentized" or "sign-flip" under the default rule by n). Version-1 reports still read: their
results get ``n_snapped`` 0. Two-run reports are written as version 2."""
SEVERAL_SCHEMA = 3
"""Version 3 (issue 17): a baseline and several candidates: ``families``, a ``candidate`` on
each comparison and one per-query key per run. Two-run reports stay version 2."""
TWO_RUN_SCHEMA = SCHEMA
READABLE_SCHEMAS = (1, 2, 3)


@dataclass(frozen=True)
class InputRecord:
    """One input file: its role (run_a, run_b, qrels, segments, ...), display name, digest,
    size in bytes, and the reader's summary (rows, queries, rows set aside and why)."""

    role: str
    name: str
    sha256: str
    size: int
    summary: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """A comparison report: inputs, parameters, per-metric comparisons, per-query values.

    ``per_query`` maps a metric to ``{"a": {query: value}, "b": {query: value}, ...}`` (one key
    per run, see `ranklens.compare.family.run_key`) so that the per-query view, exports and a
    shared link need no recomputation. ``warnings`` are in words, for people; ``run_names``
    are the display names of the runs, the baseline (A) first. ``coverage`` is the judgement
    coverage of both runs of a two-run report, its guardrail and the robustness view (None for
    per-query tables, which carry no judgements; absent from reports written before it
    existed).

    With several candidates, ``comparisons`` holds every candidate's comparisons (candidate
    by candidate, metric by metric; ``MetricComparison.candidate`` says whose),
    ``families`` one `FamilyComparison` per metric and ``candidate_coverage`` each candidate's
    coverage against the baseline (in candidate order; empty for per-query tables);
    `candidate_report` is one candidate's two-run view of it, coverage included.
    """

    params: Mapping[str, Any]
    inputs: tuple[InputRecord, ...]
    comparisons: tuple[MetricComparison, ...]
    per_query: Mapping[str, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    run_names: tuple[str, ...] = ("A", "B")
    version: str = field(default_factory=installed_version)
    kind: str = "compare"
    coverage: Coverage | None = None
    families: tuple[FamilyComparison, ...] = ()
    candidate_coverage: tuple[Coverage | None, ...] = ()
    # the health checks of the inputs (ranklens.health); None in reports written before them
    health: HealthReport | None = None
    # systems given as several runs: the new-run answers (ranklens.compare.seed_section)
    seeds: SeedsSection | None = None
    # issue 30: query id -> text (cut, ranklens.compare.query_texts); metric -> the sentence saying
    # the verdict reads otherwise under the other tie rule (ranklens.compare.tie_reading);
    # metric -> query -> the moves that explain B - A on the queries B lost and won most
    query_texts: Mapping[str, str] = field(default_factory=dict)
    tie_notes: Mapping[str, str] = field(default_factory=dict)
    query_moves: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # several collections (issue 32): the macro average per metric and candidate
    macro: tuple[MacroSection, ...] = ()
    # issue 48: slices where B - A differs, each half of the queries searching for the
    # other (ranklens.compare.discovery); params["discover"] says how
    discovered: tuple[DiscoveredSlice, ...] = ()

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.metric for c in self.comparisons))

    @property
    def pair_names(self) -> tuple[str, str]:
        """A and B: the baseline and the first candidate (the runs of a two-run report)."""
        return (self.run_names[0], self.run_names[1])

    @property
    def candidates(self) -> tuple[int, ...]:
        """Indices of the candidate runs in ``run_names`` (1 for a two-run report)."""
        return tuple(range(1, len(self.run_names)))

    @property
    def several(self) -> bool:
        """Whether this is a baseline with two or more candidates."""
        return len(self.run_names) > 2

    def comparison(self, metric: str, candidate: int = 1) -> MetricComparison:
        for c in self.comparisons:
            if c.metric == metric and c.candidate == candidate:
                return c
        raise KeyError(f"no comparison for {metric!r} of candidate {candidate}; the report "
                       f"has {list(self.metrics)} for candidates {list(self.candidates)}")

    def family(self, metric: str) -> FamilyComparison | None:
        """The family of ``metric`` (None for two runs: one comparison is no family)."""
        return next((f for f in self.families if f.metric == metric), None)

    def candidate_report(self, candidate: int) -> Report:
        """Candidate ``candidate`` against the baseline as a two-run report.

        Its overall rows keep the family-adjusted p (as ``q_value``), so the sentences and
        decisions about it are the family's; per-query values, inputs and names are those of
        the two runs. A two-run report is its own candidate 1.
        """
        if not self.several:
            if candidate != 1:
                raise KeyError(f"a two-run report has candidate 1 only, not {candidate}")
            return self
        if candidate not in self.candidates:
            raise KeyError(f"no candidate {candidate}; the candidates are "
                           f"{list(self.candidates)}")
        names = (self.run_names[0], self.run_names[candidate])
        roles = {run_role(0), run_role(candidate)}
        key = run_key(candidate)
        return Report(
            params={**self.params, "run_names": list(names)},
            inputs=tuple(r for r in self.inputs
                         if r.role in roles or not r.role.startswith("run_")),
            comparisons=tuple(dataclasses.replace(c, candidate=1) for c in self.comparisons
                              if c.candidate == candidate),
            per_query={m: {"a": values["a"], "b": values[key]}
                       for m, values in self.per_query.items()},
            warnings=self.warnings,
            run_names=names,
            version=self.version,
            kind=self.kind,
            coverage=self.coverage_of(candidate),
            health=None if self.health is None else self.health.for_pair(candidate),
            seeds=None if self.seeds is None else self.seeds.for_candidate(candidate),
            query_texts=self.query_texts,
            macro=candidate_sections(self.macro, candidate),
        )

    def coverage_of(self, candidate: int) -> Coverage | None:
        """Candidate ``candidate``'s judgement coverage against the baseline (None for
        per-query tables, or when the report holds none)."""
        if not self.several:
            return self.coverage if candidate == 1 else None
        index = candidate - 1
        return (self.candidate_coverage[index] if 0 <= index < len(self.candidate_coverage)
                else None)

    @property
    def schema(self) -> int:
        """The schema this report is written as: `SEVERAL_SCHEMA` with several candidates,
        else `TWO_RUN_SCHEMA`."""
        return SEVERAL_SCHEMA if self.several else TWO_RUN_SCHEMA

    def to_dict(self) -> dict[str, Any]:
        """The report's plain JSON form (`ranklens.codec.plain`, under the forms registered
        below), its ``schema`` first."""
        return {"schema": self.schema, **codec.plain(self)}

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as strict JSON (`ranklens.codec`): a non-finite number (an infinite
        effect size) is null, named in words under ``"non_finite"``, and reads back."""
        return codec.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """A report back from `to_dict`'s form, of any schema in `READABLE_SCHEMAS`; keys this
        version does not know (written by a newer one) are left out, absent optional keys
        take their defaults. ``ValueError`` for another schema or a malformed report."""
        data = codec.decode(data)
        if data.get("schema") not in READABLE_SCHEMAS:
            raise ValueError(f"unsupported report schema {data.get('schema')!r}; "
                             f"this ranklens reads schemas {READABLE_SCHEMAS}")
        return codec.rebuild(cls, data)

    @classmethod
    def from_json(cls, text: str) -> Report:
        return cls.from_dict(codec.loads(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Report) and self.to_dict() == other.to_dict()

    # The faces below are writers' (a result imports no renderer): each method names its
    # writer, which `imported` loads on the call.

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate x metric x segment (``ranklens.compare.frame.report_frame``)."""
        frame: pd.DataFrame = imported("ranklens.compare.frame:report_frame")(self)
        return frame

    def to_latex(self, *, caption: str | None = None, label: str = "") -> str:
        """A booktabs table with intervals, p, q and significance
        (``ranklens.compare.latex.report_latex``)."""
        latex: str = imported("ranklens.compare.latex:report_latex")(
            self, caption=caption, label=label)
        return latex

    def _repr_html_(self) -> str:
        """In a notebook: the HTML export's body, charts inline
        (``ranklens.compare.html.notebook_html``)."""
        html: str = imported("ranklens.compare.html:notebook_html")(self)
        return html

    __hash__ = None  # type: ignore[assignment]


def _seed_to_plain(seed: int | np.random.SeedSequence) -> Any:
    if isinstance(seed, np.random.SeedSequence):
        entropy: Any = seed.entropy
        plain = int(entropy) if isinstance(entropy, int) else [int(e) for e in entropy]
        return {"entropy": plain, "spawn_key": list(seed.spawn_key)}
    return int(seed)


def _seed_from_plain(value: Any) -> int | np.random.SeedSequence:
    if isinstance(value, dict):
        return np.random.SeedSequence(value["entropy"], spawn_key=tuple(value["spawn_key"]))
    return int(value)


def result_row(result: ComparisonResult) -> dict[str, Any]:
    """One result as the flat row the faces choose their columns from: the fields a report
    stores (`ComparisonResult.row`, keys `ranklens.stats.results.ROW_KEYS`), then the decision
    they give, ``significant`` (which the JSON does not store: it follows from them).

    The CSV (``ranklens.compare.text``) and the tables (``ranklens.compare.report_tables``,
    hence the app and the HTML export) read their numbers from here, the JSON from the same
    `ComparisonResult.row`; none of them lists a result's fields by hand.
    """
    return {**result.row(), "significant": result.significant}


def _result_to_dict(result: ComparisonResult) -> dict[str, Any]:
    """A result in the report's JSON: its flat `ComparisonResult.row`, the seed made plain."""
    return {**result.row(), "seed": _seed_to_plain(result.seed)}


def _result_from_dict(data: Mapping[str, Any]) -> ComparisonResult:
    return ComparisonResult.from_row({**data, "seed": _seed_from_plain(data["seed"])})


# How the report's objects are written (`ranklens.codec.Form`): the key orders below are those
# of the JSON reports have been written in since schema 1, so their bytes do not change.
codec.register(ComparisonResult, codec.Form(to_plain=_result_to_dict,
                                            from_plain=_result_from_dict))
# fcr (the FCR-adjusted interval, issue 32) and shape_note (issue 45) only where there is one
# lift (issue 51) only where there is one: reports written before it read it as None
codec.register(SegmentRow, codec.Form(order=("segment", "n_queries", "note", "result"),
                                      omit_default=("fcr", "shape_note", "lift")))
# candidate and overall_family are written only with several candidates, fcr with segments
codec.register(MetricComparison, codec.Form(omit_default=("candidate", "overall_family",
                                                          "fcr", "overall_lift")))
codec.register(PairRow, codec.Form(order=("a", "b", "adjusted_p", "result")))
codec.register(FamilyComparison, codec.Form(
    order=("metric", "family", "method", "n_queries", "missing", "policy", "n_permutations",
           "exact", "pairs")))
codec.register(HealthReport, codec.Form(to_plain=HealthReport.to_dict,
                                        from_plain=HealthReport.from_dict))
codec.register(Report, codec.Form(
    order=("kind", "version", "run_names", "params", "inputs", "comparisons", "per_query",
           "warnings", "coverage", "families", "candidate_coverage", "health", "seeds",
           "macro", "discovered"),
    omit_default=("coverage", "families", "candidate_coverage", "health", "query_texts",
                  "tie_notes", "query_moves", "seeds", "macro", "discovered")))
