"""The lines ``trec_eval`` 10.0 prints, computed by ranklens: ``trec_eval_output(...)``.

``%-22s\\t%s\\t%6.4f`` per value (counts ``%ld``, ``runid`` as text, ``relstring`` quoted), per
query (``-q``) in query-id byte order, then the ``all`` summary. trec_eval 10.0 evaluates every
query of the qrels: without ``-c`` a judged query missing from the run is an error
(``MissingQueries``; trec_eval exits with status 4), with ``-c`` it is scored on trec_eval's
placeholder ranking (``ranklens.metrics.trec_ranking``) and ``num_ret``, ``utility``,
``relstring``, ``unj_k`` and ``rbp_resid`` are reset to 0 for it. Summary values are added in
query order and divided by the number of queries; ``num_ret``, ``num_rel``, ``num_rel_ret`` and
``num_nonrel_judged_ret`` are sums, and under ``-c`` ``num_rel`` counts every qrels line with a
grade > 0 (whatever ``-l``); ``gm_map`` and ``gm_bpref`` are exp of the mean of the logs.

Only the measures asked for are computed, and only as deep into each ranking as they read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.metrics import trec_measures as tm
from ranklens.metrics.arrow import take, texts
from ranklens.metrics.ordering import expand_ranges
from ranklens.metrics.printf import c_nan, fixed_point, whole_numbers
from ranklens.metrics.trec_eval import MeasurePlan, TrecMeasure
from ranklens.metrics.trec_ranking import FULL, TrecRanking, trec_ranking

Compute = Callable[[TrecRanking, tuple[float, ...], int], np.ndarray]


def _cuts(values: tuple[float, ...]) -> list[int]:
    return [int(v) for v in values]


COMPUTE: dict[str, Compute] = {
    "num_ret": lambda r, p, n: tm.counts(r, "num_ret"),
    "num_rel": lambda r, p, n: tm.counts(r, "num_rel"),
    "num_rel_ret": lambda r, p, n: tm.counts(r, "num_rel_ret"),
    "num_nonrel_judged_ret": lambda r, p, n: tm.counts(r, "nonrel_judged"),
    "map": lambda r, p, n: tm.average_precision(r),
    "gm_map": lambda r, p, n: tm.gm_log_ap(r),
    "Rprec": lambda r, p, n: tm.r_precision(r),
    "bpref": lambda r, p, n: tm.bpref(r),
    "recip_rank": lambda r, p, n: tm.recip_rank(r),
    "iprec_at_recall": lambda r, p, n: tm.iprec_at_recall(r, p),
    "P": lambda r, p, n: tm.precision(r, _cuts(p)),
    "recall": lambda r, p, n: tm.recall(r, _cuts(p)),
    "infAP": lambda r, p, n: tm.inferred_ap(r),
    "gm_bpref": lambda r, p, n: tm.gm_log_bpref(r),
    "Rprec_mult": lambda r, p, n: tm.r_precision_multiples(r, p),
    "utility": lambda r, p, n: tm.utility(r, p, n),
    "11pt_avg": lambda r, p, n: tm.eleven_point_average(r, p),
    "binG": lambda r, p, n: tm.binary_gain(r),
    "G": lambda r, p, n: tm.normalized_gain(r),
    "dcg": lambda r, p, n: tm.dcg_parts(r)[0][None],
    "ideal_dcg": lambda r, p, n: tm.dcg_parts(r)[1][None],
    "ndcg": lambda r, p, n: tm.ndcg(r),
    "ndcg_rel": lambda r, p, n: tm.ndcg_rel(r),
    "Rndcg": lambda r, p, n: tm.r_ndcg(r),
    "ndcg_cut": lambda r, p, n: tm.ndcg_cut(r, _cuts(p)),
    "map_cut": lambda r, p, n: tm.average_precision(r, _cuts(p)),
    "relative_P": lambda r, p, n: tm.relative_precision(r, _cuts(p)),
    "success": lambda r, p, n: tm.success(r, _cuts(p)),
    "set_P": lambda r, p, n: tm.set_measures(r, "set_P"),
    "set_relative_P": lambda r, p, n: tm.set_measures(r, "set_relative_P"),
    "set_recall": lambda r, p, n: tm.set_measures(r, "set_recall"),
    "set_map": lambda r, p, n: tm.set_measures(r, "set_map"),
    "set_F": lambda r, p, n: tm.set_measures(r, "set_F", p[0]),
    "rbp": lambda r, p, n: tm.rbp(r, p[0]),
    "rbp_resid": lambda r, p, n: tm.rbp_residual(r, p[0]),
    "unj": lambda r, p, n: tm.unjudged(r, _cuts(p)),
}
# measures that read only the top k of each ranking (the deepest cutoff): the rest read it all
_TOP_K = {"P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj", "relstring"}
_NO_ROWS = {"runid", "num_q", "num_ret", "num_rel", "ideal_dcg"}
# what trec_eval 10.0 resets after scoring a placeholder ranking (its "clean up leftovers"
# compares printed names: "utility_1,-1,0,0" or "rbp_resid_p=0.5" keep their values, every
# unj_k is reset)
_RESET = {"num_ret", "utility", "rbp_resid", "relstring"}


@dataclass(frozen=True)
class TrecOutput:
    """What trec_eval prints (``text``, every line ending in a line break) and what the run and
    qrels left out."""

    text: str
    evaluated: int
    ignored: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def lines(self) -> list[str]:
        """The printed lines, without line breaks."""
        return self.text.splitlines()


def depth_needed(plan: MeasurePlan) -> int | None:
    """How deep the planned measures read: a number of rows or ``None`` (whole rankings)."""
    depth = 0
    for measure in plan.ordered:
        name = measure.name
        if name in _NO_ROWS:
            continue
        if name in _TOP_K:
            depth = max(depth, int(max(plan.trec[name].values)))
        else:
            return None
    return depth


@dataclass(frozen=True)
class TrecOptions:
    """trec_eval's options that change what it prints: ``relevance_level`` is ``-l``,
    ``complete`` ``-c``, ``judged_only`` ``-J``, ``per_query`` ``-q``, ``summary=False``
    ``-n``, ``max_docs`` ``-M``, ``num_docs`` ``-N``; ``digits`` the decimals of a value.
    ``missing="drop"`` evaluates only the judged queries the run answers (trec_eval 9.0.8's
    rule) instead of raising ``MissingQueries`` (trec_eval 10.0's)."""

    relevance_level: int = 1
    complete: bool = False
    judged_only: bool = False
    per_query: bool = False
    summary: bool = True
    digits: int = 4
    max_docs: int | None = None
    num_docs: int = 0
    missing: str = "error"


def trec_eval_output(run: Run, qrels: Qrels, plan: MeasurePlan,
                     options: TrecOptions | None = None, *,
                     run_tag: str | None = None) -> TrecOutput:
    """What ``trec_eval [-q] [-c] [-l N] [-J] [-n] [-M N] [-N N] -m ... QRELS RUN`` prints
    (the flags are ``options``, `TrecOptions`; trec_eval's defaults without them).

    ``run_tag`` is printed as ``runid`` (the run's name when ``None``). Grades are
    trec_eval's integers: fractional ``qrels`` are a ``ValueError`` (read them with
    ``read_qrels(..., grades="truncate")`` for trec_eval's atol, or score them with
    ``ranklens.metrics.evaluate``, which reads them as gains).
    """
    options = options or TrecOptions()
    fractional_refused(qrels)
    if options.missing == "drop" and not options.complete:
        qrels = judged_and_answered(run, qrels)
    columns, ranking = trec_columns(run, qrels, plan, options)
    text = render_text(columns, ranking.query_ids, per_query=options.per_query,
                       summary=options.summary,
                       run_tag=run_tag if run_tag is not None else run.name,
                       digits=options.digits, num_rel_all=num_rel_all(qrels, options))
    return TrecOutput(text, ranking.n_queries, ranking.ignored, tuple(
        q for q, p in zip(ranking.query_ids, ranking.placeholder.tolist(), strict=True) if p))


def num_rel_all(qrels: Qrels, options: TrecOptions) -> int | None:
    """The ``num_rel`` summary under ``-c``: every qrels line with a grade > 0 (whatever
    ``-l``); ``None`` without ``-c`` (the sum over the scored queries)."""
    return int(np.count_nonzero(qrels.relevance > 0)) if options.complete else None


Columns = list[tuple[str, str, object]]  # (printed name, kind, per-query values)


def trec_columns(run: Run, qrels: Qrels, plan: MeasurePlan,
                 options: TrecOptions) -> tuple[Columns, TrecRanking]:
    """Every measure's per-query values (``render_text``'s columns) in the order of the
    ranking's queries (the qrels' queries, byte order), and that ranking, under ``options``'
    ``-l``, ``-c``, ``-J``, ``-M`` and ``-N``."""
    ranking = trec_ranking(run, qrels, level=options.relevance_level,
                           judged_only=options.judged_only, max_docs=options.max_docs,
                           complete=options.complete, depth=depth_needed(plan))
    columns: Columns = []
    for measure in plan.ordered:
        columns += _measure_columns(ranking, plan, measure, options.num_docs)
    columns += _metric_columns(run, qrels, plan, ranking, options.relevance_level,
                               options.complete, options.judged_only)
    return columns, ranking


def render_text(columns: list[tuple[str, str, object]], query_ids: list[str], *,
                per_query: bool, summary: bool, run_tag: str, digits: int = 4,
                num_rel_all: int | None = None) -> str:
    """trec_eval's lines (each ending in a line break) for ``columns`` (printed name, kind,
    per-query values in ``query_ids`` order): per query with ``per_query``, then ``all``.

    Kinds: ``value`` (averaged), ``gm`` (geometric mean, summary only), ``count`` (summed),
    ``string`` (per query only), ``runid`` and ``num_q`` (summary only). ``num_rel_all`` is
    the ``num_rel`` summary under ``-c`` (every qrels line with a grade > 0).
    """
    n = len(query_ids)
    lines: list[str] = []
    if per_query:  # one chunk of lines per query
        lines += _per_query_lines([c for c in columns if c[1] in ("value", "count", "string")],
                                  query_ids, digits)
    if summary:
        for name, kind, values in columns:
            if kind == "runid":
                lines.append(f"{'runid':<22}\tall\t{run_tag}")
            elif kind == "num_q":
                lines.append(f"{'num_q':<22}\tall\t{n}")
            elif kind == "count":
                total = int(_sequential_sum(np.asarray(values)))
                if name == "num_rel" and num_rel_all is not None:
                    total = num_rel_all
                lines.append(f"{name:<22}\tall\t{total}")
            elif kind in ("value", "gm"):
                mean = _sequential_sum(np.asarray(values)) / n
                lines.append(_value_line(name, "all", math.exp(mean) if kind == "gm" else mean,
                                         digits))
    return "".join(line + "\n" for line in lines)


def fractional_refused(qrels: Qrels) -> None:
    """``ValueError`` for qrels with fractional grades: trec_eval reads integers only."""
    if qrels.fractional:
        raise ValueError(f"{qrels.name}: trec_eval reads integer grades only and these "
                         "judgements have fractional ones; truncate them as trec_eval's atol "
                         "does (read_qrels(..., grades='truncate'), 'ranklens evaluate "
                         "--truncate-grades') or score them with ranklens.metrics.evaluate, "
                         "which reads them as gains")


def judged_and_answered(run: Run, qrels: Qrels, also: pa.Array | None = None) -> Qrels:
    """``qrels`` without the queries the run does not answer (trec_eval 9.0.8's set); the
    query ids in ``also`` are kept too."""
    from ranklens.metrics.arrow import codes_in

    present = np.bincount(run.query_codes, minlength=len(run.queries)) > 0
    answered_ids = run.queries.filter(present)
    keep_code = codes_in(qrels.queries, answered_ids) >= 0
    if also is not None and len(also):
        keep_code |= codes_in(qrels.queries, also) >= 0
    rows = rows_of_queries(qrels, keep_code)
    return Qrels(qrels.query_codes[rows], qrels.queries, qrels.doc_codes[rows], qrels.docs,
                 relevance=qrels.relevance[rows], name=qrels.name)


def rows_of_queries(table: Qrels, keep_code: np.ndarray) -> np.ndarray:
    """The rows of ``table`` (ascending) whose query code ``keep_code`` (one bool a code)
    marks.

    When it marks few queries (a piece of a run read in pieces), the rows come from the
    table's rows grouped by query, worked out once per table and kept in its memo, so a piece
    costs the judgements of its own queries, not a pass over every judgement: 41 pieces of the
    21M-row case's long-id run made 41 passes over its 1.9M judgements (0.4 of 8 CPU-s). The
    grouping is free for a table whose rows are grouped by query (its codes never go down,
    as the readers number them in order of first use); otherwise one stable argsort.
    """
    kept = np.flatnonzero(keep_code)
    if 4 * len(kept) >= len(keep_code):  # most queries: one pass over the rows is cheapest
        return np.flatnonzero(keep_code[table.query_codes])
    if "rows_by_query" not in table._memo:
        codes = table.query_codes
        grouped = not len(codes) or bool(np.all(codes[1:] >= codes[:-1]))
        order = None if grouped else np.argsort(codes, kind="stable")
        starts = np.concatenate(([0], np.cumsum(table.rows_per_query())))
        table._memo["rows_by_query"] = (order, starts)
    order, starts = table._memo["rows_by_query"]
    at = expand_ranges(starts[kept], starts[kept + 1] - starts[kept])
    if order is None:
        return at
    rows: np.ndarray = np.sort(order[at])
    return rows


def _measure_columns(r: TrecRanking, plan: MeasurePlan, measure: TrecMeasure,
                     num_docs: int) -> list[tuple[str, str, object]]:
    name, kind = measure.name, measure.kind
    if kind in ("runid", "num_q"):
        return [(name, kind, None)]
    params = plan.trec[name].values
    if name == "relstring":
        strings = tm.relstring(r, int(params[0]))
        printed = plan.names(measure)[0]
        if printed in _RESET:
            strings = ["" if p else s for s, p in zip(strings, r.placeholder.tolist(),
                                                      strict=True)]
        return [(printed, "string", strings)]
    if not r.full and name not in _TOP_K and name not in _NO_ROWS:
        raise AssertionError(f"{name} needs whole rankings")
    values = COMPUTE[name](r, params, num_docs)
    names = plan.names(measure)
    if r.placeholder.any():
        values = values.copy()
        for i, printed in enumerate(names):
            if printed in _RESET or printed.startswith("unj"):
                values[i, r.placeholder] = 0.0
    return [(printed, kind, row) for printed, row in zip(names, values, strict=True)]


def _metric_columns(run: Run, qrels: Qrels, plan: MeasurePlan, r: TrecRanking, level: int,
                    complete: bool, judged_only: bool) -> list[tuple[str, str, object]]:
    """Columns of ranklens-spelled metrics (``nDCG@10``), scored by ``ranklens.metrics``."""
    if not plan.metrics:
        return []
    from ranklens.metrics.evaluate import EMPTY_RANKING, evaluate
    from ranklens.metrics.names import parse_metric

    evaluation = evaluate(run, qrels, plan.metrics, relevance_level=max(level, 1),
                          missing="zero" if complete else "drop", judged_only=judged_only)
    columns: list[tuple[str, str, object]] = []
    for metric in plan.metrics:
        result = evaluation[metric]
        empty = EMPTY_RANKING.get(parse_metric(metric).family, 0.0)
        per_query = result.per_query
        columns.append((result.metric, "value",
                        np.array([per_query.get(q, empty) for q in r.query_ids])))
        residual = evaluation.residuals.get(result.metric)
        if residual is not None:  # RBP: the most unjudged documents could add, beside it
            values = residual.per_query
            columns.append((residual.metric, "value",
                            np.array([values.get(q, 1.0) for q in r.query_ids])))
    return columns


def _sequential_sum(values: np.ndarray) -> float:
    """The values added one after the other from 0.0, as trec_eval's accumulation does."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def _per_query_lines(columns: list[tuple[str, str, object]], query_ids: list[str],
                     digits: int) -> list[str]:
    """Every query's lines in one chunk (lines joined by line breaks): the values formatted
    at once (``ranklens.metrics.printf``), the lines put together by Arrow, query by query."""
    if not columns or not query_ids:
        return []
    n, c = len(query_ids), len(columns)
    cells = pa.concat_arrays([_cells(kind, values, digits) for _, kind, values in columns])
    # cells are column after column; lines go query after query, each query's in column order
    by_query = (np.arange(c, dtype=np.int64)[None, :] * n
                + np.arange(n, dtype=np.int64)[:, None]).reshape(-1)
    # each line starts with its line break: the text then is every line, minus the first byte
    heads = texts(["\n" + f"{name:<22}" for name, _, _ in columns])
    lines = pc.binary_join_element_wise(
        take(heads, np.tile(np.arange(c, dtype=np.int64), n)),
        take(texts(query_ids), np.repeat(np.arange(n, dtype=np.int64), c)),
        take(cells, by_query), texts(["\t"])[0])
    return [_text(lines)[1:]]


def _cells(kind: str, values: object, digits: int) -> pa.Array:
    """A column's printed values (large_string): ``%6.{digits}f``, ``%ld`` or a quoted
    string."""
    if kind == "string":
        quote, nothing = texts(["'", ""])
        return pc.binary_join_element_wise(quote, texts(values), quote,  # type: ignore[arg-type]
                                           nothing)
    if kind == "count":
        return whole_numbers(np.asarray(values))
    return fixed_point(np.asarray(values, dtype=np.float64), digits, width=6)


def _text(strings: pa.Array) -> str:
    """The characters of every string of ``strings``, one after the other."""
    offsets = np.frombuffer(strings.buffers()[1], dtype=np.int64,
                            count=len(strings) + 1, offset=8 * strings.offset)
    data = strings.buffers()[2]
    if data is None:
        return ""
    return data.slice(int(offsets[0]), int(offsets[-1] - offsets[0])).to_pybytes().decode()


def _value_line(name: str, query: str, value: float, digits: int) -> str:
    text = c_nan(value, 6) if math.isnan(value) else f"{value:6.{digits}f}"
    return f"{name:<22}\t{query}\t{text}"


__all__ = ["FULL", "Columns", "TrecOptions", "TrecOutput", "depth_needed",
           "fractional_refused", "judged_and_answered", "num_rel_all", "render_text",
           "rows_of_queries", "trec_columns", "trec_eval_output"]
