"""Steps that complete a computed comparison `Report` with what its inputs add.

`with_macro` answers "what is the macro average of B - A over these collections" for every
metric and candidate of a report (``ranklens.compare.macro`` computes each section) and returns
the report with the sections, the collection map among its inputs and the column among its
parameters. It computes from the report's per-query values: nothing is scored again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ranklens.compare.family import run_key
from ranklens.compare.macro import macro_section
from ranklens.compare.report import InputRecord, Report
from ranklens.stats import PairedOptions


def with_macro(report: Report, collections: Mapping[str, str], column: str,
               record: InputRecord | None = None) -> Report:
    """``report`` with a `MacroSection` per metric and candidate over ``collections`` (query
    id -> collection name; queries absent from it form "(no segment)", reported, not dropped),
    and ``record`` (the collection map's input) among its inputs."""
    params, default = report.params, PairedOptions()
    statistics = PairedOptions(
        alpha=float(params.get("alpha", default.alpha)),
        n_resamples=int(params.get("n_resamples", default.n_resamples)),
        n_permutations=int(params.get("n_permutations", default.n_permutations)),
        seed=int(params.get("seed", 0)), missing=params.get("missing", default.missing),
        interval=params.get("interval", default.interval),
        min_queries=int(params.get("min_queries", default.min_queries)))
    sections = []
    for candidate in report.candidates:
        key = run_key(candidate)
        for metric in report.metrics:
            values = report.per_query.get(metric)
            if values is None or key not in values:
                continue
            sections.append(macro_section(metric, values["a"], values[key], collections, column,
                                     statistics, candidate))
    inputs = report.inputs if record is None else (*report.inputs, record)
    params = {**report.params, "collection_column": column}
    return dataclasses.replace(report, macro=tuple(sections), inputs=inputs, params=params)
