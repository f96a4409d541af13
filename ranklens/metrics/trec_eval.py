"""trec_eval 10.0's measures and ``-m`` syntax, computed by ranklens.

``plan_measures(["ndcg_cut.10,20", "map"])`` reads trec_eval's measure arguments (``name``,
``name.params``, the nicknames ``official``, ``all_trec`` and ``set``) and, as a ranklens
extension, ``name_k`` and ranklens spellings (``nDCG@10``). ``trec_eval_output(...)``
(``ranklens.metrics.trec_lines``) evaluates them and returns the lines trec_eval prints.

trec_eval's rules kept here: measures print in its own order (``measures.c``) whatever order
``-m`` named them in; integer cutoffs are sorted and must be positive and distinct, recall
levels (``iprec_at_recall``, ``Rprec_mult``) are sorted; of several ``-m P.…`` arguments only
the first one's parameters count (a note says so); a nickname does not override parameters
given with ``-m``. Every measure of ``all_trec`` and ``official`` is computed; trec_eval's
preference (``-R prefs``) and ``qrels_jg`` measures are not, and are named as such.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ranklens.metrics.names import parse_metric

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure: its name, how it prints and what parameters it takes.

    ``kind``: ``runid`` (text, summary only), ``num_q`` (summary only), ``count`` (integer,
    summed), ``value`` (float, averaged), ``gm`` (geometric mean, summary only), ``string``
    (per query only: relstring). ``params``: ``cuts`` (integer cutoffs, one line each),
    ``levels`` (real cutoffs, one line each, ``name_0.20``), ``numbers`` (real parameters of
    one value, the name gets ``_<params>``), ``pairs`` (``p=0.5``: rbp), or ``""``.
    """

    name: str
    kind: str
    params: str = ""
    default: tuple[float, ...] = ()


# in trec_eval 10.0's order (measures.c)
MEASURES: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", "runid"),
    TrecMeasure("num_q", "num_q"),
    TrecMeasure("num_ret", "count"),
    TrecMeasure("num_rel", "count"),
    TrecMeasure("num_rel_ret", "count"),
    TrecMeasure("map", "value"),
    TrecMeasure("gm_map", "gm"),
    TrecMeasure("Rprec", "value"),
    TrecMeasure("bpref", "value"),
    TrecMeasure("recip_rank", "value"),
    TrecMeasure("iprec_at_recall", "value", "levels", _RECALL),
    TrecMeasure("P", "value", "cuts", _CUTS),
    TrecMeasure("relstring", "string", "numbers", (10,)),
    TrecMeasure("recall", "value", "cuts", _CUTS),
    TrecMeasure("infAP", "value"),
    TrecMeasure("gm_bpref", "gm"),
    TrecMeasure("Rprec_mult", "value", "levels", _MULTIPLES),
    TrecMeasure("utility", "value", "numbers", (1.0, -1.0, 0.0, 0.0)),
    TrecMeasure("11pt_avg", "value", "numbers", _RECALL),
    TrecMeasure("binG", "value"),
    TrecMeasure("G", "value"),
    TrecMeasure("dcg", "value"),
    TrecMeasure("ideal_dcg", "value"),
    TrecMeasure("ndcg", "value"),
    TrecMeasure("ndcg_rel", "value"),
    TrecMeasure("Rndcg", "value"),
    TrecMeasure("ndcg_cut", "value", "cuts", _CUTS),
    TrecMeasure("map_cut", "value", "cuts", _CUTS),
    TrecMeasure("relative_P", "value", "cuts", _CUTS),
    TrecMeasure("success", "value", "cuts", (1, 5, 10)),
    TrecMeasure("set_P", "value"),
    TrecMeasure("set_relative_P", "value"),
    TrecMeasure("set_recall", "value"),
    TrecMeasure("set_map", "value"),
    TrecMeasure("set_F", "value", "numbers", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", "count"),
    TrecMeasure("rbp", "value", "pairs", (0.9,)),
    TrecMeasure("rbp_resid", "value", "pairs", (0.9,)),
    TrecMeasure("unj", "value", "cuts", (5, 10, 20)),
)
BY_NAME = {measure.name: measure for measure in MEASURES}
# trec_eval measures for other input formats (-R prefs / qrels_jg) or without a default
NOT_COMPUTED = frozenset({
    "ndcg_p", "Runj", "yaap", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"})
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
}
# the trec_eval measures that are ranklens metrics too ("{k}" takes the cutoff): what the Spark
# engine scores (its kernels are ranklens.metrics'), printed under the trec_eval names
AS_METRIC: dict[str, str] = {
    "map": "AP", "Rprec": "R-Prec", "bpref": "bpref", "recip_rank": "RR", "P": "P@{k}",
    "recall": "R@{k}", "ndcg": "nDCG", "ndcg_cut": "nDCG@{k}", "map_cut": "AP@{k}",
    "success": "Success@{k}", "unj": "Unjudged@{k}",
}
_UNDERSCORE = re.compile(r"^(?P<name>P|recall|ndcg_cut|map_cut|success|unj|relative_P)_"
                         r"(?P<cut>[0-9]+)$")


@dataclass(frozen=True)
class Params:
    """The parameters of one planned measure: values and the text trec_eval prints them as
    (``""`` when the defaults are used)."""

    values: tuple[float, ...]
    text: str = ""


@dataclass
class MeasurePlan:
    """What to print: trec_eval measures (name -> parameters) and ranklens metrics (spelled
    the ranklens way, printed under their ranklens names), plus notes."""

    trec: dict[str, Params] = field(default_factory=dict)
    metrics: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ordered(self) -> list[TrecMeasure]:
        return [measure for measure in MEASURES if measure.name in self.trec]

    def names(self, measure: TrecMeasure) -> list[str]:
        """The names trec_eval prints for ``measure``'s values (one per cutoff)."""
        params = self.trec[measure.name]
        if measure.params == "cuts":
            return [f"{measure.name}_{int(k)}" for k in params.values]
        if measure.params == "levels":
            return [f"{measure.name}_{x:3.2f}" for x in params.values]
        if params.text:
            return [f"{measure.name}_{params.text}"]
        return [measure.name]


def plan_measures(arguments: Sequence[str]) -> MeasurePlan:
    """Read ``-m`` arguments the way trec_eval does; ``ValueError`` names a wrong one."""
    plan = MeasurePlan()
    given: dict[str, Params] = {}  # parameters of the first "-m name.params"
    singles: dict[str, set[int]] = {}  # "-m P_5" (ranklens extension): each adds a cutoff
    marked: set[str] = set()
    for argument in arguments:
        text = argument.strip()
        if text in NICKNAMES:
            marked.update(NICKNAMES[text])
            continue
        name, dot, raw = text.partition(".")
        single = _UNDERSCORE.match(text)
        if single:
            singles.setdefault(single["name"], set()).add(int(_cutoffs(text, single["cut"])[0]))
            marked.add(single["name"])
        elif name in BY_NAME:
            marked.add(name)
            if dot:
                params = _params(BY_NAME[name], text, raw)
                if name in given:
                    plan.notes.append(f"-m {text} ignored: trec_eval uses the parameters of "
                                      f"the first -m {name}.… only")
                else:
                    given[name] = params
        elif name in NOT_COMPUTED:
            raise ValueError(f"measure {name!r} of trec_eval needs another input format "
                             "(-R prefs or qrels_jg) and is not computed by ranklens")
        else:
            parse_metric(text)  # a ranklens spelling, or a ValueError listing the valid forms
            if text not in plan.metrics:
                plan.metrics.append(text)
    for name in sorted(marked, key=[m.name for m in MEASURES].index):
        measure = BY_NAME[name]
        if name in given:
            params = given[name]
            if name in singles:
                params = Params(tuple(sorted(set(params.values) | singles[name])))
        elif name in singles:
            params = Params(tuple(float(k) for k in sorted(singles[name])))
        else:
            params = Params(measure.default)
        plan.trec[name] = params
    return plan


def _params(measure: TrecMeasure, text: str, raw: str) -> Params:
    """The parameters of ``-m name.raw`` as trec_eval reads them for ``measure``."""
    if measure.params == "cuts":
        return Params(tuple(float(k) for k in _cutoffs(text, raw)))
    if measure.params == "levels":
        values = sorted(_number(text, part) for part in raw.split(","))
        return Params(tuple(values), raw)
    if measure.params == "numbers":
        values = [_number(text, part) for part in raw.split(",")]
        if measure.name == "utility" and len(values) != 4:
            raise ValueError(f"measure {text!r}: utility takes four coefficients, e.g. "
                             "utility.1,-1,0,0 (trec_eval: 'improper number of coefficients')")
        if measure.name == "relstring" or measure.name == "set_F":
            values = values[:1]
        return Params(tuple(values), raw)
    if measure.params == "pairs":
        key, equals, value = raw.partition("=")
        if key != "p" or not equals or not 0.0 < _number(text, value) < 1.0:
            raise ValueError(f"measure {text!r}: ranklens takes one parameter for "
                             f"{measure.name}, the persistence, e.g. {measure.name}.p=0.8")
        return Params((_number(text, value),), raw)
    raise ValueError(f"measure {text!r}: ranklens takes no parameters for {measure.name} "
                     "(trec_eval's gain pairs such as ndcg.1=3.5 are not supported)")


def _number(text: str, part: str) -> float:
    try:
        return float(part)
    except ValueError:
        raise ValueError(f"measure {text!r}: {part!r} is not a number") from None


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


def as_metrics(plan: MeasurePlan) -> list[tuple[str, str]]:
    """(printed trec_eval name, ranklens metric) of each planned trec_eval measure that is a
    ranklens metric, in trec_eval's order; ``ValueError`` naming those that are not."""
    others = [m.name for m in plan.ordered if m.name not in AS_METRIC]
    if others:
        raise ValueError(f"{', '.join(others)} need{'s' if len(others) == 1 else ''} the "
                         "local engine (whole rankings on one machine)")
    pairs = []
    for measure in plan.ordered:
        template = AS_METRIC[measure.name]
        if measure.params == "cuts":
            pairs += [(f"{measure.name}_{int(k)}", template.format(k=int(k)))
                      for k in plan.trec[measure.name].values]
        else:
            pairs.append((measure.name, template))
    return pairs


__all__ = ["AS_METRIC", "MEASURES", "NICKNAMES", "MeasurePlan", "Params", "TrecMeasure",
           "as_metrics", "plan_measures"]
