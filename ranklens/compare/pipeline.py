"""The one pipeline of a compare Report: what the library, the CLI and the app call.

`build_report` answers "the Report of these loaded inputs under these settings", as every face
shows it: the comparison with its health checks (or the seeds' report,
``ranklens.compare.analysis.inputs_report``), the drill-down (query texts, tie notes, the
moves behind the queries B lost and won most: ``ranklens.compare.drilldown``) and, with
`Collections`, the macro average over test collections (``ranklens.compare.steps``). The
library and the CLI reach it through ``ranklens.compare.request.report_for`` (their input
turned into one request); the page calls it with its cached inputs. Nothing here reads a
file or draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ranklens.compare.discovery import with_discovery
from ranklens.compare.drilldown import with_drilldown
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.query_texts import Texts
from ranklens.compare.report import InputRecord, Report
from ranklens.compare.settings import CompareSettings
from ranklens.compare.steps import with_macro


@dataclass(frozen=True)
class Collections:
    """The test collection of each query (query id -> collection), the column that named it,
    and the record of the file it was read from (None when it is a column of the segment map
    already among the inputs)."""

    mapping: Mapping[str, str]
    column: str
    record: InputRecord | None = None


def build_report(inputs: LoadedInputs, settings: CompareSettings, *,
                 texts: Texts | None = None, collections: Collections | None = None,
                 drilldown: bool = True, progress: Callable[[str], None] | None = None,
                 strict: bool = False, discover: bool = False) -> Report:
    """The Report of ``inputs`` under ``settings`` (see the module docstring).

    ``drilldown=False`` leaves the drill-down out (the page adds it on its own, once the
    reader picks texts). ``strict`` raises ``HealthCheckFailed`` when a health check fails.
    ``discover`` adds the slices where B - A differs (``ranklens.compare.discovery``).
    """
    report = inputs.report(settings, progress, strict=strict)
    if drilldown:
        report = with_drilldown(report, inputs, settings, texts)
    if collections is not None:
        if progress:
            progress("the macro average over collections")
        report = with_macro(report, collections.mapping, collections.column,
                            collections.record)
    if discover:
        if progress:
            progress("searching for slices where B - A differs")
        report = with_discovery(report, inputs, settings.seed,
                                query_texts=None if texts is None else texts.queries)
    return report
