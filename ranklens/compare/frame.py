"""A Report as a pandas DataFrame: ``Report.to_frame()``.

Answers "every number of the report in one table": one row per candidate x metric x segment
(the overall row first), with the baseline and candidate named, the means, the difference, its
interval, p, the t-test's p, q, wins/ties/losses and judged@k of both runs. The rows and
columns are the CSV export's (``ranklens.compare.text.render_csv``), read back with their
types, so the frame and the CSV can never disagree; a two-run report gets the ``baseline`` and
``candidate`` columns too.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from ranklens.compare.report import Report

TEXT_COLUMNS = ("baseline", "candidate", "metric", "segment_column", "segment", "interval",
                "note", "answer")
"""Columns of names and words (``answer``: which question a seeds report's row answers);
every other column but ``significant`` holds numbers."""


def report_frame(report: Report) -> pd.DataFrame:
    """The report's rows (see the module docstring); empty cells are NaN (numbers) or ""."""
    import pandas as pd

    from ranklens.compare.csv_report import render_csv

    frame = pd.read_csv(io.StringIO(render_csv(report)), dtype=str, keep_default_na=False)
    if not report.several and "candidate" not in frame:  # a seeds CSV names both already
        name_a, name_b = report.pair_names
        frame.insert(0, "candidate", name_b)
        frame.insert(0, "baseline", name_a)
    for column in frame.columns:
        if column == "significant":
            frame[column] = frame[column].map({"True": True, "False": False, "": pd.NA})
        elif column not in TEXT_COLUMNS:
            frame[column] = pd.to_numeric(frame[column].replace("", None), errors="coerce")
    return frame
