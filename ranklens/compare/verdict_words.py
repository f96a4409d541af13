"""The verdict in words: what a comparison says, and what it does not.

One set of sentences for every face (CLI text, the app's headline, the HTML export), so that
they never disagree. These functions format; they compute nothing that the Report lacks.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from statistics import NormalDist

from ranklens.compare.family import FamilyComparison, family_phrase
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.formats import format_delta, format_interval, format_lift, format_p, level_number
from ranklens.health.check_words import SEGMENTS_WITHHELD
from ranklens.stats import ComparisonResult, interval_description, interval_label, p_label
from ranklens.stats.results import at_most

_Z = NormalDist()

CAVEAT = (
    "This is about the mean {metric} over this population of queries. It does not say "
    "whether the two runs order documents differently (use RBO: the same {metric} is possible "
    "with very different rankings), nor whether users would notice (that takes an online test)."
)


def resolution(result: ComparisonResult, power: float = 0.8) -> float:
    """The smallest true difference these queries detect with ``power`` (z approximation).

    Derived from the t-interval's half-width, so it needs nothing beyond the result.
    """
    if result.n_queries < 2:
        return float("nan")
    half = (result.t_test.high - result.t_test.low) / 2.0
    z_alpha = _Z.inv_cdf(1.0 - result.alpha / 2.0)
    standard_error = half / z_alpha  # t quantile ~ z at these sizes; a resolution, not a test
    return (z_alpha + _Z.inv_cdf(power)) * standard_error


def conclusion(comparison: MetricComparison, run_names: tuple[str, str]) -> str:
    """The first sentence of `headline`: which run is better, or that no difference is reliable."""
    result = comparison.overall
    name_a, name_b = run_names
    if result.significant:
        better, worse = (name_b, name_a) if result.delta > 0 else (name_a, name_b)
        return f"{better} is better than {worse} on {comparison.metric}."
    return f"No reliable difference between {name_a} and {name_b} on {comparison.metric}."


def headline(comparison: MetricComparison, run_names: tuple[str, str]) -> str:
    """One or two sentences: which run is better on the metric, by how much, how sure."""
    result = comparison.overall
    name_a, name_b = run_names
    level = level_number(1 - result.alpha)
    interval = f"{level}% CI {format_interval(result.interval.low, result.interval.high)}"
    tests = (f"{p_label(result.interval.method)} {_p_phrase(result.p_value)}, "
             f"t-test p {_p_phrase(result.t_test.p_value)}")
    if result.q_value is not None and comparison.overall_family:
        tests += f", adjusted p {_p_phrase(result.q_value)} {comparison.overall_family}"
    elif result.q_value is not None:
        tests += f", q {_p_phrase(result.q_value)} across metrics"
    measured = (f"{comparison.metric}: {name_b} \u2212 {name_a} = {format_delta(result.delta)} "
                f"({interval}; {tests}) over {result.n_queries:,} queries")
    lift = comparison.overall_lift
    if lift is not None:
        measured += (f", a lift of {format_lift(lift.estimate)} over {name_a}'s mean ({level}% CI "
                     f"{format_lift(lift.low)} to {format_lift(lift.high)})")
    if result.significant:
        return f"{conclusion(comparison, run_names)} {measured}."
    outcomes = result.outcomes
    if outcomes.wins == 0 and outcomes.losses == 0:  # no spread: there is nothing to resolve
        return (f"{name_a} and {name_b} score the same {comparison.metric} on every one of "
                f"the {result.n_queries:,} queries.")
    mde = resolution(result)
    return (f"{conclusion(comparison, run_names)} "
            f"{measured}. That is not evidence of no effect: {result.n_queries:,} queries "
            f"resolve differences of about {mde:.4f} or more (80% power).")


def segments_summary(comparison: MetricComparison, run_names: tuple[str, str], *,
                     withheld: bool = False) -> str:
    """Which segments differ (by q-value), in one sentence; empty without segments. With
    ``withheld`` (the report draws no verdict, ``ranklens.health``) none is named: the
    sentence says why."""
    if not comparison.segments:
        return ""
    if withheld:
        return SEGMENTS_WITHHELD
    _, name_b = run_names
    scored = [row for row in comparison.segments if row.result is not None]
    found = [row for row in scored if row.result is not None and row.result.significant]
    alpha = comparison.overall.alpha
    if not found:
        return (f"No segment differs at q \u2264 {alpha:g} ({len(scored)} segments compared; "
                "intervals are not adjusted, the q-value decides).")
    up = [r for r in found if _delta(r) > 0]
    down = [r for r in found if _delta(r) < 0]
    parts = []
    if up:
        parts.append(f"{name_b} better on " + _listing(up))
    if down:
        parts.append("worse on " + _listing(down))
    return (f"{len(found)} of {len(scored)} segments differ at q \u2264 {alpha:g}: "
            + "; ".join(parts) + ".")


def interval_note(comparison: MetricComparison) -> str:
    """Which interval the overall row (and, where they differ, the segments) shows, in words."""
    result = comparison.overall
    method = result.interval.method
    sentence = interval_description(method, alpha=result.alpha)
    if method not in ("sign-flip", "skew-guarded"):
        sentence += f" ({result.n_resamples:,} resamples)"
    others = sorted({row.result.interval.method for row in comparison.segments
                     if row.result is not None and row.result.interval.method != method})
    if others:
        sentence += "; some segments: " + ", ".join(interval_label(m) for m in others)
    return sentence[0].upper() + sentence[1:] + "."


def effect_size_note(comparison: MetricComparison) -> str:
    """A sentence when an effect size of ``comparison`` (overall or a segment) is infinite,
    "" otherwise. Cohen's d_z is infinite when B − A is the same nonzero value on every
    query (no spread to divide by); the JSON writes it as null and names it under
    ``"non_finite"``, and the text says so here, so no reader takes a blank for a zero."""
    rows = [("overall", comparison.overall)] + [
        (f"segment {row.segment!r}", row.result) for row in comparison.segments
        if row.result is not None]
    infinite = [where for where, result in rows if math.isinf(result.effect_size)]
    if not infinite:
        return ""
    where = ("overall" if infinite == ["overall"] else
             f"{', '.join(infinite[:3])}" + (f" and {len(infinite) - 3} more"
                                             if len(infinite) > 3 else ""))
    return (f"The effect size (Cohen's d_z) is infinite ({where}): B − A is the same on "
            "every query, so there is no spread to divide by; the JSON writes it as null, "
            "named under \"non_finite\".")


def caveat(metric: str) -> str:
    return CAVEAT.format(metric=metric)


def _delta(row: SegmentRow) -> float:
    return 0.0 if row.result is None else row.result.delta


LISTED = 6
"""Segments named per direction in `segments_summary`; the table and plot show the rest."""


def _listing(rows: list[SegmentRow]) -> str:
    ordered = sorted(rows, key=lambda r: -abs(_delta(r)))
    named = ", ".join(f"{r.segment} ({format_delta(_delta(r), 3)})" for r in ordered[:LISTED])
    rest = len(ordered) - LISTED
    return named + (f" and {rest} more" if rest > 0 else "")


def _p_phrase(p: float) -> str:
    text = format_p(p)
    return text if text.startswith("<") else f"= {text}"


Q_FAMILY_WORDS = {
    "segments": "across segments",
    "candidates-segments": "across the segments of every candidate",
    "metrics": "across metrics",
}


def q_family_words(family: str, n_candidates: int = 1) -> str:
    """What a q-value is adjusted across: "across the segments of all 5 candidates"."""
    if family == "candidates-segments":
        return f"across the segments of all {n_candidates} candidates"
    return Q_FAMILY_WORDS.get(family, f"across {family}")


def leaderboard_summary(run_names: tuple[str, ...], family: FamilyComparison,
                        alpha: float, withheld: Collection[int] = ()) -> str:
    """Which candidates differ from the baseline by the family's adjusted p, in a sentence.

    The candidates in ``withheld`` (positions whose verdict the health checks withhold) are
    named apart, with no verdict."""
    baseline = run_names[0]
    k = len(run_names) - 1 - len(withheld)
    rows = [family.pair(0, j) for j in range(1, len(run_names)) if j not in withheld]
    apart = (f" No verdict for {_names([run_names[j] for j in sorted(withheld)])}: see the "
             "health checks." if withheld else "")
    better = [run_names[r.b] for r in rows if at_most(r.adjusted_p, alpha) and r.result.delta > 0]
    worse = [run_names[r.b] for r in rows if at_most(r.adjusted_p, alpha) and r.result.delta < 0]
    held = (f"adjusted p \u2264 {alpha:g} {family_phrase(family.family, len(run_names))}, so "
            f"the chance of any false finding among them is at most {alpha:g}")
    if not better and not worse:
        return (f"No {'other ' if withheld else ''}candidate differs reliably from {baseline} "
                f"on {family.metric} (none reaches {held}).{apart}")
    parts = []
    if better:
        parts.append(f"{_names(better)} {'is' if len(better) == 1 else 'are'} better than "
                     f"{baseline}")
    if worse:
        parts.append(f"{_names(worse)} {'is' if len(worse) == 1 else 'are'} worse")
    rest = k - len(better) - len(worse)
    tail = f"; {rest} other{'s' if rest != 1 else ''} not reliably different" if rest else ""
    return f"On {family.metric}, " + "; ".join(parts) + tail + f" ({held}).{apart}"


def family_sentence(family: FamilyComparison, n_runs: int) -> str:
    """How the adjusted p-values were made, in a sentence."""
    return f"Adjusted p: {family.describe(n_runs)}."


def pairing_sentence(family: FamilyComparison, run_names: tuple[str, ...]) -> str:
    """On which queries the runs were compared, and what each run lacked."""
    lacking = [(name, count) for name, count in zip(run_names, family.missing, strict=True)
               if count]
    paired = f"{family.n_queries:,} queries paired across all {len(run_names)} runs"
    if not lacking:
        return f"{paired}; every run has every one of them."
    verb = "scored 0 there" if family.policy == "zero" else "left out of every comparison"
    listed = ", ".join(f"{name} lacks {count:,}" for name, count in lacking)
    return f"{paired}; {listed} ({verb})."


def _names(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
