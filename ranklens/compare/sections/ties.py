"""The tie sentence of one metric: a `Banner` beside its verdict when the other tie rule reads
it otherwise.

Answers "would trec_eval's tie rule and tie-averaging draw this verdict differently?"
(``ranklens.compare.tie_reading`` computed it into ``Report.tie_notes``). None without one,
and under "No verdict" (the health checks withhold every reading).
"""

from __future__ import annotations

from ranklens.compare.report import Report
from ranklens.document.blocks import Banner
from ranklens.health import check_words as health_words


def tie_note(report: Report, metric: str) -> str | None:
    """The sentence saying the verdict on ``metric`` reads otherwise under the other tie rule
    (`ranklens.compare.tie_reading`), for every face beside the verdict; None without one, and
    under "No verdict" (the health checks withhold every reading)."""
    if metric not in report.tie_notes or health_words.withholds(report.health):
        return None
    return report.tie_notes[metric]


def tie_banner(report: Report, metric: str) -> Banner | None:
    """`tie_note` of ``metric`` as a banner beside its verdict; None without one."""
    note = tie_note(report, metric)
    return None if note is None else Banner("ties", note)
