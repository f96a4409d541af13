"""The Report: what went in (digests of the inputs, every parameter), what came out, in JSON.

A report answers "what exactly was compared, how, and with what result" so that a colleague,
the CLI and a share link show the same numbers byte for byte. It does not compute anything:
``ranklens.compare.analysis`` builds reports; the faces (CLI, app) only render them.

JSON round trip: ``Report.from_json(report.to_json()) == report``, and floats survive exactly
(``json`` writes the shortest repr that reads back to the same double). Each result is stored
as its flat `ComparisonResult.row` and read back by `ComparisonResult.from_row`, which
rebuilds the nested interval, t-test and win/tie/loss counts.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ranklens import __version__
from ranklens.compare.coverage import Coverage, coverage_from_dict, coverage_to_dict
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.stats import ComparisonResult

SCHEMA = 2
"""Version 2 (issue 15): every result carries ``n_snapped`` (per-query differences within the
float-noise tolerance, counted as ties) and ``interval`` names the interval actually shown
("studentized" or "sign-flip" under the default rule by n). Version-1 reports still read: their
results get ``n_snapped`` 0."""
READABLE_SCHEMAS = (1, 2)


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

    ``per_query`` maps a metric to ``{"a": {query: value}, "b": {query: value}}`` so that the
    per-query view, exports and a shared link need no recomputation. ``warnings`` are in words,
    for people; ``run_names`` are the display names of A and B. ``coverage`` is the judgement
    coverage of both runs, its guardrail and the robustness view (None for per-query tables,
    which carry no judgements; absent from reports written before it existed).
    """

    params: Mapping[str, Any]
    inputs: tuple[InputRecord, ...]
    comparisons: tuple[MetricComparison, ...]
    per_query: Mapping[str, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    run_names: tuple[str, str] = ("A", "B")
    version: str = __version__
    kind: str = "compare"
    coverage: Coverage | None = None

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(c.metric for c in self.comparisons)

    def comparison(self, metric: str) -> MetricComparison:
        for c in self.comparisons:
            if c.metric == metric:
                return c
        raise KeyError(f"no comparison for {metric!r}; the report has {list(self.metrics)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "kind": self.kind,
            "version": self.version,
            "run_names": list(self.run_names),
            "params": _plain(self.params),
            "inputs": [_plain(dataclasses.asdict(record)) for record in self.inputs],
            "comparisons": [_comparison_to_dict(c) for c in self.comparisons],
            "per_query": _plain(self.per_query),
            "warnings": list(self.warnings),
            **({} if self.coverage is None else
               {"coverage": coverage_to_dict(self.coverage, _result_to_dict)}),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        if data.get("schema") not in READABLE_SCHEMAS:
            raise ValueError(f"unsupported report schema {data.get('schema')!r}; "
                             f"this ranklens reads schemas {READABLE_SCHEMAS}")
        return cls(
            params=data["params"],
            inputs=tuple(InputRecord(**record) for record in data["inputs"]),
            comparisons=tuple(_comparison_from_dict(c) for c in data["comparisons"]),
            per_query=data.get("per_query", {}),
            warnings=tuple(data.get("warnings", ())),
            run_names=(data["run_names"][0], data["run_names"][1]),
            version=data["version"],
            kind=data.get("kind", "compare"),
            coverage=(None if data.get("coverage") is None
                      else coverage_from_dict(data["coverage"], _result_from_dict)),
        )

    @classmethod
    def from_json(cls, text: str) -> Report:
        return cls.from_dict(json.loads(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Report) and self.to_dict() == other.to_dict()

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

    The CSV (``ranklens.compare.text``) and the tables (``ranklens.compare.views``, hence the
    app and the HTML export) read their numbers from here, the JSON from the same
    `ComparisonResult.row`; none of them lists a result's fields by hand.
    """
    return {**result.row(), "significant": result.significant}


def _result_to_dict(result: ComparisonResult) -> dict[str, Any]:
    """A result in the report's JSON: its flat `ComparisonResult.row`, the seed made plain."""
    return _plain({**result.row(), "seed": _seed_to_plain(result.seed)})


def _result_from_dict(data: Mapping[str, Any]) -> ComparisonResult:
    return ComparisonResult.from_row({**data, "seed": _seed_from_plain(data["seed"])})


def _comparison_to_dict(comparison: MetricComparison) -> dict[str, Any]:
    return {
        "metric": comparison.metric,
        "overall": _result_to_dict(comparison.overall),
        "segments": [
            {"segment": row.segment, "n_queries": row.n_queries, "note": row.note,
             "result": None if row.result is None else _result_to_dict(row.result)}
            for row in comparison.segments
        ],
        "segment_column": comparison.segment_column,
        "family": comparison.family,
        "adjust_method": comparison.adjust_method,
        "warnings": list(comparison.warnings),
    }


def _comparison_from_dict(data: Mapping[str, Any]) -> MetricComparison:
    return MetricComparison(
        metric=data["metric"],
        overall=_result_from_dict(data["overall"]),
        segments=tuple(
            SegmentRow(row["segment"], row["n_queries"],
                       None if row["result"] is None else _result_from_dict(row["result"]),
                       row.get("note", ""))
            for row in data["segments"]
        ),
        segment_column=data.get("segment_column"),
        family=data.get("family", "metrics"),
        adjust_method=data.get("adjust_method", "bh"),
        warnings=tuple(data.get("warnings", ())),
    )


def _plain(value: Any) -> Any:
    """JSON-ready copy: mappings -> dicts, sequences -> lists, numpy scalars -> Python."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value
