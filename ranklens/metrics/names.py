"""Metric names as users type them -> one canonical ``MetricSpec`` with one display name.

Accepted (case-insensitive, spaces ignored):

- ``<metric>@<k>``: ``ndcg@10``, ``nDCG@10``, ``P@5``, ``R@100``, ``AP@100``, ``RR@10``,
  ``Success@5``, ``Judged@10``, ``Unjudged@10``
- trec_eval spellings: ``ndcg_cut_10``, ``ndcg_cut.10``, ``P_5``, ``P.5``, ``recall_100``,
  ``map``, ``map_cut_100``, ``recip_rank``, ``Rprec``, ``success_5``, ``ndcg``, ``unj_10``
- parameters in parentheses before the cutoff: ``P(rel=2)@5`` (relevance level of a binary
  metric: grade >= 2 counts as relevant), ``nDCG(gain=exp)@10`` (gain 2^grade - 1)

This module answers "which metric did the user mean"; it computes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
}
_CUT_ONLY = {"ndcg_cut", "map_cut"}
_BINARY = {"P", "recall", "AP", "RR", "Rprec", "success"}

VALID_FORMS = (
    "nDCG@k / ndcg_cut_k / ndcg_cut.k, nDCG (no cutoff), nDCG(gain=exp)@k; "
    "P@k / P_k, R@k / recall_k, AP / map, AP@k / map_cut_k, RR / MRR / recip_rank, RR@k, "
    "R-Prec / Rprec, Success@k / success_k, Judged@k, Unjudged@k / unj_k; "
    "binary metrics take a relevance level: P(rel=2)@5"
)

COMMON_METRICS = ("nDCG@10", "nDCG@5", "nDCG@20", "nDCG", "AP", "RR", "P@5", "P@10", "R@100",
                  "R-Prec", "Success@1")
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
    (2^grade - 1) and only matters for nDCG.
    """

    family: str
    cutoff: int | None = None
    relevance_level: int = 1
    gain: str = "linear"

    @property
    def name(self) -> str:
        """Canonical display name, e.g. ``nDCG@10``, ``P(rel=2)@5``, ``AP``."""
        stem = _FAMILIES[self.family][0]
        params = []
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
        raise ValueError(f"unknown metric {name!r}; valid forms: {VALID_FORMS}")
    family = _ALIASES[stem]
    cutoff_text = match.group("cutoff")
    cutoff = int(cutoff_text) if cutoff_text is not None else None
    needs = _FAMILIES[family][1]
    if cutoff is not None and cutoff < 1:
        raise ValueError(f"metric {name!r}: the cutoff must be a positive integer")
    if cutoff is None and (needs == "required" or stem in _CUT_ONLY):
        raise ValueError(f"metric {name!r} needs a cutoff, e.g. {stem}@10; "
                         f"valid forms: {VALID_FORMS}")
    if cutoff is not None and needs == "never":
        raise ValueError(f"metric {name!r} takes no cutoff; valid forms: {VALID_FORMS}")
    if relevance_level is not None and relevance_level < 1:
        raise ValueError(f"the relevance level must be an integer >= 1, not {relevance_level}")
    level, spec_gain = (relevance_level or 1), None
    for param in filter(None, (match.group("params") or "").split(",")):
        key, _, value = param.partition("=")
        if key in ("rel", "level", "relevance_level") and family in _BINARY:
            if not value.lstrip("-").isdigit() or int(value) < 1:
                raise ValueError(f"metric {name!r}: the relevance level must be an integer >= 1")
            level = int(value)
        elif key == "gain" and family == "ndcg" and value in ("linear", "exp"):
            spec_gain = value
        else:
            raise ValueError(f"metric {name!r}: unknown parameter {param!r} "
                             f"(binary metrics take rel=N, nDCG takes gain=linear|exp)")
    if gain not in (None, "linear", "exp"):
        raise ValueError(f"gain must be 'linear' or 'exp', not {gain!r}")
    final_gain = (spec_gain or gain or "linear") if family == "ndcg" else "linear"
    return MetricSpec(family, cutoff, level if family in _BINARY else 1, final_gain)
