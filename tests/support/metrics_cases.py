"""Random runs and qrels shaped to hit trec_eval's corner cases."""

from __future__ import annotations

import numpy as np

# ids chosen so that byte order, length and case disagree with "natural" order
DOC_POOL = ["d1", "d10", "d2", "D3", "d30", "a", "b0", "zz", "doc-7", "é1", "e1", "x_9", "10", "9"]


def random_case(seed: int, *, max_queries: int = 6, ties: bool = True):
    """A (run, qrels) pair of ``{query: {doc: value}}`` dicts.

    Scores come from a tiny set when ``ties`` (many ties); grades run from -1 to 3; some
    queries exist only in the run or only in the qrels; some rankings hold one document;
    some queries have no relevant document.
    """
    rng = np.random.default_rng(seed)
    n_queries = int(rng.integers(1, max_queries + 1))
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for i in range(n_queries):
        query = f"q{i}"
        side = rng.choice(["both", "both", "both", "run", "qrels"])
        if side in ("both", "run"):
            depth = 1 if rng.random() < 0.15 else int(rng.integers(1, len(DOC_POOL) + 1))
            docs = rng.choice(DOC_POOL, size=depth, replace=False)
            if ties:
                scores = rng.integers(0, 3, size=depth) / 2.0 - 0.5
            else:
                scores = rng.permutation(depth) + rng.random(depth) / 10
            run[query] = {str(d): float(s) for d, s in zip(docs, scores, strict=True)}
        if side in ("both", "qrels"):
            n_judged = int(rng.integers(1, len(DOC_POOL) + 1))
            docs = rng.choice(DOC_POOL, size=n_judged, replace=False)
            if rng.random() < 0.2:  # nothing relevant
                grades = rng.integers(-1, 1, size=n_judged)
            else:
                grades = rng.choice([-1, 0, 0, 1, 2, 3], size=n_judged)
            if (grades < 0).all():
                # trec_eval 9.0.8 (pytrec_eval) can loop forever on a query whose judgements
                # are all negative (stale relevance levels from the previous query)
                grades[0] = 0
            qrels[query] = {str(d): int(g) for d, g in zip(docs, grades, strict=True)}
    if not qrels:
        qrels["q_only"] = {"d1": 1}
    if not run:
        run["r_only"] = {"d1": 1.0}
    return run, qrels





