"""What a face asks of a comparison, and the one way that request becomes a Report.

`CompareRequest` is what ``ranklens.compare_runs``'s arguments or ``ranklens compare``'s say,
in the pipeline's terms: the runs (paths or ``InputFile``s, baseline first; with
``seed_runs``, how many runs each system has), the judgements, segment map and proxy
judgements, the metrics and segment column asked for (None: chosen from the inputs), every
other setting of ``CompareSettings``, and the pipeline's extras (query and document texts,
collections, slice discovery). A face only turns its input into a request: it parses nothing
the request can.

`settings_for` answers "which settings, for these inputs": the metrics
(``ranklens.compare.choices.metrics_to_compare``, under the tie rule asked), the segment column
(``choices.segment_column``, its hint in the face's words) and, for systems of several runs,
their ``seed_runs`` and names (the names given win over the systems' own). `report_for` reads
the inputs, settles the settings and calls ``ranklens.compare.pipeline.build_report``. The
page keeps its own reading (its inputs are cached by content digest) and calls
``build_report`` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ranklens.compare.choices import metrics_to_compare, metrics_to_score, segment_column
from ranklens.compare.inputs import Input, load_inputs
from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.pipeline import Collections, build_report
from ranklens.compare.query_texts import Texts, read_texts, run_queries
from ranklens.compare.report import Report
from ranklens.compare.settings import CompareSettings
from ranklens.compare.tie_reading import with_ties
from ranklens.io import InputFile


@dataclass(frozen=True)
class CompareRequest:
    """One comparison as a face asks for it (see the module docstring).

    ``settings`` holds the ``CompareSettings`` fields other than ``metrics``,
    ``segment_column`` and ``seed_runs``; ``segment_example`` words how to pick a segment
    column in the face's terms (``--segments {file}:{column}``); ``columns`` names the runs'
    id columns (``{"doc_id": "docno"}``); ``score_as_read`` scores each run as soon as it is
    read (several runs to score: memory for two).
    """

    runs: tuple[Input, ...]
    qrels: Input | None = None
    segments: Input | None = None
    segment_column: str | None = None
    segment_example: str = "--segments {file}:{column}"
    proxy_qrels: Input | None = None
    metrics: tuple[str, ...] | None = None
    ties: str = "trec_eval"
    settings: Mapping[str, Any] = field(default_factory=dict)
    seed_runs: tuple[int, ...] | None = None
    system_names: tuple[str, ...] | None = None
    columns: Mapping[str, str] | None = None
    score_as_read: bool = False
    queries: Input | None = None
    documents: Input | None = None
    collections: Collections | None = None
    discover: bool = False


def report_for(request: CompareRequest,
               progress: Callable[[str], None] | None = None) -> Report:
    """The Report ``request`` asks for: its inputs read, its settings settled from them
    (`settings_for`), its texts read, then ``build_report``. ``progress`` is told each stage
    (``reading the inputs``, ...)."""
    say = progress or (lambda _: None)
    scoring = None
    if request.score_as_read and request.qrels is not None:
        scoring = CompareSettings(metrics=_tied(request, metrics_to_score(request.metrics)),
                                  **request.settings)
        say("reading and scoring the runs")
    else:
        say("reading the inputs")
    inputs = load_inputs(*request.runs, qrels=request.qrels, segments=request.segments,
                         proxy_qrels=request.proxy_qrels, columns=request.columns,
                         settings=scoring)
    settings = settings_for(request, inputs)
    texts: Texts | None = None
    if request.queries is not None or request.documents is not None:
        say("reading the query and document texts")
        texts = read_texts(request.queries, request.documents,
                           query_ids=run_queries(inputs.runs))
    return build_report(inputs, settings, texts=texts, collections=request.collections,
                        progress=progress, discover=request.discover)


def settings_for(request: CompareRequest, inputs: LoadedInputs) -> CompareSettings:
    """The settings of ``request`` for ``inputs``: the metrics and segment column chosen from
    them where the request names none, and the systems' ``seed_runs`` and names."""
    metrics = _tied(request, metrics_to_compare(inputs, request.metrics))
    column = None if request.segments is None else segment_column(
        inputs, _file_name(request.segments), request.segment_column,
        example=request.segment_example)
    extra: dict[str, Any] = {}
    if request.seed_runs is not None:
        extra["seed_runs"] = request.seed_runs
        if request.settings.get("run_names") is None and request.system_names is not None:
            extra["run_names"] = request.system_names
    return CompareSettings(metrics=metrics, segment_column=column,
                           **{**request.settings, **extra})


def _tied(request: CompareRequest, metrics: tuple[str, ...]) -> tuple[str, ...]:
    return metrics if request.ties == "trec_eval" else with_ties(metrics, request.ties)


def _file_name(given: Input) -> str:
    return given.name if isinstance(given, InputFile) else Path(given).name
