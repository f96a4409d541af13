"""How sure the cheap judge was of each label: a judge-confidence table for a labelling plan.

`read_judge_confidence` answers "how far may each proxy grade lie from the gold one", per
(query, document), from a table (CSV/TSV with a header, Parquet, JSON Lines; it may be the
proxy qrels themselves) with ``query_id``, ``doc_id`` and one of:

- ``confidence`` (``probability``, ``p``): the judge's probability of its label, in [0.5, 1]
  (a label as likely as its alternative is no information): the grade's spread is taken as
  ``2 (1 - confidence)`` grade levels, 0 for a sure label, 1 for a coin toss;
- ``spread`` (``judge_sd``, ``sd``): the spread of several judges' grades, in grade levels.

Values outside their range, and a (query, document) listed twice, are `InputError`s naming the
line. It reads; it does not decide how the plan uses it (``ranklens.ppi.labelling``).
"""

from __future__ import annotations

import numpy as np

from ranklens.io.detect import sniff
from ranklens.io.errors import InputError
from ranklens.io.source import Loaded, Source, load
from ranklens.io.tables import read_table

CONFIDENCE_ALIASES = ("confidence", "probability", "p", "label_probability")
SPREAD_ALIASES = ("spread", "judge_sd", "sd", "judges_sd")


def read_judge_confidence(source: Source, *, name: str | None = None,
                          max_bytes: int | None = None) -> dict[tuple[str, str], float]:
    """(query_id, doc_id) -> the spread of the judge's grade, in grade levels (see the
    module)."""
    loaded: Loaded = load(source, name=name, max_bytes=max_bytes)
    table = read_table(loaded, sniff(loaded), roles=("query_id", "doc_id"),
                       optional=("confidence", "spread"), what="judge confidence",
                       aliases={"confidence": CONFIDENCE_ALIASES, "spread": SPREAD_ALIASES})
    if ("confidence" in table.columns) == ("spread" in table.columns):
        raise InputError(loaded.name, "needs one column saying how sure the judge was: "
                         "'confidence' (the label's probability) or 'spread' (several "
                         f"judges' grade spread); columns: {', '.join(table.all_names)}",
                         hint="rename the column, or keep only one of the two")
    kind = "confidence" if "confidence" in table.columns else "spread"
    values = table.columns[kind].to_numpy(zero_copy_only=False).astype(np.float64)
    low, high = (0.5, 1.0) if kind == "confidence" else (0.0, np.inf)
    bad = np.flatnonzero(~np.isfinite(values) | (values < low) | (values > high))
    if bad.size:
        row = int(bad[0])
        raise InputError(loaded.name,
                         f"{kind} {float(values[row]):g} is outside [{low:g}, {high:g}]",
                         line=table.locate([row])[0],
                         hint="a confidence is the label's probability, 0.5 to 1; a spread "
                              "is a standard deviation in grade levels, 0 or more")
    spreads = 2.0 * (1.0 - values) if kind == "confidence" else values
    queries = table.columns["query_id"].to_pylist()
    docs = table.columns["doc_id"].to_pylist()
    found: dict[tuple[str, str], float] = {}
    for row, key in enumerate(zip(queries, docs, strict=True)):
        if key in found:
            raise InputError(loaded.name, f"query {key[0]!r}, document {key[1]!r} is listed "
                             "twice", line=table.locate([row])[0], hint="keep one row per label")
        found[key] = float(spreads[row])
    return found


__all__ = ["CONFIDENCE_ALIASES", "SPREAD_ALIASES", "read_judge_confidence"]
