"""The judge checked on the gold queries: agreement of grades, and its bias per segment.

PPI++ corrects the difference B - A for the judge's bias; it says little about the judge. On
the queries graded by both, `judge_check` answers:

- document level (`ranklens.stats.judge_agreement`): the confusion matrix of gold against
  proxy grades, linear- and quadratic-weighted Cohen's kappa with query-resampled intervals,
  and the mean proxy - gold grade per gold grade (where the judge is lenient or strict);
- per segment (with a segment map): the proxy's bias on B - A (mean proxy delta - gold delta
  over the segment's gold queries, paired t-interval) and PPI++ on the segment's queries,
  where the segment has at least `MIN_GOLD` gold queries. Below that it is refused, in words,
  with how many gold queries it would need: the correction's weight and interval rest on the
  gold-proxy covariance, which fewer gold queries estimate too noisily to rely on.

It computes; it reads no file and draws nothing (``ranklens.ppi.analysis`` reads the inputs,
``ranklens.ppi.judge_views`` shows the result).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from ranklens import codec
from ranklens.data import MetricResult, Qrels
from ranklens.stats import (
    MIN_GOLD,
    InsufficientSampleError,
    JudgeAgreement,
    PPIComparison,
    paired_t_test,
)
from ranklens.stats.agreement import GradeConfusion, judge_agreement_with_notes
from ranklens.stats.ppi import gold_and_proxy, ppi_compare_with_notes
from ranklens.stats.results import Interval

UNSEGMENTED = "(no segment)"
JUDGE_RESAMPLES = 2000
"""Query resamples of the kappa and per-grade intervals (`ranklens.stats.judge_agreement`)."""


@dataclass(frozen=True)
class SegmentBias:
    """The proxy's bias on B - A over a segment's ``n_gold`` gold queries: mean proxy delta -
    gold delta (``estimate``), its paired t-``interval`` and the p-value of "no bias"."""

    estimate: float
    interval: Interval
    p_value: float
    n_gold: int


@dataclass(frozen=True)
class SegmentJudge:
    """One segment of the judge check: ``n_queries`` measured under the proxy, ``n_gold`` of
    them with gold grades, the proxy's ``bias`` on B - A (None below 2 gold queries) and
    ``ppi`` the PPI++ difference on the segment (None below `MIN_GOLD` gold queries; ``note``
    then says why, with how many more it would need)."""

    segment: str
    n_queries: int
    n_gold: int
    bias: SegmentBias | None = None
    ppi: PPIComparison | None = None
    note: str = ""

    @property
    def gold_needed(self) -> int:
        """Gold queries still needed before PPI++ is computed for this segment (0: enough)."""
        return max(0, MIN_GOLD - self.n_gold)


@dataclass(frozen=True)
class JudgeCheck:
    """The judge check of the module docstring. ``agreement`` is None when fewer than two
    gold queries have documents graded by both (``notes`` says so); ``segments`` is empty
    without a segment map. ``min_gold`` is the threshold segments were held to."""

    agreement: JudgeAgreement | None
    n_documents: int
    segment_column: str | None = None
    segments: tuple[SegmentJudge, ...] = ()
    min_gold: int = MIN_GOLD
    notes: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:  # the confusion counts are an array
        return isinstance(other, JudgeCheck) and codec.plain(self) == codec.plain(other)

    __hash__ = None  # type: ignore[assignment]


def graded_by_both(proxy: Qrels, gold: Qrels) -> tuple[pd.DataFrame, int]:
    """The documents graded by both judgements (query_id, doc_id, gold, proxy), sorted, and
    how many gold-graded documents have no proxy grade (left out of the agreement)."""
    gold_frame = gold.to_frame().rename(columns={"relevance": "gold"})
    proxy_frame = proxy.to_frame().rename(columns={"relevance": "proxy"})
    both = gold_frame.merge(proxy_frame, on=["query_id", "doc_id"], how="left")
    lacking = int(both["proxy"].isna().sum())
    both = both.dropna(subset=["proxy"]).sort_values(["query_id", "doc_id"], kind="stable")
    return both.reset_index(drop=True), lacking


def judge_check(
    proxy: Qrels, gold: Qrels, scored: tuple[MetricResult, MetricResult, MetricResult,
                                             MetricResult],
    *, segments: Mapping[str, str] | None = None, segment_column: str | None = None,
    alpha: float = 0.05, seed: int = 0, n_resamples: int = JUDGE_RESAMPLES,
) -> JudgeCheck:
    """The judge check of ``proxy`` against ``gold`` grades; ``scored`` are the per-query
    values (proxy A, proxy B, gold A, gold B) of the metric, for the per-segment bias and
    PPI++; ``segments`` maps a query id to its segment (queries absent from it form
    ``"(no segment)"``)."""
    notes: list[str] = []
    documents, lacking = graded_by_both(proxy, gold)
    if lacking:
        notes.append(f"{lacking:,} documents graded by gold have no proxy grade and are left "
                     "out of the agreement.")
    agreement = None
    try:
        agreement, said = judge_agreement_with_notes(
            documents["query_id"].to_numpy(dtype=object), documents["gold"].to_numpy(),
            documents["proxy"].to_numpy(), alpha=alpha, n_resamples=n_resamples, seed=seed,
            grades=None)
        notes += [note.text for note in said]
    except InsufficientSampleError as error:
        notes.append(f"No agreement of grades: {error.n} gold queries have documents graded "
                     "by both, 2 or more are needed.")
    rows = () if segments is None else _segments(scored, segments, alpha)
    return JudgeCheck(agreement, len(documents), segment_column if segments is not None
                      else None, rows, MIN_GOLD, tuple(dict.fromkeys(notes)))


def _segments(scored: tuple[MetricResult, ...], segments: Mapping[str, str],
              alpha: float) -> tuple[SegmentJudge, ...]:
    proxy_a, proxy_b, gold_a, gold_b = scored
    split = gold_and_proxy(proxy_a, proxy_b, gold_a, gold_b)
    names_gold = np.array([segments.get(q, UNSEGMENTED) for q in split.gold_queries.tolist()],
                          dtype=object)
    names_only = np.array([segments.get(q, UNSEGMENTED)
                           for q in split.proxy_queries.tolist()], dtype=object)
    out = []
    for name in sorted(set(names_gold.tolist()) | set(names_only.tolist())):
        on_gold = names_gold == name
        n_gold = int(on_gold.sum())
        n_queries = n_gold + int((names_only == name).sum())
        bias = None
        if n_gold >= 2:
            test = paired_t_test(split.proxy_gold[on_gold] - split.gold[on_gold], alpha=alpha)
            bias = SegmentBias(test.delta, Interval(test.low, test.high, 1 - alpha, "t"),
                               test.p_value, n_gold)
        ppi = None
        if n_gold >= MIN_GOLD:
            # its notes name the segment's unpaired queries, which the analysis's own notes
            # already count among all queries (and n_gold is at least MIN_GOLD here)
            within = [_within(r, segments, name) for r in scored]
            ppi, _ = ppi_compare_with_notes(within[0], within[1], within[2], within[3], None,
                                            alpha, True, "finite-sample")
        out.append(SegmentJudge(name, n_queries, n_gold, bias, ppi,
                                refusal(n_gold) if ppi is None else ""))
    return tuple(out)


def refusal(n_gold: int) -> str:
    """Why PPI++ is not computed for a segment of ``n_gold`` gold queries, in words."""
    more = MIN_GOLD - n_gold
    return (f"PPI++ not computed: {n_gold} gold quer{'y' if n_gold == 1 else 'ies'}, "
            f"{MIN_GOLD} needed ({more} more): with fewer the correction's weight and "
            "interval rest on a covariance estimated too noisily to rely on")


def _within(result: MetricResult, segments: Mapping[str, str], name: str) -> MetricResult:
    mask = np.array([segments.get(q, UNSEGMENTED) == name for q in result.query_ids.tolist()],
                    dtype=bool)
    return result.restrict(mask)


def kappa_text(value: float) -> str:
    """A kappa for people: two decimals, a real minus; "undefined" for NaN."""
    return "undefined" if math.isnan(value) else f"{value:.2f}".replace("-", "\u2212")


def _confusion_plain(confusion: GradeConfusion) -> dict[str, object]:
    return {"grades": list(confusion.grades), "counts": confusion.counts.tolist()}


def _confusion_back(data: Mapping[str, object]) -> GradeConfusion:
    counts: npt.NDArray[np.int64] = np.asarray(data["counts"], dtype=np.int64)
    grades = data["grades"]
    assert isinstance(grades, list)
    return GradeConfusion(tuple(float(g) for g in grades), counts)


codec.register(GradeConfusion, codec.Form(to_plain=_confusion_plain,
                                          from_plain=_confusion_back))
codec.register(JudgeCheck, codec.Form(order=("agreement", "n_documents", "segment_column",
                                             "segments", "min_gold", "notes")))
