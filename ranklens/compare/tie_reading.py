"""Does the verdict depend on how score ties are broken? trec_eval's rule against tie-averaging.

trec_eval puts equal scores in document-id order (descending), so a run with many ties is
scored partly by its documents' names; the tie-averaged metric (``evaluate(...,
ties="average")``, McSherry and Najork 2008) scores the expected value over every order of
each tie group. ``tie_notes(inputs, settings, report)`` scores each of the report's metrics
under the other rule, compares B with A the same way (same statistics, same seed) and, where
the two readings differ (one finds B better or worse and the other does not, or they
disagree on the direction), returns the sentence the report shows beside the verdict.
``tie_shares`` says per run the share of queries whose cutoff falls inside a tie group.
``with_ties`` is the metric names under a tie rule (the CLI's ``--ties``, the page's order
control). It decides nothing about which rule is right.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.report import Report
from ranklens.compare.segments import compare_metrics
from ranklens.formats import format_delta, format_p
from ranklens.metrics import CutoffTies, cutoff_ties, parse_metric
from ranklens.metrics.names import TIE_AVERAGED
from ranklens.stats import ComparisonResult

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


def _reading(result: ComparisonResult) -> str:
    if result.p_value is None or result.p_value > result.alpha:
        return "no clear difference"
    return "B better" if result.delta > 0 else "B worse"


def tie_notes(inputs: LoadedInputs, settings: CompareSettings, report: Report
              ) -> dict[str, str]:
    """Per metric of a two-run ``report`` on scored runs, the sentence saying that the
    verdict reads otherwise under the other tie rule; metrics that read alike are absent.
    Scores each metric once more (under the other rule); empty for per-query tables and for
    runs scored while read (not kept)."""
    if report.several or inputs.run_a is None or inputs.run_b is None or inputs.qrels is None:
        return {}
    pairs = {m: other for m in report.metrics if (other := other_reading(m)) is not None}
    if not pairs:
        return {}
    evaluations = inputs.evaluations(
        tuple(pairs.values()), missing=settings.missing, order=settings.order,
        gain=settings.gain, relevance_level=settings.relevance_level,
        unjudged=settings.unjudged)
    options = dataclasses.replace(settings, segment_column=None).segment_options()
    notes = {}
    for metric, other in pairs.items():
        shown = report.comparison(metric).overall
        # its notes (``warnings``) are the pairing's, which the report already carries
        alternative = compare_metrics({other: evaluations[0][other]},
                                      {other: evaluations[1][other]}, None,
                                      options)[0].overall
        if _reading(shown) != _reading(alternative):
            notes[metric] = _sentence(metric, shown, other, alternative, report)
    return notes


def _sentence(metric: str, shown: ComparisonResult, other: str,
              alternative: ComparisonResult, report: Report) -> str:
    name_a, name_b = report.pair_names
    rule_shown = parse_metric(metric).ties
    rule_other = parse_metric(other).ties

    def words(result: ComparisonResult) -> str:
        reading = _reading(result).replace("B ", f"{name_b} ")
        return (f"B \u2212 A = {format_delta(result.delta)} (p {format_p(result.p_value)}): "
                f"{reading}")

    return (f"Score ties decide this verdict. Under {TIE_WORDS[rule_shown]}, {metric} gives "
            f"{words(shown)}; under {TIE_WORDS[rule_other]} ({other}), {words(alternative)}. "
            f"The ids of documents with equal scores in {name_a} or {name_b}, not the "
            "rankers, make the difference.")


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


__all__ = ["TIE_RULES", "TIE_WORDS", "other_reading", "tie_notes", "tie_shares", "with_ties"]
