"""Judgement coverage in words: the guardrail banner, the coverage line, the robustness view.

One set of sentences for every face (CLI text, the Compare page, the HTML export), like
``ranklens.compare.verdict_words`` for the verdict. They format what ``Report.coverage`` holds; the
decision to raise the banner is ``MetricCoverage.alert``, taken by the library.
"""

from __future__ import annotations

from ranklens.compare.coverage import (
    TREATMENT_SHORT,
    Coverage,
    CoverageRow,
    MetricCoverage,
)
from ranklens.compare.report import Report
from ranklens.formats import format_delta, format_interval, format_p, level_number, slug
from ranklens.health.check_words import NO_VERDICT, ROBUSTNESS_WITHHELD, withheld_runs, withholds
from ranklens.stats import ComparisonResult
from ranklens.stats.results import interval_reading

ROBUSTNESS_TITLE = "Unjudged documents three ways"
"""The heading of the robustness view on every face (the banner links to it)."""

BANNER_TITLE = "Unjudged documents could change this verdict."
BANNER_POINTER = f"See \u201c{ROBUSTNESS_TITLE}\u201d below."

TREATMENTS_CAPTION = (
    "Judged-only lists (trec_eval -J, Sakai 2007) drop unjudged documents instead of scoring "
    "them 0: less harsh on the less-judged run, not neutral (its deeper judged documents move "
    "up). Proxy labels carry the proxy's bias: for an estimate of B \u2212 A with an honest "
    "interval, correct the proxy on a random gold sample (the Cheap labels page)."
)
"""What each alternative treatment can and cannot tell, under the robustness view."""


def percent(share: float) -> str:
    """``0.714`` -> ``71%``."""
    return f"{100 * share:.0f}%"


def robustness_anchor(metric: str, scope: str = "") -> str:
    """The id of a metric's robustness view (page anchor and HTML id); ``scope`` names one
    candidate's view when there are several (``candidate-2`` in the export, the candidate's
    key on the page), so that ids stay unique."""
    anchor = f"robustness-{slug(metric)}"
    return f"{slug(scope)}-{anchor}" if slug(scope) else anchor


def coverage_line(coverage: MetricCoverage, run_names: tuple[str, str]) -> str:
    """``Judged@10: bm25 71%, neural 74% of the top 10 documents have a judgement.``"""
    name_a, name_b = run_names
    row = coverage.overall
    text = (f"{coverage.judged_metric}: {name_a} {percent(row.judged_a)}, {name_b} "
            f"{percent(row.judged_b)} of the top {coverage.depth} documents have a judgement.")
    if row.residual_a is not None and row.residual_b is not None:
        text += (f" {coverage.metric} residual (the most unjudged documents could add): "
                 f"{name_a} +{row.residual_a:.4f}, {name_b} +{row.residual_b:.4f}.")
    return text


def _reading(result: ComparisonResult, shift: float, run_names: tuple[str, str]) -> str:
    return {"above": f"{run_names[1]} better", "below": f"{run_names[1]} worse",
            "around": "no reliable difference"}[interval_reading(result.interval.low + shift,
                                                                 result.interval.high + shift)]


def _less_judged(row: CoverageRow, run_names: tuple[str, str]) -> str:
    return run_names[1] if row.judged_b < row.judged_a else run_names[0]


def banner(coverage: MetricCoverage, result: ComparisonResult,
           run_names: tuple[str, str], *, withheld: bool = False) -> str | None:
    """The guardrail, in words a ranker reads before the result; None when it is not raised.

    Says what differs (judged@k of both runs), why it matters (unjudged documents count as
    non-relevant) and what the less-judged run's extra unjudged documents could do to B - A if
    they were relevant as often as its judged ones. Each face adds where to look next (a link
    to the robustness view, or `BANNER_POINTER` in text). None too with ``withheld`` (the
    report draws no verdict, ``ranklens.health``: there is none to change).
    """
    if not coverage.alert or withheld:
        return None
    name_a, name_b = run_names
    row = coverage.overall
    less = _less_judged(row, run_names)
    k = coverage.depth
    moved = result.delta + row.shift
    level = level_number(1 - result.alpha)
    low, high = result.interval.low + row.shift, result.interval.high + row.shift
    return (
        f"{name_b}'s top {k} is {percent(row.judged_b)} judged, {name_a}'s "
        f"{percent(row.judged_a)}, and unjudged documents count as non-relevant: {less} may be "
        f"scored too low. If {less}'s extra unjudged documents were relevant as often as its "
        f"judged ones, {name_b} \u2212 {name_a} on {coverage.metric} would be about "
        f"{format_delta(moved)} ({level}% interval "
        f"{format_interval(low, high)}) instead of "
        f"{format_delta(result.delta)}: {_reading(result, row.shift, run_names)} instead of "
        f"{_reading(result, 0.0, run_names)}.")


def coverage_note(coverage: MetricCoverage, result: ComparisonResult,
                  run_names: tuple[str, str], *, withheld: bool = False) -> str:
    """One sentence beside the coverage numbers when there is no banner: why not (none with
    ``withheld``: no verdict is drawn, so nothing could change it)."""
    row = coverage.overall
    if withheld:
        return ""
    if not coverage.guarded:
        return f"No coverage guardrail for {coverage.metric}: {coverage.note}."
    if coverage.alert:
        return ""
    if abs(row.gap) < coverage.min_gap:
        return (f"Both runs are judged alike (gap {100 * abs(row.gap):.1f} points, under "
                f"{100 * coverage.min_gap:.0f}): unjudged documents do not favour either run.")
    less = _less_judged(row, run_names)
    return (f"{less} is less judged; if its extra unjudged documents were relevant as often "
            f"as its judged ones, {run_names[1]} \u2212 {run_names[0]} would move by about "
            f"{format_delta(row.shift)}, not enough to change the verdict.")


def segments_flagged(coverage: MetricCoverage, *, withheld: bool = False) -> str:
    """Which segments' verdicts the coverage gap could change; empty when none (or
    ``withheld``: there are no verdicts)."""
    flagged = coverage.flagged_segments
    if not flagged or withheld:
        return ""
    names = ", ".join(f"{row.segment} ({percent(row.judged_a)} vs {percent(row.judged_b)} "
                      "judged)" for row in flagged)
    return (f"Coverage could also change the verdict in {len(flagged)} segment"
            f"{'s' if len(flagged) != 1 else ''}: {names}.")


def treatment_rows(coverage: Coverage, metric: str, run_names: tuple[str, str], *,
                   withheld: bool = False) -> list[dict[str, str]]:
    """The robustness view of one metric as display rows: treatment, means, B - A, interval,
    p and what the row says (`NO_VERDICT` with ``withheld``: the report draws none)."""
    rows = []
    for entry in coverage.robustness.get(metric, ()):
        result = entry.result
        current = " \u2190 used" if entry.treatment == coverage.treatment else ""
        rows.append({
            "treatment": TREATMENT_SHORT[entry.treatment] + current,
            "mean_a": f"{result.mean_a:.4f}", "mean_b": f"{result.mean_b:.4f}",
            "delta": format_delta(result.delta),
            "interval": format_interval(result.interval.low, result.interval.high),
            "p": format_p(result.p_value),
            "reads": NO_VERDICT if withheld else _reading(result, 0.0, run_names),
            "note": entry.note,
        })
    return rows


def robustness_summary(coverage: Coverage, metric: str, run_names: tuple[str, str], *,
                       withheld: bool = False) -> str:
    """One sentence: do the treatments of unjudged documents agree on the verdict? With
    ``withheld`` (no verdict drawn), why the rows are not read."""
    if withheld and coverage.robustness.get(metric):
        return ROBUSTNESS_WITHHELD
    entries = [e for e in coverage.robustness.get(metric, ()) if e.informative]
    if len(entries) < 2:
        return ""
    readings = {e.treatment: _reading(e.result, 0.0, run_names) for e in entries}
    if len(set(readings.values())) == 1:
        return (f"All {len(entries)} treatments of unjudged documents read "
                f"\u201c{next(iter(readings.values()))}\u201d: the verdict does not hang on them.")
    parts = "; ".join(f"{TREATMENT_SHORT[t]}: {r}" for t, r in readings.items())
    return (f"The treatments of unjudged documents disagree \u2014 {parts}. The verdict hangs "
            "on how unjudged documents are counted.")


def report_alerts(report: Report) -> list[str]:
    """Every banner of a report, one per metric (and candidate) that raises it."""
    out = []
    for candidate in report.candidates:
        single = report.candidate_report(candidate)
        if single.coverage is None:
            continue
        for metric_coverage in single.coverage.alerts:
            text = banner(metric_coverage, single.comparison(metric_coverage.metric).overall,
                          single.pair_names, withheld=withholds(single.health))
            if text:
                out.append(text)
    return out


def leaderboard_coverage(report: Report, metric: str) -> str:
    """One sentence under a leaderboard of several candidates: judged@k of every run on
    ``metric`` and whose verdict unjudged documents could change (each candidate's own
    banner, in its section, says how). Empty for two-run reports and per-query tables."""
    if not report.several:
        return ""
    found = [(j, report.coverage_of(j)) for j in report.candidates]
    measured = [(j, c.metric(metric)) for j, c in found if c is not None]
    rows = [(j, m) for j, m in measured if m is not None]
    if not rows:
        return ""
    names = report.run_names
    first = rows[0][1]
    judged = ", ".join([f"{names[0]} {percent(first.overall.judged_a)}",
                        *(f"{names[j]} {percent(m.overall.judged_b)}" for j, m in rows)])
    text = (f"{first.judged_metric}: {judged} of the top {first.depth} documents have a "
            "judgement.")
    withheld = withheld_runs(report.health, report.candidates)  # no verdict to change
    alarmed = [names[j] for j, m in rows if m.alert and j not in withheld]
    if alarmed:
        text += (f" Unjudged documents could change the verdict of {', '.join(alarmed)}: "
                 "see the banner in " + ("its" if len(alarmed) == 1 else "their")
                 + " section.")
    elif all(m.guarded for _, m in rows) and not withheld:
        text += " No candidate's verdict hangs on them."
    return text
