"""The one-call API that ``import ranklens`` exports: ``compare_runs``, ``rank_runs`` and
``evaluate``.

``compare_runs`` answers "is each candidate better than the baseline, by how much, where"
with the same ``Report`` the CLI and the app build from the same inputs (it makes the CLI's
request, ``ranklens.compare.request``, of Python objects); ``evaluate`` answers "what does
each query score" as a DataFrame. Runs and judgements may be paths, ``InputFile``s, pandas or
polars DataFrames, pyarrow Tables or ``{query: {doc: score}}`` dicts
(``ranklens.io.objects``); a bad one is an ``InputError`` naming it. Nothing here computes or
chooses: it turns Python objects into the request.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ranklens import io
from ranklens.compare.analysis import CompareSettings
from ranklens.compare.family import run_role
from ranklens.compare.leaderboard import LeaderboardReport
from ranklens.compare.report import Report
from ranklens.compare.request import CompareRequest, report_for
from ranklens.compare.seed_inputs import flatten, split_seed_table
from ranklens.io.objects import ACCEPTED, input_file

if TYPE_CHECKING:
    import pandas as pd

RunLike = Any
"""A run, judgements or per-query table: a path, an ``InputFile``, a pandas or polars
DataFrame, a pyarrow Table or a ``{query: {doc: value}}`` dict."""


def compare_runs(
    runs: Mapping[str, RunLike] | Sequence[RunLike],
    qrels: RunLike | None = None,
    *,
    metrics: str | Iterable[str] | None = None,
    segments: RunLike | None = None,
    segment_column: str | None = None,
    proxy_qrels: RunLike | None = None,
    **settings: Any,
) -> Report:
    """Compare the candidates of ``runs`` with its baseline (the first): the Report of
    ``ranklens compare``, with the same numbers for the same inputs and settings.

    ``runs`` maps names to runs (the names label the report) or lists them (named after their
    files, else ``run_a``, ``run_b``, ...). With ``qrels`` the runs are rankings, scored on
    ``metrics`` (default nDCG@10); without, they are per-query tables (query id + one column
    per metric; default every metric they share). ``segments`` is a segment map (query id +
    segment columns) and ``segment_column`` picks its column (needed when it has several).
    ``proxy_qrels`` are cheap judgements that fill the holes of ``qrels``. Every other
    setting of ``CompareSettings`` is a keyword: ``alpha``, ``n_resamples``,
    ``n_permutations``, ``seed``, ``missing``, ``interval``, ``adjust_method``, ``order``,
    ``gain``, ``relevance_level``, ``min_queries``, ``run_names``, ``unjudged``, ``family``,
    ``family_method``, ``q_family``.

    A system trained with several seeds is a list of runs (``{"bm25": "bm25.trec",
    "neural": ["n1.trec", "n2.trec", "n3.trec"]}``), and a per-query table with a ``seed``
    column is split by it: the report then answers for these trained runs (its comparisons,
    on the per-query mean over each system's runs) and for a new training run
    (``report.seeds``: `ranklens.stats.compare_seeds` of the runs, the variance components,
    each seed against the baseline). Every run of a system must score the same queries;
    those some run lacks are left out and the report's warnings name them.

    Raises ``InputError`` for a run or file that cannot be read (naming it), ``ValueError``
    for a setting or metric that does not exist, ``TypeError`` for an unknown keyword.

    >>> import ranklens
    >>> report = ranklens.compare_runs(
    ...     {"bm25": {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}},
    ...      "neural": {"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d3": 1.0}}},
    ...     {"q1": {"d2": 1}, "q2": {"d3": 1}}, metrics="P@1", min_queries=2)
    >>> result = report.comparisons[0].overall
    >>> result.mean_a, result.mean_b
    (0.5, 1.0)
    """
    unknown = sorted(set(settings) - _SETTINGS)
    if unknown:
        raise TypeError(f"compare_runs() got unknown setting(s) {', '.join(unknown)}; the "
                        f"settings are {', '.join(sorted(_SETTINGS))}")
    names, given = _named(runs)
    # a file keeps its own name in the report's inputs; an object is named by its key
    systems = [(name, _system_files(name, run, index, tables=qrels is None))
               for index, (name, run) in enumerate(zip(names, given, strict=True))]
    files, seed_runs, system_names = flatten(
        systems, listed=any(isinstance(run, list | tuple) for run in given))
    extra = {role: None if value is None else input_file(value, role)
             for role, value in (("qrels", qrels), ("segments", segments),
                                 ("qrels_proxy", proxy_qrels))}
    if extra["segments"] is None and segment_column is not None:
        raise ValueError(f"segment_column={segment_column!r} needs segments= (a segment map)")
    if seed_runs is None and "run_names" not in settings and \
            all(name is not None for name in names):
        settings["run_names"] = tuple(names)
    return report_for(CompareRequest(
        tuple(files), qrels=extra["qrels"], segments=extra["segments"],
        segment_column=segment_column, segment_example="segment_column={column!r}",
        proxy_qrels=extra["qrels_proxy"],
        metrics=(metrics,) if isinstance(metrics, str) else None if metrics is None else
        tuple(metrics), settings=settings, seed_runs=seed_runs, system_names=system_names))


def evaluate(run: RunLike, qrels: RunLike, metrics: str | Iterable[str] = ("nDCG@10",), *,
             missing: str = "drop", order: str = "score", gain: str = "linear",
             relevance_level: int = 1, judged_only: bool = False) -> pd.DataFrame:
    """Per-query values of ``metrics`` for ``run`` against ``qrels``, as trec_eval computes
    them: a DataFrame with ``query_id`` and one column per metric (named as asked is
    canonical: ``nDCG@10``, ``AP``, ``P@5``). The keywords are those of
    ``ranklens.metrics.evaluate`` (``missing="zero"`` is trec_eval ``-c``, ``judged_only``
    ``-J``). Runs and qrels as ``compare_runs`` takes them; ``InputError`` names a bad one.

    >>> import ranklens
    >>> ranklens.evaluate({"q1": {"d1": 2.0, "d2": 1.0}}, {"q1": {"d2": 1}}, ["P@1", "RR"])
      query_id  P@1   RR
    0       q1  0.0  0.5
    """
    from ranklens.metrics import evaluate as evaluate_metrics

    run_file = input_file(run, "run")
    qrels_file = input_file(qrels, "qrels")
    ranking = io.read_run(run_file.data, name=run_file.name, keep_ranks=order == "rank").run
    judged = io.read_qrels(qrels_file.data, name=qrels_file.name).qrels
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    evaluation = evaluate_metrics(ranking, judged, names, missing=missing, order=order,
                                  gain=gain, relevance_level=relevance_level,
                                  judged_only=judged_only)
    return evaluation.to_frame()


def rank_runs(runs: Mapping[str, RunLike] | Sequence[RunLike], qrels: RunLike | None = None,
              *, metrics: str | Iterable[str] = ("nDCG@10",), baselines: Iterable[str] = (),
              alpha: float = 0.05, n_permutations: int = 10_000, seed: int = 0
              ) -> LeaderboardReport:
    """Rank up to 500 runs on the same queries: `ranklens compare RUN... --leaderboard`.

    Per metric, each run's mean, its simultaneous rank interval and its tier letters, every
    pair tested at once (step-down max-t over sign flips of whole queries); with
    ``baselines`` (run names), each other run against each of them too, as one family. Runs
    are given as ``compare_runs`` takes them (paths are read one at a time: memory grows with
    runs x queries, not with the files); without ``qrels`` they are per-query tables. The
    result prints as text, Markdown, LaTeX, JSON or HTML through
    ``ranklens.compare.leaderboard_export.leaderboard_document`` and shows itself in a
    notebook. ``InputError`` names a run that cannot be read; ``ValueError`` a baseline that
    is not a run's name, or two runs of one name.
    """
    from ranklens.compare.leaderboard import leaderboard_report, score_runs

    names, given = _named(runs)
    sources = [run if isinstance(run, (str, os.PathLike)) else
               input_file(run, "run", name or run_role(index))
               for index, (name, run) in enumerate(zip(names, given, strict=True))]
    # a source is a path or an InputFile (named after its file, else its role)
    labels = [name if name is not None else
              Path(source.name if isinstance(source, io.InputFile) else os.fspath(source)).stem
              for name, source in zip(names, sources, strict=True)]
    asked = [metrics] if isinstance(metrics, str) else list(metrics)
    judged = None if qrels is None else (
        qrels if isinstance(qrels, (str, os.PathLike)) else input_file(qrels, "qrels"))
    scored = score_runs(sources, judged, asked)
    return leaderboard_report(scored, labels, asked, alpha=alpha,
                              n_permutations=n_permutations, seed=seed,
                              baselines=tuple(baselines))


_SETTINGS = frozenset(CompareSettings.__dataclass_fields__) - {"metrics", "segment_column",
                                                                 "seed_runs"}


def _system_files(name: str | None, run: RunLike, index: int, *, tables: bool
                  ) -> list[io.InputFile]:
    """The runs of one system: a list or tuple of runs (training seeds), else one run; a
    per-query table with a seed column gives one run per seed (`split_seed_table`)."""
    given = list(run) if isinstance(run, list | tuple) else [run]
    files: list[io.InputFile] = []
    for k, item in enumerate(given):
        label = None if isinstance(item, (str, os.PathLike, io.InputFile)) else (
            name if len(given) == 1 else f"{name or run_role(index)}_seed{k + 1}")
        file = input_file(item, run_role(index), label)
        files.extend(split_seed_table(file) if tables else (file,))
    return files


def _named(runs: Mapping[str, RunLike] | Sequence[RunLike]
           ) -> tuple[list[str | None], list[RunLike]]:
    """The runs' names (None where the file names it) and the runs, baseline first."""
    if isinstance(runs, Mapping):
        names: list[str | None] = [str(name) for name in runs]
        given = list(runs.values())
    elif isinstance(runs, (str, bytes)) or not isinstance(runs, Sequence):
        raise io.InputError("runs", f"is a {type(runs).__name__}, not a list or mapping of runs",
                            hint="give {'baseline': run, 'candidate': run} or [run_a, run_b]; "
                                 f"each run {ACCEPTED}")
    else:
        given = list(runs)
        names = [None] * len(given)
    if len(given) < 2:
        raise io.InputError("runs", f"holds {len(given)} run(s); a comparison needs a baseline "
                            "and at least one candidate", hint="give two runs or more, the "
                            "baseline first")
    return names, given

