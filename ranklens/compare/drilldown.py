"""A comparison report with what issue 30 adds to it: query texts, the sentence beside the
verdict when ties decide it, and the moves behind the queries B lost and won most.

``with_drilldown(report, inputs, settings, texts)`` is the one place the CLI, the page and a
share link's recomputation add them, so all three say the same. The tie sentence is computed
for every two-run report on scored runs (one more scoring under the other tie rule); the moves
only when texts are given (they are what a ranker reading the queries and documents looks at).
"""

from __future__ import annotations

import dataclasses

from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.query_lines import explained_moves
from ranklens.compare.query_texts import Texts, with_texts
from ranklens.compare.report import Report
from ranklens.compare.tie_reading import tie_notes


def with_drilldown(report: Report, inputs: LoadedInputs, settings: CompareSettings,
                   texts: Texts | None = None) -> Report:
    """``report`` with query texts (when ``texts`` has them), tie notes and, with texts, the
    moves of the queries B lost and won most."""
    if texts is not None:
        report = with_texts(report, texts)
    notes = tie_notes(inputs, settings, report)
    moves = ({} if texts is None or (texts.queries is None and texts.documents is None)
             else explained_moves(inputs, settings, report, texts))
    if notes or moves:
        report = dataclasses.replace(report, tie_notes=notes, query_moves=moves)
    return report


__all__ = ["with_drilldown"]
