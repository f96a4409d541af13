"""End to end with ranklens.io: TREC text -> read_run / read_qrels -> evaluate == trec_eval."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

from ranklens.io import read_qrels, read_run
from ranklens.metrics import evaluate


def test_trec_files_read_by_ranklens_io_match_pytrec_eval():
    rng = np.random.default_rng(42)
    run_lines, qrels_lines = [], []
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in range(200):
        query = f"q{q:03d}"
        docs = rng.choice(300, size=int(rng.integers(1, 120)), replace=False)
        scores = np.round(rng.normal(size=len(docs)), 1)  # many ties
        for rank, (d, s) in enumerate(sorted(zip(docs, scores, strict=True), key=lambda x: -x[1])):
            run_lines.append(f"{query} Q0 doc{d} {rank + 1} {s} tag")
            run.setdefault(query, {})[f"doc{d}"] = float(s)
        for d in rng.choice(300, size=40, replace=False):
            grade = int(rng.choice([0, 0, 0, 1, 2, 3]))
            qrels_lines.append(f"{query} 0 doc{d} {grade}")
            qrels.setdefault(query, {})[f"doc{d}"] = grade
    read = read_run(("\n".join(run_lines) + "\n").encode(), name="run.trec").run
    judged = read_qrels(("\n".join(qrels_lines) + "\n").encode(), name="qrels.trec").qrels
    names = {"nDCG@10": "ndcg_cut_10", "AP": "map", "P@5": "P_5", "RR": "recip_rank",
             "R@100": "recall_100", "R-Prec": "Rprec", "nDCG": "ndcg"}
    evaluation = evaluate(read, judged, list(names))
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, {"ndcg_cut.10", "map", "P.5", "recip_rank", "recall.100", "Rprec", "ndcg"}
    ).evaluate(run)
    for name, trec_name in names.items():
        got = evaluation[name].per_query
        assert set(got) == set(expected)
        for query, values in expected.items():
            assert got[query] == pytest.approx(values[trec_name], abs=1e-9), (name, query)
