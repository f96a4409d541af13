"""trec_eval's lines from a run read in pieces of whole queries, one piece in memory at a time.

Answers what `trec_eval_output` answers, with memory bounded by the largest piece and the
qrels instead of the whole run: each piece is scored against the judgements of its own
queries, and only the per-query values are kept. It does not read files (the caller hands it
the pieces' runs, lazily) and it does not decide where to cut (``ranklens.io.pieces``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np
import pyarrow as pa

from ranklens.data import Qrels, Run
from ranklens.metrics.trec_eval import MeasurePlan
from ranklens.metrics.trec_lines import (
    Columns,
    TrecOptions,
    TrecOutput,
    fractional_refused,
    judged_and_answered,
    num_rel_all,
    render_text,
    trec_columns,
)


def trec_eval_output_by_pieces(runs: Iterable[tuple[Run, str | None]], qrels: Qrels,
                               plan: MeasurePlan, options: TrecOptions) -> TrecOutput | None:
    """`trec_eval_output` of the run that is ``runs`` put end to end, or ``None`` when the
    pieces cannot stand for it: a query in two pieces (the run is not grouped by query), or a
    judged query missing from every piece without ``-c`` (trec_eval's stop, which the
    whole-run path reports with its lines). The caller then scores the whole run.

    ``options`` are trec_eval's flags (`TrecOptions`). Each piece comes with its run tag (its
    last line's, ``None`` for none): the last piece's is printed as ``runid``, as trec_eval
    prints the file's last line's; without one, the last piece's name. The lines are those of
    the whole run: per query in byte order, and every summary adds the queries' values in
    that order, as trec_eval does.
    """
    fractional_refused(qrels)
    judged = qrels.queries
    seen: set[str] = set()
    parts: list[tuple[Columns, list[str], np.ndarray]] = []
    ignored: list[str] = []
    name = "run"
    pending: Run | None = None
    for run, tag in runs:
        ids = set(run.queries.to_pylist())
        if ids & seen:
            return None
        seen |= ids
        if pending is not None:  # the piece before the last: no missing query to place yet
            part = _score(pending, qrels, plan, None, replace(options, complete=False))
            parts.append(part[:3])
            ignored += part[3]
        pending, name = run, tag if tag is not None else run.name
    if pending is None:
        return None
    lost = [q for q in judged.to_pylist() if q not in seen]
    if lost and not options.complete and options.missing != "drop":
        return None
    extra = pa.array(lost, type=judged.type) if lost and options.complete else None
    part = _score(pending, qrels, plan, extra, replace(options, complete=extra is not None))
    parts.append(part[:3])
    ignored += part[3]
    parts = [part for part in parts if part[0]]
    if not parts:
        return None  # no judged query in the whole run: the whole-run path says what it says
    columns, query_ids, placeholder = _joined(parts)
    text = render_text(columns, query_ids, per_query=options.per_query,
                       summary=options.summary, run_tag=name, digits=options.digits,
                       num_rel_all=num_rel_all(qrels, options))
    return TrecOutput(text, len(query_ids), tuple(sorted(ignored)), tuple(
        q for q, p in zip(query_ids, placeholder.tolist(), strict=True) if p))


def _score(run: Run, qrels: Qrels, plan: MeasurePlan, extra: pa.Array | None,
           options: TrecOptions) -> tuple[Columns, list[str], np.ndarray, list[str]]:
    """One piece's columns against the judgements of its queries (and of ``extra``, judged
    queries no piece answers, scored on trec_eval's placeholder under ``-c``: ``options``
    has ``complete`` only then)."""
    own = judged_and_answered(run, qrels, also=extra)
    if not len(own):  # no query of this piece is judged: trec_eval passes over them all
        used = np.bincount(run.query_codes, minlength=len(run.queries)) > 0
        return [], [], np.zeros(0, dtype=bool), run.queries.filter(used).to_pylist()
    columns, ranking = trec_columns(run, own, plan, options)
    return columns, list(ranking.query_ids), ranking.placeholder, list(ranking.ignored)


def _joined(parts: list[tuple[Columns, list[str], np.ndarray]]
            ) -> tuple[Columns, list[str], np.ndarray]:
    """The pieces' columns as one, their queries in byte order (str order is UTF-8's)."""
    query_ids = [q for _, ids, _ in parts for q in ids]
    order = np.array(sorted(range(len(query_ids)), key=query_ids.__getitem__), dtype=np.int64)
    placeholder = np.concatenate([p for _, _, p in parts])[order] if parts else np.zeros(0, bool)
    columns: Columns = []
    for index, (printed, kind, _) in enumerate(parts[0][0]):
        pieces = [part[0][index][2] for part in parts]
        if kind in ("runid", "num_q"):
            columns.append((printed, kind, None))
        elif kind == "string":
            strings = [s for values in pieces for s in values]  # type: ignore[attr-defined]
            columns.append((printed, kind, [strings[i] for i in order]))
        else:
            values = np.concatenate([np.asarray(v) for v in pieces])
            columns.append((printed, kind, values[order]))
    return columns, [query_ids[i] for i in order], placeholder


__all__ = ["trec_eval_output_by_pieces"]
