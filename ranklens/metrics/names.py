"""Metric names as users type them -> one canonical ``MetricSpec`` with one display name.

Accepted (case-insensitive, spaces ignored):

- ``<metric>@<k>``: ``ndcg@10``, ``nDCG@10``, ``P@5``, ``R@100``, ``AP@100``, ``RR@10``,
  ``Success@5``, ``Judged@10``, ``Unjudged@10``
- trec_eval spellings: ``ndcg_cut_10``, ``ndcg_cut.10``, ``P_5``, ``P.5``, ``recall_100``,
  ``map``, ``map_cut_100``, ``recip_rank``, ``Rprec``, ``success_5``, ``ndcg``, ``unj_10``
- parameters in parentheses before the cutoff: ``P(rel=2)@5`` (relevance level of a binary
  metric: grade >= 2 counts as relevant), ``nDCG(gain=exp)@10`` (gain 2^grade - 1)
- measures explicit about incompleteness or asked for by web rankers: ``bpref`` (trec_eval),
  ``RBP(p=0.8)`` (persistence p, optional ``@k``; residual computed beside it), ``ERR@20``
  (gdeval's grades up to 4; ``ERR(max=3)@20`` for another top grade)

This module answers "which metric did the user mean"; it computes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ranklens.errors import MetricError

# family -> (display stem, does it take a cutoff: "required" | "optional" | "never")
_FAMILIES: dict[str, tuple[str, str]] = {
    "ndcg": ("nDCG", "optional"),
    "P": ("P", "required"),
    "recall": ("R", "required"),
    "AP": ("AP", "optional"),
    "RR": ("RR", "optional"),
    "Rprec": ("R-Prec", "never"),
    "success": ("Success", "required"),
    "judged": ("Judged", "required"),
    "unjudged": ("Unjudged", "required"),
    "bpref": ("bpref", "never"),
    "RBP": ("RBP", "optional"),
    "ERR": ("ERR", "optional"),
}

# lower-cased spelling -> family; trec_eval's ``*_cut`` names require a cutoff
_ALIASES: dict[str, str] = {
    "ndcg": "ndcg", "ndcg_cut": "ndcg",
    "p": "P", "prec": "P", "precision": "P",
    "r": "recall", "recall": "recall",
    "ap": "AP", "map": "AP", "map_cut": "AP",
    "rr": "RR", "mrr": "RR", "recip_rank": "RR",
    "rprec": "Rprec", "r-prec": "Rprec", "r_prec": "Rprec", "rp": "Rprec",
    "success": "success", "s": "success",
    "judged": "judged",
    "unjudged": "unjudged", "unj": "unjudged",
    "bpref": "bpref", "rbp": "RBP", "err": "ERR",
}
_CUT_ONLY = {"ndcg_cut", "map_cut"}
_BINARY = {"P", "recall", "AP", "RR", "Rprec", "success", "bpref", "RBP"}
DEFAULT_RBP_P = 0.8  # ir_measures' default persistence
DEFAULT_ERR_MAX_GRADE = 4  # gdeval's $MAX_JUDGMENT (TREC Web track)

VALID_FORMS = (
    "nDCG@k / ndcg_cut_k / ndcg_cut.k, nDCG (no cutoff), nDCG(gain=exp)@k; "
    "P@k / P_k, R@k / recall_k, AP / map, AP@k / map_cut_k, RR / MRR / recip_rank, RR@k, "
    "R-Prec / Rprec, Success@k / success_k, Judged@k, Unjudged@k / unj_k, bpref, "
    "RBP(p=0.8) / RBP(p=0.8)@k, ERR@k / ERR(max=3)@k; "
    "binary metrics take a relevance level: P(rel=2)@5"
)

COMMON_METRICS = ("nDCG@10", "nDCG@5", "nDCG@20", "nDCG", "AP", "RR", "P@5", "P@10", "R@100",
                  "R-Prec", "Success@1", "bpref", "RBP(p=0.8)", "ERR@20", "Judged@10")
"""The metrics offered first wherever a face lists them (the app's metric pickers), in display
spelling; any name ``parse_metric`` accepts can be asked for besides these."""

_PATTERN = re.compile(
    r"^(?P<stem>[a-z_\-]+?)"
    r"(?:\((?P<params>[^)]*)\))?"
    r"(?:(?:@|_|\.)(?P<cutoff>[0-9]+))?$"
)


@dataclass(frozen=True)
class MetricSpec:
    """What to compute: a metric family, its cutoff, relevance level and gain.

    ``relevance_level`` is the smallest grade that counts as relevant for the binary metrics
    (trec_eval's ``-l``, default 1); nDCG uses the grades themselves and ignores it, as
    trec_eval does. ``gain`` is ``"linear"`` (gain = grade, trec_eval) or ``"exp"``
    (2^grade - 1) and only matters for nDCG. ``p`` is RBP's persistence and ``max_grade`` the
    top grade ERR scales stopping probabilities by; both are None for other families.
    """

    family: str
    cutoff: int | None = None
    relevance_level: int = 1
    gain: str = "linear"
    p: float | None = None
    max_grade: int | None = None

    @property
    def name(self) -> str:
        """Canonical display name, e.g. ``nDCG@10``, ``P(rel=2)@5``, ``AP``."""
        stem = _FAMILIES[self.family][0]
        params = []
        if self.family == "RBP":
            params.append(f"p={self.p:g}")
        if self.family == "ERR" and self.max_grade != DEFAULT_ERR_MAX_GRADE:
            params.append(f"max={self.max_grade}")
        if self.family in _BINARY and self.relevance_level != 1:
            params.append(f"rel={self.relevance_level}")
        if self.family == "ndcg" and self.gain != "linear":
            params.append(f"gain={self.gain}")
        text = stem + (f"({','.join(params)})" if params else "")
        return text if self.cutoff is None else f"{text}@{self.cutoff}"

    def __str__(self) -> str:
        return self.name


def parse_metric(
    name: str | MetricSpec, *, gain: str | None = None, relevance_level: int | None = None
) -> MetricSpec:
    """The ``MetricSpec`` a user means by ``name``; ``ValueError`` listing valid forms if none.

    ``gain`` sets the nDCG gain and ``relevance_level`` the level of binary metrics when the
    name does not say them (``evaluate(gain="exp", relevance_level=2)``).
    """
    if isinstance(name, MetricSpec):
        return name
    text = re.sub(r"\s+", "", str(name)).lower()
    match = _PATTERN.match(text)
    stem = match.group("stem") if match else ""
    if not match or stem not in _ALIASES:
        raise MetricError(f"unknown metric {name!r}; valid forms: {VALID_FORMS}")
    family = _ALIASES[stem]
    cutoff_text = match.group("cutoff")
    cutoff = int(cutoff_text) if cutoff_text is not None else None
    needs = _FAMILIES[family][1]
    if cutoff is not None and cutoff < 1:
        raise MetricError(f"metric {name!r}: the cutoff must be a positive integer")
    if cutoff is None and (needs == "required" or stem in _CUT_ONLY):
        raise MetricError(f"metric {name!r} needs a cutoff, e.g. {stem}@10; "
                         f"valid forms: {VALID_FORMS}")
    if cutoff is not None and needs == "never":
        raise MetricError(f"metric {name!r} takes no cutoff; valid forms: {VALID_FORMS}")
    if relevance_level is not None and relevance_level < 1:
        raise MetricError(f"the relevance level must be an integer >= 1, not {relevance_level}")
    level, spec_gain = (relevance_level or 1), None
    p = DEFAULT_RBP_P if family == "RBP" else None
    max_grade = DEFAULT_ERR_MAX_GRADE if family == "ERR" else None
    for param in filter(None, (match.group("params") or "").split(",")):
        key, _, value = param.partition("=")
        if key in ("rel", "level", "relevance_level") and family in _BINARY:
            if not value.lstrip("-").isdigit() or int(value) < 1:
                raise MetricError(f"metric {name!r}: the relevance level must be an integer >= 1")
            level = int(value)
        elif key == "gain" and family == "ndcg" and value in ("linear", "exp"):
            spec_gain = value
        elif key == "p" and family == "RBP":
            p = _persistence(name, value)
        elif key in ("max", "max_grade") and family == "ERR":
            if not value.isdigit() or int(value) < 1:
                raise MetricError(f"metric {name!r}: the top grade must be an integer >= 1")
            max_grade = int(value)
        else:
            raise MetricError(f"metric {name!r}: unknown parameter {param!r} (binary metrics "
                             "take rel=N, nDCG takes gain=linear|exp, RBP takes p=0.8, "
                             "ERR takes max=4)")
    if gain not in (None, "linear", "exp"):
        raise MetricError(f"gain must be 'linear' or 'exp', not {gain!r}")
    final_gain = (spec_gain or gain or "linear") if family == "ndcg" else "linear"
    return MetricSpec(family, cutoff, level if family in _BINARY else 1, final_gain, p,
                      max_grade)


def _persistence(name: str, value: str) -> float:
    try:
        p = float(value)
    except ValueError:
        p = float("nan")
    if not 0.0 < p < 1.0:
        raise MetricError(f"metric {name!r}: RBP's persistence p must lie strictly between 0 "
                         f"and 1, e.g. RBP(p=0.8)")
    return p
