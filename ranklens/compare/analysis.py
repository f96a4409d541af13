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

from collections.abc import Callable
from typing import Unpack

from ranklens.compare import health_step
from ranklens.compare.assemble import (
    demo_files,
    input_record,
    report_from_results,
    report_from_run_results,
    scoring_notes,
)
from ranklens.compare.inputs import ComparisonFiles, Input, load_inputs
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.loaded import _distinct as _distinct  # its old home, kept for callers
from ranklens.compare.report import Report
from ranklens.compare.scoring import ROBUSTNESS_EAGER_ROWS, ScoreCache
from ranklens.compare.seeds import seeded_report
from ranklens.compare.settings import DEFAULT_METRICS, CompareSettings

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
    "inputs_report",
    "load_inputs",
    "report_from_results",
    "report_from_run_results",
    "scoring_notes",
]


def inputs_report(inputs: LoadedInputs, settings: CompareSettings,
              progress: Callable[[str], None] | None = None, *, strict: bool = False
              ) -> Report:
    """The full comparison report for ``settings`` with its health section
    (``ranklens.health``); ``strict`` raises ``HealthCheckFailed`` when a check fails.

    Systems given as several runs (``settings.seed_runs``): `ranklens.compare.seeds`.
    The report's settings name the id columns the runs were read by (``columns=`` of
    `load_inputs`); settings that name other ones raise ``ValueError``: read the inputs
    with ``columns=settings.id_columns()``.
    """
    settings = inputs.settings_read(settings)
    if settings.seed_runs is not None:
        return seeded_report(inputs, settings, progress)
    return health_step.report_with_health(inputs, settings, progress, strict)


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
