"""What differs between a stored result and the same inputs and settings recomputed (a share
link's numbers, reopened by another ranklens version): the one "what differs" engine of the
three pages.

``report_changes(stored, recomputed)`` (the Compare page: two `Report` objects or their
serialised form) answers "which numbers, verdicts, settings and warnings are not the same", one
sentence per difference, in the order a reader meets them on the page (settings, then per
metric the verdict, the headline numbers, the segment rows, the judgement coverage with its
guardrail banner and the robustness view; then the warnings).

``payload_changes(stored, recomputed)`` (the MDE and PPI pages: their payloads in plain-JSON
form) answers "which settings, headline numbers and other values are not the same": a headline
card by its label ("MDE with 400 queries was 0.0217, now 0.0220"), then how many other values
differ with the first few by their path in the payload.

Both share the comparison of settings and of numbers (exact, NaN equal to NaN) and name a
number that differs only beyond the digits shown as such. An empty answer means every compared
value is the same. Nothing here computes a statistic or decides which result is right: a
change of method or default is for the reader to weigh (the page shows both views).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ranklens.compare.coverage import TREATMENT_SHORT, Coverage, CoverageRow
from ranklens.compare.report import Report
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.compare.verdict_words import conclusion
from ranklens.formats import format_delta, format_interval, format_p
from ranklens.share.health_differences import health_changes
from ranklens.stats import ComparisonResult

# ---- the MDE and PPI pages' payloads -------------------------------------------------------

NOT_COMPARED = frozenset({"kind", "schema", "ranklens_version", "inputs", "settings",
                          "headline", "non_finite"})
"""Payload keys that are not results (or are compared on their own: settings, headline)."""
MAX_PATHS = 3
"""Other differing values named by their path; the rest are counted."""


def payload_changes(stored: Mapping[str, Any], recomputed: Mapping[str, Any], *,
                    viewer_choices: Sequence[str] = ()) -> tuple[str, ...]:
    """Every difference between two payloads of one page, in words (empty: none).

    ``viewer_choices`` are payload keys and setting names that the viewer of the page sets
    (the PPI page's gold-budget planner): differences there are not the version's and are left
    out.
    """
    skipped = set(viewer_choices)
    settings_before = {k: v for k, v in dict(stored.get("settings") or {}).items()
                       if k not in skipped}
    settings_after = {k: v for k, v in dict(recomputed.get("settings") or {}).items()
                      if k not in skipped}
    lines = _settings_changes(settings_before, settings_after)
    lines.extend(_card_changes(stored.get("headline") or [], recomputed.get("headline") or []))
    paths = [path for key in dict.fromkeys((*stored, *recomputed))
             if key not in NOT_COMPARED and key not in skipped
             for path in _differing(stored.get(key), recomputed.get(key), key)]
    if paths:
        named = "; ".join(paths[:MAX_PATHS])
        more = f" and {len(paths) - MAX_PATHS} more" if len(paths) > MAX_PATHS else ""
        lines.append(f"{len(paths)} stored values differ beyond the headline: {named}{more}")
    return tuple(lines)


def _card_changes(before: Sequence[Mapping[str, Any]],
                  after: Sequence[Mapping[str, Any]]) -> list[str]:
    cards_before = {str(card.get("label")): card for card in before}
    cards_after = {str(card.get("label")): card for card in after}
    lines = []
    for label in dict.fromkeys((*cards_before, *cards_after)):
        was, now = cards_before.get(label), cards_after.get(label)
        if was is None or now is None:
            side, card = ("recomputed", now) if was is None else ("stored", was)
            lines.append(f"{label}: only in the {side} result ({(card or {}).get('shown')})")
        elif was.get("shown") != now.get("shown"):
            lines.append(f"{label} was {was['shown']}, now {now['shown']}")
        elif not _same(was.get("value"), now.get("value")):
            lines.append(f"{label} {now['shown']}, differs beyond the digits shown")
    return lines


def _differing(before: Any, after: Any, path: str) -> Iterator[str]:
    """Paths of the leaves that differ (a leaf on one side only differs too)."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in dict.fromkeys((*before, *after)):
            if key != "inputs":  # what the files were read as (a pilot's, an analysis'): no result
                yield from _differing(before.get(key), after.get(key), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (a, b) in enumerate(zip(before, after, strict=True)):
            yield from _differing(a, b, f"{path}[{index}]")
    elif not _same(before, after):
        yield f"{path} was {_short(before)}, now {_short(after)}"


# ---- the Compare page's reports ---------------------------------------------------------------

MAX_SEGMENT_LINES = 5
"""Changed segment rows named one by one; more are counted."""

# (what, how to show it, the keys of `ComparisonResult.row` it is made of) for the headline
# numbers of a metric
_HEADLINE: tuple[tuple[str, Callable[[ComparisonResult], str],
                       tuple[str, ...]], ...] = (
    ("paired queries", lambda r: f"{r.n_queries:,}", ("n_queries",)),
    ("mean of A", lambda r: f"{r.mean_a:.4f}", ("mean_a",)),
    ("mean of B", lambda r: f"{r.mean_b:.4f}", ("mean_b",)),
    ("B \u2212 A", lambda r: format_delta(r.delta), ("delta",)),
    ("interval of B \u2212 A", lambda r: f"{format_interval(r.interval.low, r.interval.high)} "
                                          f"({r.interval.method})",
     ("ci_low", "ci_high", "interval")),
    ("p", lambda r: format_p(r.p_value), ("p_value",)),
    ("p (t-test)", lambda r: format_p(r.t_test.p_value), ("t_p_value",)),
    ("q across metrics", lambda r: "none" if r.q_value is None else format_p(r.q_value),
     ("q_value",)),
    ("wins / ties / losses of B",
     lambda r: f"{r.outcomes.wins:,} / {r.outcomes.ties:,} / {r.outcomes.losses:,}",
     ("wins", "ties", "losses")),
)


def report_changes(stored: Report | Mapping[str, Any],
                   recomputed: Report | Mapping[str, Any]) -> tuple[str, ...]:
    """Every difference between two Compare reports, in words (empty: none); each report is a
    `Report` or its serialised form (`Report.to_dict`, as a share link stores it).

    Numbers are compared exactly; a number that differs only beyond the digits the page shows
    is still named (with "beyond the digits shown"), since the page's downloads carry every
    digit. Reports of several candidates are compared candidate by candidate (each line names
    the candidate), then the family-adjusted p of every pair.
    """
    stored, recomputed = _report(stored), _report(recomputed)
    lines = list(_settings_changes(stored.params, recomputed.params))
    if stored.several or recomputed.several:
        lines.extend(_several_changes(stored, recomputed))
    else:
        lines.extend(_pair_changes(stored, recomputed))
    lines.extend(health_changes(stored.health, recomputed.health))
    lines.extend(_list_changes("warning", stored.warnings, recomputed.warnings))
    return tuple(lines)


def _report(report: Report | Mapping[str, Any]) -> Report:
    return report if isinstance(report, Report) else Report.from_dict(report)


def _pair_changes(stored: Report, recomputed: Report) -> list[str]:
    """Differences of two two-run reports: per metric, then the coverage notes."""
    lines: list[str] = []
    names = recomputed.pair_names
    for metric in dict.fromkeys((*stored.metrics, *recomputed.metrics)):
        if metric not in recomputed.metrics:
            lines.append(f"{metric}: only in the stored report")
            continue
        if metric not in stored.metrics:
            lines.append(f"{metric}: only in the recomputed report")
            continue
        lines.extend(_metric_changes(stored.comparison(metric), recomputed.comparison(metric),
                                     names))
        lines.extend(_per_query_changes(metric, stored.per_query.get(metric, {}),
                                        recomputed.per_query.get(metric, {})))
        lines.extend(f"{metric}: {line}"
                     for line in _coverage_changes(metric, stored.coverage,
                                                   recomputed.coverage))
    if stored.coverage is not None and recomputed.coverage is not None:
        lines.extend(_list_changes("coverage note", stored.coverage.notes,
                                   recomputed.coverage.notes))
    return lines


def _several_changes(stored: Report, recomputed: Report) -> list[str]:
    """Differences of reports of several candidates: each candidate's two-run view against
    the baseline, then the adjusted p of every pair of each metric's family."""
    if len(stored.run_names) != len(recomputed.run_names):
        return [f"runs: {len(stored.run_names)} in the stored report, "
                f"{len(recomputed.run_names)} recomputed"]
    lines: list[str] = []
    for j in recomputed.candidates:
        name = recomputed.run_names[j]
        lines.extend(f"{name}: {line}" for line in _pair_changes(
            stored.candidate_report(j), recomputed.candidate_report(j)))
    for metric in recomputed.metrics:
        before, after = stored.family(metric), recomputed.family(metric)
        if before is None or after is None:
            continue
        if (before.family, before.method) != (after.family, after.method):
            lines.append(f"{metric}: the family was {before.family} by {before.method}, now "
                         f"{after.family} by {after.method}")
            continue
        was = {(row.a, row.b): row.adjusted_p for row in before.pairs}
        for row in after.pairs:
            old = was.get((row.a, row.b))
            if old is None or _same(old, row.adjusted_p):
                continue
            pair = f"{recomputed.run_names[row.b]} against {recomputed.run_names[row.a]}"
            shown_was, shown_now = format_p(old), format_p(row.adjusted_p)
            lines.append(f"{metric}: adjusted p of {pair} {shown_now}, differs beyond the "
                         "digits shown" if shown_was == shown_now else
                         f"{metric}: adjusted p of {pair} was {shown_was}, now {shown_now}")
    return lines


def _metric_changes(before: MetricComparison, after: MetricComparison,
                    names: tuple[str, str]) -> list[str]:
    metric = after.metric
    lines = []
    said_before, said_after = conclusion(before, names), conclusion(after, names)
    if said_before != said_after:
        lines.append(f"{metric}: the verdict was \u201c{said_before}\u201d, now "
                     f"\u201c{said_after}\u201d")
    lines.extend(f"{metric}: {line}" for line in _result_changes(before.overall, after.overall))
    lines.extend(f"{metric}: {line}" for line in _segment_changes(before, after))
    return lines


def _result_changes(before: ComparisonResult, after: ComparisonResult) -> list[str]:
    lines = []
    row_before, row_after = before.row(), after.row()
    for what, shown, fields in _HEADLINE:
        if all(_same(row_before[f], row_after[f]) for f in fields):
            continue
        was, now = shown(before), shown(after)
        if was == now:
            lines.append(f"{what} {now}, differs beyond the digits shown")
        else:
            lines.append(f"{what} was {was}, now {now}")
    return lines


def _segment_changes(before: MetricComparison, after: MetricComparison) -> list[str]:
    if before.segment_column != after.segment_column:
        return [f"segments by {before.segment_column!r} in the stored report, by "
                f"{after.segment_column!r} recomputed"]
    rows_before = {row.segment: row for row in before.segments}
    rows_after = {row.segment: row for row in after.segments}
    lines = [f"segment {name!r} only in the stored report"
             for name in rows_before if name not in rows_after]
    lines += [f"segment {name!r} only in the recomputed report"
              for name in rows_after if name not in rows_before]
    changed = [(name, rows_before[name], rows_after[name]) for name in rows_after
               if name in rows_before and not _same_row(rows_before[name], rows_after[name])]
    for name, was, now in changed[:MAX_SEGMENT_LINES]:
        lines.append(f"segment {name!r}: {_row_words(was)}, now {_row_words(now)}")
    if len(changed) > MAX_SEGMENT_LINES:
        lines.append(f"{len(changed) - MAX_SEGMENT_LINES} more segment rows differ")
    return lines


def _same_row(before: SegmentRow, after: SegmentRow) -> bool:
    if before.n_queries != after.n_queries or before.note != after.note:
        return False
    if before.result is None or after.result is None:
        return before.result is after.result
    row_before, row_after = before.result.row(), after.result.row()
    return all(_same(row_before[f], row_after[f]) for _, _, fields in _HEADLINE for f in fields)


def _row_words(row: SegmentRow) -> str:
    result = row.result
    if result is None:
        return f"{row.n_queries:,} queries, not compared" + (f" ({row.note})" if row.note
                                                             else "")
    q = "" if result.q_value is None else f", q {format_p(result.q_value)}"
    return (f"B \u2212 A {format_delta(result.delta)}, interval "
            f"{format_interval(result.interval.low, result.interval.high)}, "
            f"p {format_p(result.p_value)}"
            f"{q} on {row.n_queries:,} queries")


def _per_query_changes(metric: str, before: Mapping[str, Mapping[str, float]],
                       after: Mapping[str, Mapping[str, float]]) -> list[str]:
    """Whether the scores themselves changed (not only the statistics on them)."""
    lines = []
    for side in ("a", "b"):
        was, now = before.get(side, {}), after.get(side, {})
        queries = set(was) | set(now)
        differ = sum(1 for q in queries if q not in was or q not in now
                     or not _same(was[q], now[q]))
        if differ:
            lines.append(f"{metric}: per-query values of {side.upper()} differ on {differ:,} "
                         f"of {len(queries):,} queries (the scoring changed, not only the "
                         "statistics)")
    return lines


def _coverage_changes(metric: str, before: Coverage | None,
                      after: Coverage | None) -> list[str]:
    """What differs in one metric's judgement coverage: the banner, judged@k of each run, the
    guardrail's shift, flagged segments, per-query judged@k and the robustness view."""
    was = None if before is None else before.metric(metric)
    now = None if after is None else after.metric(metric)
    if was is None and now is None:
        return []
    if before is None or after is None or was is None or now is None:
        where = "stored" if now is None else "recomputed"
        return [f"judgement coverage only in the {where} report"]
    lines = []
    if was.alert != now.alert:
        lines.append(f"the coverage banner (unjudged documents could change the verdict) was "
                     f"{_raised(was.alert)}, now {_raised(now.alert)}")
    if was.min_gap != now.min_gap:
        lines.append(f"the guardrail's smallest judged@k gap was {100 * was.min_gap:g} points, "
                     f"now {100 * now.min_gap:g} points")
    if was.depth != now.depth:
        lines.append(f"coverage measured as {was.judged_metric}, now as {now.judged_metric}")
    if was.guarded != now.guarded:
        lines.append(f"the coverage guardrail {'applied' if was.guarded else 'did not apply'}, "
                     f"now it {'applies' if now.guarded else 'does not apply'}")
    lines.extend(_coverage_row_changes(now.judged_metric, was.overall, now.overall))
    flagged_was = [row.segment for row in was.flagged_segments]
    flagged_now = [row.segment for row in now.flagged_segments]
    if flagged_was != flagged_now:
        lines.append(f"segments whose verdict coverage could change were "
                     f"{_names(flagged_was)}, now {_names(flagged_now)}")
    for key in ("judged_a", "judged_b"):
        values_was, values_now = was.per_query.get(key, {}), now.per_query.get(key, {})
        queries = set(values_was) | set(values_now)
        differ = sum(1 for q in queries if q not in values_was or q not in values_now
                     or not _same(values_was[q], values_now[q]))
        if differ:
            lines.append(f"per-query {now.judged_metric} of {key[-1].upper()} differs on "
                         f"{differ:,} of {len(queries):,} queries")
    lines.extend(_robustness_changes(before, after, metric))
    return lines


def _coverage_row_changes(judged: str, before: CoverageRow, after: CoverageRow) -> list[str]:
    lines = []
    for what, field, shown in (
            (f"{judged} of A", "judged_a", _share), (f"{judged} of B", "judged_b", _share),
            ("judged share of A's retrieved documents", "coverage_a", _share),
            ("judged share of B's retrieved documents", "coverage_b", _share),
            ("the guardrail's shift of B \u2212 A", "shift", format_delta),
            ("RBP residual of A", "residual_a", _residual),
            ("RBP residual of B", "residual_b", _residual)):
        old, new = getattr(before, field), getattr(after, field)
        if _same(old, new):
            continue
        if shown(old) == shown(new):
            lines.append(f"{what} {shown(new)}, differs beyond the digits shown")
        else:
            lines.append(f"{what} was {shown(old)}, now {shown(new)}")
    return lines


def _robustness_changes(before: Coverage, after: Coverage, metric: str) -> list[str]:
    rows_was = {t.treatment: t for t in before.robustness.get(metric, ())}
    rows_now = {t.treatment: t for t in after.robustness.get(metric, ())}
    lines = []
    for treatment in dict.fromkeys((*rows_was, *rows_now)):
        name = TREATMENT_SHORT.get(treatment, treatment)
        if treatment not in rows_now or treatment not in rows_was:
            where = "stored" if treatment not in rows_now else "recomputed"
            lines.append(f"unjudged documents three ways: {name} only in the {where} report")
            continue
        lines.extend(f"unjudged documents three ways, {name}: {line}" for line in
                     _result_changes(rows_was[treatment].result, rows_now[treatment].result))
    return lines


def _raised(alert: bool) -> str:
    return "raised" if alert else "not raised"


def _names(segments: Sequence[str]) -> str:
    return ", ".join(repr(s) for s in segments) if segments else "none"


def _share(value: float | None) -> str:
    return "none" if value is None else f"{100 * value:.1f}%"


def _residual(value: float | None) -> str:
    return "none" if value is None else f"+{value:.4f}"


def _list_changes(what: str, before: Sequence[str], after: Sequence[str]) -> list[str]:
    gone = [f"{what} no longer given: {item}" for item in before if item not in after]
    new = [f"new {what}: {item}" for item in after if item not in before]
    return gone + new


# ---- shared ----------------------------------------------------------------------------------

def _settings_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for key in dict.fromkeys((*before, *after)):
        if key not in before:
            lines.append(f"setting {key}: not in the stored settings (a newer setting), "
                         f"recomputed with {after[key]!r}")
        elif key not in after:
            lines.append(f"setting {key}: {before[key]!r} in the stored settings, unknown to "
                         "this version")
        elif not _same(before[key], after[key]):
            lines.append(f"setting {key}: was {before[key]!r}, now {after[key]!r}")
    return lines


def _same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN (a p-value of too few queries is NaN in both)."""
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return bool(a == b)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
