"""The judge checked on the gold queries: does the proxy (LLM) grade documents as the gold does?

PPI++ (`ranklens.stats.ppi_compare`) corrects the difference B - A for the judge's bias; it
says little about the judge itself. This module answers, on the documents graded by both:

- the confusion matrix of grades (rows: gold grade, columns: proxy grade);
- weighted Cohen's kappa, linear and quadratic (Cohen, Psychological Bulletin 70, 1968,
  213-220): agreement beyond chance, where a proxy grade one step off costs less than three
  steps off. The weight rule (issue 45): weights use the distance between grade **values**,
  not between the positions of the grades that happen to occur. With grades 0, 1, 2, 3 all
  present the two agree (scikit-learn's ``cohen_kappa_score`` uses positions of the sorted
  labels); when a grade never occurs they differ: gold and proxy grades among {0, 1, 3} have
  linear kappa .4615 by values and .4318 by positions (3 counts as one step from 1). Values
  are the default because a grade scale does not shrink when a grade is missing from the
  sample: a 1 graded 3 is two steps off whether or not any document got a 2, and the kappa of
  a sample should not move because one grade did not occur. ``distance="positions"`` in
  `weighted_kappa` gives scikit-learn's number;
- the mean proxy - gold grade per gold grade: where the judge is lenient or strict.

Intervals resample **queries**, not documents: the documents of one query share a topic, a
pool and often a judge's reading of the query, so they are not independent, and resampling
documents would give intervals too narrow. Each resample draws queries with replacement and
adds up their documents' confusion counts (`ranklens.stats.draws` indices, memory-bounded
blocks of `ranklens.stats.chunking`); the interval is the percentile interval of the
resampled kappas. It answers how well the judge agrees with the gold **on these kinds of
queries**; not whether it ranks runs the same way (the PPI page's bias of B - A does that).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.stats.chunking import block_generators, chunk_sizes, offsets
from ranklens.stats.draws import fill_uniform_indices
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning, check_probability
from ranklens.stats.notes import Note, emitted
from ranklens.stats.results import Interval, Seed

KAPPA_WEIGHTS = ("linear", "quadratic")
AGREEMENT_METHOD = "bootstrap percentile over queries"
_AGREEMENT_STREAM = 32  # purpose tag of the query resamples' random streams
_DRAWS_PER_BLOCK = 1 << 20
Array = npt.NDArray[np.float64]
Grades = Sequence[float] | npt.NDArray[np.float64] | npt.NDArray[np.int64]


@dataclass(frozen=True)
class GradeConfusion:
    """Counts of documents by gold grade (rows) and proxy grade (columns), in ``grades`` order."""

    grades: tuple[float, ...]
    counts: npt.NDArray[np.int64]

    @property
    def n_documents(self) -> int:
        return int(self.counts.sum())


@dataclass(frozen=True)
class AgreementEstimate:
    """A number of the judge check with its interval (method `AGREEMENT_METHOD`: bootstrap
    percentile over resampled queries)."""

    estimate: float
    interval: Interval


@dataclass(frozen=True)
class GradeBias:
    """Mean proxy - gold grade of the documents whose gold grade is ``grade``."""

    grade: float
    n_documents: int
    n_queries: int
    mean_difference: AgreementEstimate


@dataclass(frozen=True)
class JudgeAgreement:
    """Document-level agreement of proxy and gold grades on the gold queries (module docstring)."""

    confusion: GradeConfusion
    kappa_linear: AgreementEstimate
    kappa_quadratic: AgreementEstimate
    bias_by_grade: tuple[GradeBias, ...]
    n_queries: int
    n_resamples: int
    seed: Seed


KAPPA_DISTANCES = ("values", "positions")
"""How far apart two grades are for the kappa weights (module docstring): their values
(default) or their positions among the grades that occur (scikit-learn's)."""


def _weights(grades: Sequence[float], weights: str, distance: str = "values") -> Array:
    """Disagreement weights |g_i - g_j| (linear) or (g_i - g_j)^2 (quadratic), g the grade
    values or (``distance="positions"``) their positions 0, 1, 2, ... in ``grades``."""
    if weights not in KAPPA_WEIGHTS:
        raise ValueError(f"weights must be one of {KAPPA_WEIGHTS}, got {weights!r}")
    if distance not in KAPPA_DISTANCES:
        raise ValueError(f"distance must be one of {KAPPA_DISTANCES}, got {distance!r}")
    values = (np.asarray(grades, dtype=np.float64) if distance == "values"
              else np.arange(len(grades), dtype=np.float64))
    gaps: Array = np.abs(values[:, None] - values[None, :])
    return gaps if weights == "linear" else gaps**2


def _kappas(counts: Array, disagreement: Array) -> Array:
    """Weighted kappa of confusion counts (..., k, k): 1 - observed / chance disagreement.

    NaN where chance disagreement is 0 (every document of one grade on both sides).
    """
    total = counts.sum(axis=(-2, -1))
    rows = counts.sum(axis=-1)
    cols = counts.sum(axis=-2)
    observed = (counts * disagreement).sum(axis=(-2, -1)) * total
    expected = np.einsum("...i,ij,...j->...", rows, disagreement, cols)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected > 0, 1.0 - observed / expected, np.nan)


def _grades_of(gold: Array, proxy: Array, grades: Sequence[float] | None) -> tuple[float, ...]:
    seen = np.union1d(gold, proxy)
    if grades is None:
        return tuple(float(g) for g in seen)
    chosen = tuple(float(g) for g in sorted(grades))
    unknown = np.setdiff1d(seen, chosen)
    if unknown.size:
        raise ValueError(f"grades {unknown.tolist()} occur but are not in grades={list(chosen)}")
    return chosen


def _validated(gold: Grades, proxy: Grades) -> tuple[Array, Array]:
    gold_values = np.asarray(gold, dtype=np.float64)
    proxy_values = np.asarray(proxy, dtype=np.float64)
    if gold_values.shape != proxy_values.shape or gold_values.ndim != 1:
        raise ValueError(
            f"gold and proxy must be one-dimensional and aligned, got shapes "
            f"{gold_values.shape} and {proxy_values.shape}"
        )
    if not (np.isfinite(gold_values).all() and np.isfinite(proxy_values).all()):
        raise ValueError("gold and proxy grades must be finite numbers (no NaN)")
    return gold_values, proxy_values


def confusion_matrix(
    gold: Grades, proxy: Grades, *, grades: Sequence[float] | None = None
) -> GradeConfusion:
    """Counts of documents by (gold grade, proxy grade); ``grades`` default: those that occur."""
    gold_values, proxy_values = _validated(gold, proxy)
    chosen = _grades_of(gold_values, proxy_values, grades)
    k = len(chosen)
    rows = np.searchsorted(chosen, gold_values)
    cols = np.searchsorted(chosen, proxy_values)
    counts = np.bincount(rows * k + cols, minlength=k * k).reshape(k, k).astype(np.int64)
    return GradeConfusion(chosen, counts)


def weighted_kappa(
    gold: Grades, proxy: Grades, *, weights: str = "linear",
    grades: Sequence[float] | None = None, distance: str = "values",
) -> float:
    """Weighted Cohen's kappa of proxy against gold grades (NaN when chance agreement is total).

    ``distance`` "values" (default) weighs a disagreement by the difference of the grade
    values; "positions" by that of their positions among ``grades`` (default: the grades that
    occur), which is scikit-learn's ``cohen_kappa_score``. They differ only when the grades
    are not evenly spaced, e.g. when a grade of the scale never occurs (module docstring).
    """
    confusion = confusion_matrix(gold, proxy, grades=grades)
    return float(_kappas(confusion.counts.astype(np.float64),
                         _weights(confusion.grades, weights, distance)))


def judge_agreement(
    queries: Sequence[str] | npt.NDArray[np.object_],
    gold: Grades,
    proxy: Grades,
    *,
    alpha: float = 0.05,
    n_resamples: int = 2000,
    seed: Seed = 0,
    grades: Sequence[float] | None = None,
) -> JudgeAgreement:
    """The judge check of the module docstring, one row per document graded by both.

    ``queries[i]`` is the query of document i, ``gold[i]``/``proxy[i]`` its grades. Kappas
    and per-grade biases get ``1 - alpha`` percentile intervals over ``n_resamples``
    resamples of the queries. Raises `InsufficientSampleError` below 2 queries; warns
    (`SmallSampleWarning`) when resamples leave a kappa undefined (`judge_agreement_with_notes`
    returns that as a note instead).
    """
    return emitted(judge_agreement_with_notes(queries, gold, proxy, alpha=alpha,
                                              n_resamples=n_resamples, seed=seed,
                                              grades=grades))


def judge_agreement_with_notes(
    queries: Sequence[str] | npt.NDArray[np.object_],
    gold: Grades,
    proxy: Grades,
    *,
    alpha: float,
    n_resamples: int,
    seed: Seed,
    grades: Sequence[float] | None,
) -> tuple[JudgeAgreement, tuple[Note, ...]]:
    """`judge_agreement`, with what it would warn (resamples that leave a kappa or a grade's
    bias undefined) returned as notes (every argument given: the defaults are
    `judge_agreement`'s)."""
    check_probability("alpha", alpha)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    gold_values, proxy_values = _validated(gold, proxy)
    query_ids = np.asarray(queries, dtype=object)
    if query_ids.shape != gold_values.shape:
        raise ValueError(f"{query_ids.size} query ids for {gold_values.size} grades")
    unique, query_index = np.unique(query_ids, return_inverse=True)
    n_queries = unique.size
    if n_queries < 2:
        raise InsufficientSampleError(n_queries, 2, unit="gold queries with graded documents")
    confusion = confusion_matrix(gold_values, proxy_values, grades=grades)
    k = len(confusion.grades)
    cell = np.searchsorted(confusion.grades, gold_values) * k + np.searchsorted(
        confusion.grades, proxy_values)
    per_query = np.zeros((n_queries, k * k))
    np.add.at(per_query, (query_index, cell), 1.0)
    gold_row = np.searchsorted(confusion.grades, gold_values)
    sums = np.zeros((n_queries, k))
    np.add.at(sums, (query_index, gold_row), proxy_values - gold_values)
    weights = _query_weights(n_queries, n_resamples, seed)  # (resamples, queries)
    resampled = (weights @ per_query).reshape(n_resamples, k, k)
    kappas = []
    notes: list[Note] = []
    for name in KAPPA_WEIGHTS:
        disagreement = _weights(confusion.grades, name)
        observed = float(_kappas(confusion.counts.astype(np.float64), disagreement))
        draws = _kappas(resampled, disagreement)
        kappas.append(AgreementEstimate(observed, _percentile(draws, alpha, name, notes)))
    counts_by_grade = per_query.reshape(n_queries, k, k).sum(axis=2)  # documents per gold grade
    resampled_counts = weights @ counts_by_grade
    resampled_sums = weights @ sums
    biases = []
    for g, grade in enumerate(confusion.grades):
        n_docs = int(counts_by_grade[:, g].sum())
        if n_docs == 0:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            draws = resampled_sums[:, g] / resampled_counts[:, g]
        interval = _percentile(draws, alpha, f"bias at gold grade {grade:g}", notes)
        biases.append(GradeBias(
            grade=grade, n_documents=n_docs,
            n_queries=int(np.count_nonzero(counts_by_grade[:, g])),
            mean_difference=AgreementEstimate(float(sums[:, g].sum() / n_docs), interval)))
    return JudgeAgreement(confusion, kappas[0], kappas[1], tuple(biases), n_queries,
                          n_resamples, seed), tuple(notes)


def _query_weights(n_queries: int, n_resamples: int, seed: Seed) -> Array:
    """How often each query is drawn in each resample: (resamples, queries) counts."""
    sizes = chunk_sizes(n_resamples, n_queries, draws_per_block=_DRAWS_PER_BLOCK)
    generators = block_generators(seed, _AGREEMENT_STREAM, len(sizes), np.random.SFC64)
    weights = np.empty((n_resamples, n_queries))
    for block, (start, stop) in enumerate(offsets(sizes)):
        rows = stop - start
        indices = np.empty(rows * n_queries, dtype=np.uint32)
        fill_uniform_indices(generators[block], n_queries, indices)
        flat = np.repeat(np.arange(rows), n_queries) * n_queries + indices
        weights[start:stop] = np.bincount(flat, minlength=rows * n_queries).reshape(
            rows, n_queries)
    return weights


def _percentile(draws: Array, alpha: float, what: str, notes: list[Note]) -> Interval:
    """The ``1 - alpha`` percentile interval of the finite ``draws`` (NaN ends when none); a
    note in ``notes`` when some draws are undefined."""
    finite = draws[np.isfinite(draws)]
    if finite.size < draws.size:
        notes.append(Note(
            f"{draws.size - finite.size} of {draws.size} query resamples leave the {what} "
            "undefined (one grade only, or no document of that grade): the interval is "
            "taken over the others",
            SmallSampleWarning))
    if finite.size == 0:
        return Interval(math.nan, math.nan, 1.0 - alpha, AGREEMENT_METHOD)
    low, high = np.quantile(finite, [alpha / 2, 1.0 - alpha / 2])
    return Interval(float(low), float(high), 1.0 - alpha, AGREEMENT_METHOD)
