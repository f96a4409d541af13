"""trec_eval 10.0's measure kernels against direct computations, one query at a time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.data import Qrels, Run
from ranklens.metrics import trec_measures as tm
from ranklens.metrics.trec_ranking import segment_cumsum, trec_ranking


def _case(seed: int, scale: int = 1) -> tuple[Run, Qrels, dict[str, list[int]]]:
    """A run, qrels, and each query's labels in trec_eval order (-1 nonpool, -2 unjudged);
    the grades times ``scale``."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows, labels = [], [], {}
    for q in range(12):
        query = f"q{q:02d}"
        docs = [f"d{i}" for i in rng.choice(60, size=int(rng.integers(1, 40)), replace=False)]
        scores = rng.choice([1.0, 2.0, 3.0, 0.5], size=len(docs))
        grades = {f"d{i}": scale * int(rng.choice([-1, 0, 0, 1, 2, 3]))
                  for i in rng.choice(60, size=25, replace=False)}
        grades[f"d{60 + q}"] = scale  # something relevant in every query
        run_rows += [(query, d, s) for d, s in zip(docs, scores, strict=True)]
        qrels_rows += [(query, d, g) for d, g in grades.items()]
        order = sorted(zip(docs, scores, strict=True), key=lambda x: (x[1], x[0].encode()),
                       reverse=True)
        labels[query] = [grades[d] if grades.get(d, -1) >= 0 else (-2 if d in grades else -1)
                         for d, _ in order]
    run = Run.from_columns(*zip(*run_rows, strict=True))
    qrels = Qrels.from_columns(*zip(*qrels_rows, strict=True))
    return run, qrels, labels


@pytest.mark.parametrize("scale", [1, 1000, 70_000, 2**40])
def test_the_ranking_holds_each_judged_documents_grade_in_trec_eval_order(scale):
    """Grades well beyond int8 survive the compact labels of the 7M-row pass."""
    run, qrels, labels = _case(5, scale)
    r = trec_ranking(run, qrels)
    for i, q in enumerate(r.query_ids):
        rows = slice(int(r.starts[i]), int(r.starts[i + 1]))
        judged = [(k, label) for k, label in enumerate(labels[q]) if label != -1]
        assert r.position[rows].tolist() == [k for k, _ in judged]
        assert r.labels[rows].tolist() == [label for _, label in judged]


@pytest.mark.parametrize("seed", range(4))
def test_rbp_and_its_residual_are_the_sums_they_define(seed):
    run, qrels, labels = _case(seed)
    r = trec_ranking(run, qrels)
    p = 0.9
    top: dict[str, int] = {}
    grades: dict[str, list[int]] = {}
    for q, _d, g in zip(qrels.queries.take(qrels.query_codes).to_pylist(),
                       qrels.docs.take(qrels.doc_codes).to_pylist(), qrels.relevance.tolist(),
                       strict=True):
        grades.setdefault(q, []).append(g)
    for i, q in enumerate(r.query_ids):
        top[q] = max(g for g in grades[q] if g >= 0)
        scale = top[q] if top[q] > 1 else 1
        want = (1 - p) * sum(max(label, 0) / scale * p ** k
                             for k, label in enumerate(labels[q]))
        assert tm.rbp(r, p)[0][i] == pytest.approx(want, abs=1e-12)
        unknown = [k for k, label in enumerate(labels[q]) if label < 0]
        resid = p ** len(labels[q]) + (1 - p) * sum(p ** k for k in unknown) if unknown else 0
        assert tm.rbp_residual(r, p)[0][i] == pytest.approx(resid, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_iprec_at_recall_is_the_highest_precision_at_or_below_each_recall_point(seed):
    run, qrels, labels = _case(seed)
    r = trec_ranking(run, qrels)
    levels = [0.0, 0.3, 0.5, 1.0]
    values = tm.iprec_at_recall(r, levels)
    for i, q in enumerate(r.query_ids):
        rel = [label >= 1 for label in labels[q]]
        num_rel = int(r.num_rel[i])
        precisions = [sum(rel[:k + 1]) / (k + 1) for k in range(len(rel))]
        for j, level in enumerate(levels):
            n = int(np.floor(level * num_rel + 0.5))
            if n > sum(rel):
                want = 0.0
            else:
                at = [k for k, x in enumerate(rel) if x][max(n, 1) - 1] if any(rel) else None
                want = max(precisions[at:]) if at is not None else 0.0
            assert values[j][i] == pytest.approx(want, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(-1e6, 1e6), min_size=0, max_size=70), min_size=1,
                max_size=12))
def test_segment_cumsum_adds_row_after_row_exactly(blocks):
    values = np.array([v for block in blocks for v in block], dtype=np.float64)
    starts = np.concatenate(([0], np.cumsum([len(b) for b in blocks]))).astype(np.int64)
    got = segment_cumsum(values, starts)
    want = []
    for block in blocks:
        total = 0.0
        for v in block:
            total += v
            want.append(total)
    assert got.tolist() == want
