"""trec_eval's measures, ``-m`` syntax and output lines, computed by ranklens.

``plan_measures(["ndcg_cut.10,20", "map"])`` reads trec_eval's measure arguments (``name``,
``name.cutoffs``, the nicknames ``official`` and ``all_trec``) and, as a ranklens extension,
``name_k`` and ranklens spellings (``nDCG@10``). ``trec_eval_output(...)`` evaluates them and
returns the lines trec_eval prints: ``%-22s\\t%s\\t%6.4f`` (counts as integers, ``runid`` as
text), per query (``-q``) in query-id byte order then the ``all`` summary, measures in
trec_eval's own order (its ``measures.c``), whatever order ``-m`` named them in.

trec_eval's rules kept here: cutoffs are sorted and must be positive and distinct; of several
``-m P.…`` arguments only the first one's cutoffs count (a note says so); a nickname does not
override cutoffs given with ``-m``; ``-c`` averages over every query of the qrels (a missing
query adds what an empty ranking scores: 0, and log(0.00001) for ``gm_map``) while the counts
``num_ret``, ``num_rel``, ``num_rel_ret`` stay sums over the evaluated queries; ``num_q`` and
``runid`` appear in the summary only. Measures of trec_eval that ranklens does not compute
(``iprec_at_recall``, ``relstring`` ...) are named in ``notes`` when a nickname asks
for them and are an error when asked by name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ranklens.data import Qrels, Run
from ranklens.metrics.counts import retrieval_counts
from ranklens.metrics.evaluate import EMPTY_RANKING, EMPTY_RESIDUAL, evaluate
from ranklens.metrics.names import parse_metric

MIN_GEO_MEAN = 0.00001  # trec_eval's floor of AP before the log of gm_map
_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure ranklens computes: its name, how it prints, its ranklens metric.

    ``kind``: ``runid`` (text, summary only), ``num_q`` (summary only), ``count`` (integer,
    summed), ``value`` (float, averaged), ``cut`` (one float per cutoff), ``gm`` (gm_map).
    ``metric`` is the ranklens spelling of the value (``{k}`` takes the cutoff).
    """

    name: str
    kind: str
    metric: str = ""
    cutoffs: tuple[int, ...] = ()


# in trec_eval's order (measures.c); unj (trec_eval 10) last
MEASURES: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", "runid"),
    TrecMeasure("num_q", "num_q"),
    TrecMeasure("num_ret", "count"),
    TrecMeasure("num_rel", "count"),
    TrecMeasure("num_rel_ret", "count"),
    TrecMeasure("map", "value", "AP"),
    TrecMeasure("gm_map", "gm", "AP"),
    TrecMeasure("Rprec", "value", "R-Prec"),
    TrecMeasure("bpref", "value", "bpref"),
    TrecMeasure("recip_rank", "value", "RR"),
    TrecMeasure("P", "cut", "P@{k}", _CUTS),
    TrecMeasure("recall", "cut", "R@{k}", _CUTS),
    TrecMeasure("ndcg", "value", "nDCG"),
    TrecMeasure("ndcg_cut", "cut", "nDCG@{k}", _CUTS),
    TrecMeasure("map_cut", "cut", "AP@{k}", _CUTS),
    TrecMeasure("success", "cut", "Success@{k}", (1, 5, 10)),
    TrecMeasure("unj", "cut", "Unjudged@{k}", (5, 10, 20)),
)
BY_NAME = {measure.name: measure for measure in MEASURES}
NOT_COMPUTED = frozenset({
    "iprec_at_recall", "relstring", "infAP", "gm_bpref", "Rprec_mult", "utility",
    "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg", "relative_P", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "ndcg_p",
    "Runj", "yaap", "rbp", "rbp_resid", "prefs_simp", "map_avgjg", "P_avgjg"})
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "infAP", "gm_bpref", "utility", "11pt_avg", "ideal_dcg", "dcg",
                 "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut",
                 "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
                 "set_map", "set_F", "num_nonrel_judged_ret", "unj"),
}
_UNDERSCORE = re.compile(r"^(?P<name>P|recall|ndcg_cut|map_cut|success|unj)_(?P<cut>[0-9]+)$")


@dataclass
class MeasurePlan:
    """What to print: trec_eval measures (name -> cutoffs, ``()`` for none) and ranklens
    metrics (spelled the ranklens way, printed under their ranklens names), plus notes."""

    trec: dict[str, tuple[int, ...]] = field(default_factory=dict)
    metrics: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ordered(self) -> list[TrecMeasure]:
        return [measure for measure in MEASURES if measure.name in self.trec]


def plan_measures(arguments: Sequence[str]) -> MeasurePlan:
    """Read ``-m`` arguments the way trec_eval does; ``ValueError`` names a wrong one."""
    plan = MeasurePlan()
    given: dict[str, tuple[int, ...]] = {}  # cutoffs of the first "-m name.cutoffs"
    singles: dict[str, set[int]] = {}  # "-m P_5" (ranklens extension): each adds a cutoff
    marked: set[str] = set()
    skipped: list[str] = []
    for argument in arguments:
        text = argument.strip()
        if text in NICKNAMES:
            for name in NICKNAMES[text]:
                if name in BY_NAME:
                    marked.add(name)
                elif name not in skipped:
                    skipped.append(name)
            continue
        name, dot, params = text.partition(".")
        single = _UNDERSCORE.match(text)
        if single:
            singles.setdefault(single["name"], set()).add(_cutoffs(text, single["cut"])[0])
            marked.add(single["name"])
        elif name in BY_NAME:
            marked.add(name)
            if dot:
                cutoffs = _cutoffs(text, params)
                if BY_NAME[name].kind != "cut":
                    raise ValueError(f"measure {text!r}: ranklens takes no parameters for "
                                     f"{name}")
                if name in given:
                    both = ",".join(map(str, sorted(set(given[name]) | set(cutoffs))))
                    plan.notes.append(f"-m {text} ignored: trec_eval uses the cutoffs of the "
                                      f"first -m {name}.… only (write -m {name}.{both})")
                else:
                    given[name] = cutoffs
        elif name in NOT_COMPUTED:
            raise ValueError(f"measure {name!r} of trec_eval is not computed by ranklens")
        else:
            parse_metric(text)  # a ranklens spelling, or a ValueError listing the valid forms
            if text not in plan.metrics:
                plan.metrics.append(text)
    for name in sorted(marked, key=[m.name for m in MEASURES].index):
        own = set(given.get(name, ())) | singles.get(name, set())
        plan.trec[name] = tuple(sorted(own)) if own else BY_NAME[name].cutoffs
    if skipped:
        plan.notes.append(f"not computed by ranklens, not printed: {', '.join(skipped)}")
    return plan


def _cutoffs(text: str, params: str) -> tuple[int, ...]:
    values = []
    for part in params.split(","):
        if not part.strip().isdigit():
            raise ValueError(f"measure {text!r}: cutoffs are whole numbers, e.g. P.5,10")
        values.append(int(part))
    if min(values) <= 0:
        raise ValueError(f"measure {text!r}: cutoffs must be positive (trec_eval: "
                         "'Negative cutoff detected')")
    if len(set(values)) != len(values):
        raise ValueError(f"measure {text!r}: a cutoff is given twice (trec_eval: 'duplicate "
                         "cutoffs detected')")
    return tuple(sorted(values))


@dataclass(frozen=True)
class TrecOutput:
    """The lines (without line breaks) and what the run and qrels left out."""

    lines: list[str]
    evaluated: int
    ignored: tuple[str, ...]
    missing: tuple[str, ...]


def trec_eval_output(
    run: Run,
    qrels: Qrels,
    plan: MeasurePlan,
    *,
    relevance_level: int = 1,
    complete: bool = False,
    judged_only: bool = False,
    per_query: bool = False,
    summary: bool = True,
    run_tag: str | None = None,
    digits: int = 4,
) -> TrecOutput:
    """What ``trec_eval [-q] [-c] [-l N] [-J] [-n] -m ... QRELS RUN`` prints, line by line.

    ``complete`` is ``-c``, ``summary=False`` is ``-n``; ``run_tag`` is printed as ``runid``
    (the run's name when ``None``). ``ValueError`` when no query is in both run and qrels
    (trec_eval: "No queries with both results and relevance info").
    """
    specs: dict[str, str] = {}  # ranklens spelling -> the name its per-query values print as
    for measure in plan.ordered:
        if measure.kind == "cut":
            for k in plan.trec[measure.name]:
                specs[measure.metric.format(k=k)] = f"{measure.name}_{k}"
        elif measure.metric:
            specs[measure.metric] = measure.name
    for metric in plan.metrics:
        specs[metric] = parse_metric(metric, relevance_level=relevance_level).name
    evaluation = evaluate(run, qrels, list(specs) or ["P@5"], relevance_level=relevance_level,
                          missing="zero" if complete else "drop", judged_only=judged_only)
    counts = retrieval_counts(run, qrels, relevance_level=relevance_level,
                              judged_only=judged_only)
    queries = sorted(counts.query_ids)
    if not queries:
        raise ValueError("no query is in both the run and the qrels (trec_eval: 'No queries "
                         "with both results and relevance info')")
    n_average = len(queries) + (len(evaluation.missing) if complete else 0)
    count_of = {name: dict(zip(counts.query_ids, getattr(counts, name).tolist(), strict=True))
                for name in ("num_ret", "num_rel", "num_rel_ret")}
    columns: list[tuple[str, str, dict[str, float] | None]] = []  # (printed name, kind, values)
    for measure in plan.ordered:
        if measure.kind in ("runid", "num_q"):
            columns.append((measure.name, measure.kind, None))
        elif measure.kind == "count":
            columns.append((measure.name, "count", count_of[measure.name]))
        elif measure.kind == "gm":
            ap = evaluation[measure.metric].per_query
            columns.append((measure.name, "gm", {q: math.log(max(ap[q], MIN_GEO_MEAN))
                                                 for q in queries}))
        elif measure.kind == "cut":
            for k in plan.trec[measure.name]:
                result = evaluation[measure.metric.format(k=k)]
                columns.append((f"{measure.name}_{k}", "value", dict(result.per_query)))
        else:
            columns.append((measure.name, "value", dict(evaluation[measure.metric].per_query)))
    for metric in plan.metrics:
        result = evaluation[metric]
        empty = EMPTY_RANKING.get(parse_metric(metric).family, 0.0)
        columns.append((result.metric, f"metric:{empty}", dict(result.per_query)))
        residual = evaluation.residuals.get(result.metric)
        if residual is not None:  # RBP: the most unjudged documents could add, beside it
            columns.append((residual.metric, f"metric:{EMPTY_RESIDUAL}",
                            dict(residual.per_query)))
    lines: list[str] = []
    if per_query:
        for query in queries:
            for name, kind, values in columns:
                if values is None:
                    continue
                lines.append(_line(name, query, values[query], kind, digits))
    if summary:
        n_missing = len(evaluation.missing) if complete else 0
        for name, kind, values in columns:
            if kind == "runid":
                lines.append(f"{'runid':<22}\tall\t{run_tag if run_tag is not None else run.name}")
            elif kind == "num_q":
                lines.append(f"{'num_q':<22}\tall\t{n_average}")
            elif kind == "count":
                assert values is not None
                lines.append(f"{name:<22}\tall\t{sum(int(values[q]) for q in queries)}")
            else:
                assert values is not None
                total = 0.0
                for query in queries:  # trec_eval adds in query order, then divides
                    total += values[query]
                if kind == "gm":
                    total += n_missing * math.log(MIN_GEO_MEAN)
                    value = math.exp(total / n_average)
                else:
                    empty = float(kind.partition(":")[2] or 0.0)
                    value = (total + n_missing * empty) / n_average
                lines.append(_line(name, "all", value, "value", digits))
    return TrecOutput(lines, len(queries), tuple(evaluation.ignored), tuple(evaluation.missing))


def _line(name: str, query: str, value: float, kind: str, digits: int) -> str:
    if kind == "count":
        return f"{name:<22}\t{query}\t{int(value)}"
    return f"{name:<22}\t{query}\t{value:.{digits}f}"


__all__ = ["MEASURES", "NICKNAMES", "MeasurePlan", "TrecMeasure", "TrecOutput",
           "plan_measures", "trec_eval_output"]
