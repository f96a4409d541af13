"""The judge check as tables and sentences: one source for the PPI page, its HTML and the CLI.

Each ``*_table`` answers one question about the judge (``ranklens.ppi.judge.JudgeCheck``) as a
data frame of display strings and numbers; ``judge_lines`` is the CLI's text. Nothing here
computes a statistic or draws.
"""

from __future__ import annotations

import textwrap

import pandas as pd

from ranklens.formats import DASH, format_delta, format_interval, format_p, plain_table
from ranklens.ppi.judge import JudgeCheck, SegmentJudge, kappa_text
from ranklens.stats import MIN_GOLD

JUDGE_TITLE = "The judge, checked on the gold queries"
KAPPA_MEANING = (
    "Weighted Cohen's kappa: agreement of proxy and gold grades beyond chance (1 = always "
    "the same grade, 0 = no better than chance); linear weights count a grade two steps off "
    "twice, quadratic four times. Intervals resample gold queries, not documents (a query's "
    "documents are judged together)."
)


def _level(check: JudgeCheck) -> str:
    agreement = check.agreement
    level = 0.95 if agreement is None else agreement.kappa_linear.interval.level
    return f"{100 * level:.4g}%"


def confusion_table(check: JudgeCheck) -> pd.DataFrame:
    """Documents by gold grade (rows) and proxy grade (columns): ``gold grade`` then one
    column per proxy grade ("proxy 0", ...) and ``documents``. Empty without agreement."""
    agreement = check.agreement
    if agreement is None:
        return pd.DataFrame()
    confusion = agreement.confusion
    labels = [f"{g:g}" for g in confusion.grades]
    frame = pd.DataFrame(confusion.counts, columns=[f"proxy {g}" for g in labels])
    frame.insert(0, "gold grade", labels)
    frame["documents"] = confusion.counts.sum(axis=1)
    return frame


def kappa_table(check: JudgeCheck) -> pd.DataFrame:
    """Linear- and quadratic-weighted kappa with their intervals (rows ``weights``,
    ``kappa``, ``interval``, and the numbers ``estimate``, ``low``, ``high``, ``level``)."""
    agreement = check.agreement
    if agreement is None:
        return pd.DataFrame()
    rows = []
    for name, item in (("linear", agreement.kappa_linear),
                       ("quadratic", agreement.kappa_quadratic)):
        interval = item.interval
        rows.append({"weights": name, "kappa": kappa_text(item.estimate),
                     "interval": f"{kappa_text(interval.low)} to {kappa_text(interval.high)}",
                     "estimate": item.estimate, "low": interval.low, "high": interval.high,
                     "level": interval.level})
    return pd.DataFrame(rows)


# what the side of the proxy - gold interval says of the judge (`Interval.reading`)
_READS = {"above": "judge grades higher", "below": "judge grades lower",
          "around": "no clear offset"}


def grade_bias_table(check: JudgeCheck) -> pd.DataFrame:
    """Mean proxy - gold grade per gold grade, with its interval and counts."""
    agreement = check.agreement
    if agreement is None:
        return pd.DataFrame()
    rows = [{"gold grade": f"{b.grade:g}", "documents": b.n_documents, "queries": b.n_queries,
             "proxy \u2212 gold": format_delta(b.mean_difference.estimate, 2),
             "interval": format_interval(b.mean_difference.interval.low,
                                         b.mean_difference.interval.high, 2),
             "reads": _READS[b.mean_difference.interval.reading]}
            for b in agreement.bias_by_grade]
    return pd.DataFrame(rows)


def segment_table(check: JudgeCheck) -> pd.DataFrame:
    """One row per segment: queries, gold queries, the proxy's bias on B - A with its
    interval, and PPI++ (difference, interval, p) or why it was refused."""
    rows = [_segment_row(row) for row in check.segments]
    return pd.DataFrame(rows, columns=list(SEGMENT_COLUMNS))


SEGMENT_COLUMNS = ("segment", "queries", "gold queries", "bias of B \u2212 A", "bias interval",
                   "PPI++ B \u2212 A", "PPI++ interval", "PPI++ p", "note")


def _segment_row(row: SegmentJudge) -> dict[str, object]:
    bias, ppi = row.bias, row.ppi
    return {
        "segment": row.segment, "queries": row.n_queries, "gold queries": row.n_gold,
        "bias of B \u2212 A": DASH if bias is None else format_delta(bias.estimate),
        "bias interval": DASH if bias is None else format_interval(bias.interval.low,
                                                                   bias.interval.high),
        "PPI++ B \u2212 A": DASH if ppi is None else format_delta(ppi.delta),
        "PPI++ interval": DASH if ppi is None else format_interval(ppi.ci_low, ppi.ci_high),
        "PPI++ p": DASH if ppi is None else format_p(ppi.p_value),
        "note": _short_note(row),
    }


def _short_note(row: SegmentJudge) -> str:
    """The table's note: why a number is missing, short enough to show whole in the page's
    table at 1400 px (the gold queries column says how many there are; the reason, and the
    level of MIN_GOLD, are `REFUSAL_REASON`, the caption below the table)."""
    parts = []
    if row.bias is None:
        parts.append("bias: 2 gold needed")
    if row.ppi is None:
        parts.append(f"PPI++: {row.gold_needed} more gold needed")
    return "; ".join(parts)


REFUSAL_REASON = (
    f"PPI++ is computed for a segment from {MIN_GOLD} gold queries (MIN_GOLD): with fewer, the "
    "correction's weight and interval rest on a gold\u2013proxy covariance estimated too noisily "
    "to rely on. The bias interval is a paired t-interval over the segment's gold queries."
)


def agreement_sentence(check: JudgeCheck) -> str:
    """The judge's agreement in one sentence (or why there is none)."""
    agreement = check.agreement
    if agreement is None:
        return " ".join(check.notes) or "No document is graded by both judgements."
    linear, quadratic = agreement.kappa_linear, agreement.kappa_quadratic
    level = _level(check)
    return (f"On {check.n_documents:,} documents of {agreement.n_queries:,} gold queries "
            f"graded by both, the judge's linear-weighted kappa is "
            f"{kappa_text(linear.estimate)} ({level} interval "
            f"{kappa_text(linear.interval.low)} to {kappa_text(linear.interval.high)}), "
            f"quadratic-weighted {kappa_text(quadratic.estimate)} "
            f"({kappa_text(quadratic.interval.low)} to {kappa_text(quadratic.interval.high)}).")


def segments_sentence(check: JudgeCheck) -> str:
    """How many segments got PPI++ and how many were refused (empty without segments)."""
    if not check.segments:
        return ""
    done = [row for row in check.segments if row.ppi is not None]
    refused = [row for row in check.segments if row.ppi is None]
    text = (f"Per segment of {check.segment_column}: PPI++ for {len(done)} of "
            f"{len(check.segments)} segments (at least {check.min_gold} gold queries each)")
    if refused:
        needed = sum(row.gold_needed for row in refused)
        text += (f"; refused for {len(refused)}, which together would need {needed:,} more "
                 "gold queries (a random sample within each segment)")
    return text + "."


def judge_lines(check: JudgeCheck, width: int = 100) -> list[str]:
    """The judge check as text lines (``ranklens ppi``)."""
    out = [JUDGE_TITLE, ""]
    out += textwrap.wrap(agreement_sentence(check), width)
    out.append("")
    for title, table in (("Documents by gold grade (rows) and proxy grade (columns):",
                          confusion_table(check)),
                         ("Mean proxy \u2212 gold grade per gold grade:",
                          grade_bias_table(check)),
                         ("Weighted kappa:", kappa_table(check)[["weights", "kappa",
                                                                 "interval"]]
                          if check.agreement is not None else pd.DataFrame())):
        if table.empty:
            continue
        out.append(title)
        out += plain_table(list(table.columns), table.astype(str).values.tolist(),
                           set(range(1, len(table.columns))))
        out.append("")
    if check.segments:
        out += textwrap.wrap(segments_sentence(check), width)
        table = segment_table(check)
        shown = [c for c in table.columns if c != "note"]
        out += plain_table(shown, table[shown].astype(str).values.tolist(),
                           set(range(1, len(shown))))
        for row in check.segments:
            if row.ppi is None:
                out += textwrap.wrap(f"{row.segment}: {row.note}.", width,
                                     initial_indent="  - ", subsequent_indent="    ")
        out.append("")
    for note in check.notes if check.agreement is not None else ():
        out += textwrap.wrap(note, width, initial_indent="Note: ")
    return out
