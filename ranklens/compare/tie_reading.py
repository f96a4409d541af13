"""Does the verdict depend on how score ties are broken? trec_eval's rule against tie-averaging.

trec_eval puts equal scores in document-id order (descending), so a run with many ties is
scored partly by its documents' names; the tie-averaged metric (``evaluate(...,
ties="average")``, McSherry and Najork 2008) scores the expected value over every order of
each tie group. ``tie_notes(inputs, settings, report)`` scores each of the report's metrics
under the other rule, compares B with A the same way (same statistics, same seed) and, where
the two readings differ (one finds B better or worse and the other does not, or they
disagree on the direction), or the other rule moves B - A by more than a tenth of its
interval's width (`moves_the_difference`), returns the sentence the report shows beside the
verdict, with the other rule's estimate.
``tie_shares`` says per run the share of queries whose cutoff falls inside a tie group.
``with_ties`` is the metric names under a tie rule (the CLI's ``--ties``, the page's order
control). It decides nothing about which rule is right.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import NamedTuple

from ranklens.compare.loaded import LoadedInputs
from ranklens.compare.report import Report
from ranklens.compare.scoring import scoring_key
from ranklens.compare.settings import CompareSettings
from ranklens.formats import format_delta, format_p
from ranklens.metrics import CutoffTies, cutoff_ties, parse_metric
from ranklens.metrics.names import TIE_AVERAGED
from ranklens.metrics.ties import has_ties
from ranklens.stats import ComparisonResult
from ranklens.stats.compare import difference_and_p

TIE_RULES = ("trec_eval", "average")
TIE_WORDS = {"trec_eval": "trec_eval's tie rule, equal scores in document-id order "
                          "(descending)",
             "average": "tie-averaging, the expected value over every order of equal scores"}


def with_ties(metrics: Sequence[str], ties: str) -> tuple[str, ...]:
    """``metrics`` under tie rule ``ties`` ("trec_eval" or "average"), canonical names; a
    metric with no tie-averaged form (ERR, bpref, Judged@k) stays as it is."""
    if ties not in TIE_RULES:
        raise ValueError(f"ties must be one of {TIE_RULES}, not {ties!r}")
    named = []
    for metric in metrics:
        spec = parse_metric(metric)
        if spec.family in TIE_AVERAGED:
            spec = dataclasses.replace(spec, ties=ties)
        named.append(spec.name)
    return tuple(dict.fromkeys(named))


def other_reading(metric: str) -> str | None:
    """The same metric under the other tie rule (None when it has no tie-averaged form)."""
    spec = parse_metric(metric)
    if spec.family not in TIE_AVERAGED:
        return None
    return dataclasses.replace(spec, ties="trec_eval" if spec.ties == "average"
                               else "average").name


class Reading(NamedTuple):
    """What a verdict reads of a comparison: B - A, its p-value and the level."""

    delta: float
    p_value: float
    alpha: float

    @property
    def words(self) -> str:
        if self.p_value > self.alpha:
            return "no clear difference"
        return "B better" if self.delta > 0 else "B worse"


def _reading(result: ComparisonResult) -> Reading:
    return Reading(result.delta, result.p_value, result.alpha)


def readings_to_score(inputs: LoadedInputs, settings: CompareSettings) -> tuple[str, ...]:
    """The metrics under the other tie rule that `tie_notes` will compare for a report of
    ``inputs`` with ``settings``; the report's own scoring pass scores them beside its
    metrics (``ranklens.compare.scored.scored_for``), so that the runs are scored once. Empty where
    there is no tie sentence to write: several runs, per-query tables, runs scored while read,
    or runs whose documents never share a score (both rules then score them alike)."""
    if (inputs.n_runs != 2 or settings.seed_runs is not None or inputs.qrels is None
            or inputs.run_a is None or inputs.run_b is None
            or not any_ties(inputs, settings.order)):
        return ()
    return other_readings(settings)


def other_readings(settings: CompareSettings) -> tuple[str, ...]:
    """The settings' metrics under the other tie rule (those that have a tie-averaged form):
    what the tie sentence compares. Two runs scored while read (``load_inputs`` with
    settings) are scored for them too, beside the settings' metrics."""
    others = (other_reading(m) for m in settings.canonical().metrics)
    return tuple(dict.fromkeys(m for m in others if m is not None))


def ties_key(order: str) -> str:
    """Where ``LoadedInputs.derived`` keeps whether a run of the inputs has ties under
    ``order`` (`any_ties`; set while reading for runs scored while read)."""
    return f"has_ties:{order}"


def any_ties(inputs: LoadedInputs, order: str) -> bool:
    """Whether a run of ``inputs`` has two documents of one query with the same ranking key
    under ``order`` (`ranklens.metrics.ties.has_ties`), computed once per order."""
    key = ties_key(order)
    if key not in inputs.derived:
        inputs.derived[key] = any(has_ties(run, order) for run in inputs.runs
                                  if run is not None)
    return bool(inputs.derived[key])


def tie_notes(inputs: LoadedInputs, settings: CompareSettings, report: Report
              ) -> dict[str, str]:
    """Per metric of a two-run ``report`` on scored runs, the sentence saying that the
    verdict reads otherwise under the other tie rule; metrics that read alike are absent.

    The other rule's scores come from the report's own scoring pass (`readings_to_score`;
    scored here only for a report made otherwise), and of its comparison only B - A and the
    p-value are computed (same options and seed), which is all a verdict reads. Empty
    for per-query tables, for runs scored while read (not kept), for systems of several seeds
    (their B is a mean over seeds) and for runs whose documents never share a score."""
    if report.several or settings.seed_runs is not None or inputs.qrels is None:
        return {}  # systems of several seeds: B is a seed mean, not one run to score again
    pairs = {m: other for m in report.metrics if (other := other_reading(m)) is not None}
    if not pairs or not _scorable(inputs, settings, tuple(pairs.values())) \
            or not any_ties(inputs, settings.order):
        return {}
    evaluations = inputs.evaluations(
        tuple(pairs.values()), missing=settings.missing, order=settings.order,
        gain=settings.gain, relevance_level=settings.relevance_level,
        unjudged=settings.unjudged)
    notes = {}
    for metric, other in pairs.items():
        shown = _reading(report.comparison(metric).overall)
        # what it would note is the pairing's, which the report already carries
        delta, p_value = difference_and_p(evaluations[0][other], evaluations[1][other],
                                          settings.paired_options())
        alternative = Reading(delta, p_value, shown.alpha)
        overall = report.comparison(metric).overall
        if shown.words != alternative.words:
            notes[metric] = _sentence(metric, shown, other, alternative, report)
        elif moves_the_difference(shown.delta, alternative.delta, overall.interval.low,
                                  overall.interval.high):
            notes[metric] = _moved_sentence(metric, shown, other, alternative, report)
    return notes


def _scorable(inputs: LoadedInputs, settings: CompareSettings, metrics: tuple[str, ...]
              ) -> bool:
    """Whether both rankings are kept, or were scored while read for ``metrics`` (and their
    ties noted) under ``settings``."""
    if inputs.run_a is not None and inputs.run_b is not None:
        return True
    return ties_key(settings.order) in inputs.derived and scoring_key(
        metrics, settings.missing, settings.order, settings.gain, settings.relevance_level,
        settings.unjudged) in inputs.cache


TIE_NOTE_SHARE = 0.1
"""A tie rule moving B - A by more than this share of its interval's width gets a note."""


def moves_the_difference(shown: float, other: float, ci_low: float, ci_high: float) -> bool:
    """Whether the other tie rule's B - A lies further from the shown one than the interval
    can resolve: by more than `TIE_NOTE_SHARE` of its width (any change, when the interval
    is a point or unbounded)."""
    width = ci_high - ci_low
    moved = abs(other - shown)
    if not math.isfinite(width) or width <= 0.0:
        return moved > 0.0
    return moved > TIE_NOTE_SHARE * width


def _sentence(metric: str, shown: Reading, other: str, alternative: Reading,
              report: Report) -> str:
    name_a, name_b = report.pair_names
    rule_shown = parse_metric(metric).ties
    rule_other = parse_metric(other).ties

    def words(result: Reading) -> str:
        reading = result.words.replace("B ", f"{name_b} ")
        return (f"B \u2212 A = {format_delta(result.delta)} (p {format_p(result.p_value)}): "
                f"{reading}")

    return (f"Score ties decide this verdict. Under {TIE_WORDS[rule_shown]}, {metric} gives "
            f"{words(shown)}; under {TIE_WORDS[rule_other]} ({other}), {words(alternative)}. "
            f"The ids of documents with equal scores in {name_a} or {name_b}, not the "
            "rankers, make the difference.")


def _moved_sentence(metric: str, shown: Reading, other: str, alternative: Reading,
                    report: Report) -> str:
    name_a, name_b = report.pair_names
    rule_shown = parse_metric(metric).ties
    rule_other = parse_metric(other).ties
    return (f"Score ties move this difference, not the verdict: under {TIE_WORDS[rule_shown]}, "
            f"{metric} gives B \u2212 A = {format_delta(shown.delta)} (p "
            f"{format_p(shown.p_value)}); under {TIE_WORDS[rule_other]} ({other}), "
            f"{format_delta(alternative.delta)} (p {format_p(alternative.p_value)}). The ids "
            f"of documents with equal scores in {name_a} or {name_b} make that much of it.")


def tie_shares(inputs: LoadedInputs, metric: str, *, order: str = "score"
               ) -> tuple[CutoffTies, ...] | None:
    """Per run of ``inputs`` (A, B, ...) the queries whose cutoff of ``metric`` falls inside
    a group of equal scores (among the judged queries). None for a metric without a cutoff
    or inputs without rankings."""
    cutoff = parse_metric(metric).cutoff
    if cutoff is None or not inputs.runs or any(run is None for run in inputs.runs):
        return None
    judged = None if inputs.qrels is None else inputs.qrels.queries.to_pylist()
    return tuple(cutoff_ties(run, cutoff, order=order, query_ids=judged)
                 for run in inputs.runs if run is not None)


__all__ = ["TIE_NOTE_SHARE", "TIE_RULES", "TIE_WORDS", "Reading", "any_ties",
           "moves_the_difference", "other_reading", "other_readings", "readings_to_score",
           "tie_notes", "tie_shares", "ties_key", "with_ties"]
