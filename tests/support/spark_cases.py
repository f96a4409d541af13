"""Hostile ranking data for the Spark engine tests, as Python rows and as files."""

from __future__ import annotations

from pathlib import Path

import numpy as np

# byte order, length and case disagree with "natural" order; ids that look like numbers
DOCS = ["d1", "d10", "d2", "D3", "d30", "a", "b0", "zz", "doc-7", "é1", "e1", "x_9", "10", "9",
        "007", "7"]
METRICS = ["nDCG@10", "nDCG", "nDCG(gain=exp)@5", "AP", "AP@5", "P@5", "P(rel=2)@3", "R@10",
           "RR", "RR@3", "R-Prec", "Success@3", "Judged@5", "Unjudged@10"]

Rows = list[tuple[str, str, float]]


def hostile_case(seed: int, n_cases: int = 60) -> tuple[Rows, Rows]:
    """(run rows, qrels rows): many small queries with ties, negative grades, queries on one
    side only, single-document rankings, queries with nothing relevant, ids like ``007``."""
    rng = np.random.default_rng(seed)
    run: Rows = []
    qrels: Rows = []
    for case in range(n_cases):
        query = f"{case:03d}"  # "000", "007": ids that must stay strings
        side = rng.choice(["both", "both", "both", "run", "qrels"])
        if side in ("both", "run"):
            depth = 1 if rng.random() < 0.15 else int(rng.integers(1, len(DOCS) + 1))
            docs = rng.choice(DOCS, size=depth, replace=False)
            scores = rng.integers(0, 3, size=depth) / 2.0 - 0.5  # few values: many ties
            run += [(query, str(d), float(s)) for d, s in zip(docs, scores, strict=True)]
        if side in ("both", "qrels"):
            judged = int(rng.integers(1, len(DOCS) + 1))
            docs = rng.choice(DOCS, size=judged, replace=False)
            grades = rng.integers(-1, 1, size=judged) if rng.random() < 0.2 else \
                rng.choice([-1, 0, 0, 1, 2, 3], size=judged)
            if (grades < 0).all():
                grades[0] = 0
            qrels += [(query, str(d), float(g)) for d, g in zip(docs, grades, strict=True)]
    return run, qrels


def write_trec_run(path: Path, rows: Rows) -> Path:
    """A TREC run with mixed tabs and spaces (fields split on any run of blanks)."""
    lines = [f"{q}\tQ0  {d} {i + 1}\t{s!r} tag" for i, (q, d, s) in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_trec_qrels(path: Path, rows: Rows) -> Path:
    lines = [f"{q} 0 {d} {int(g)}" for q, d, g in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
