"""Fixtures of the health-check tests: small runs cut from the demo (30 queries, top 20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranklens.compare.analysis import CompareSettings

DATA = Path(__file__).parent / "data"
FAST = CompareSettings(n_resamples=200, n_permutations=200)
"""Few resamples: these tests read the health section, not the intervals."""


@pytest.fixture(scope="session")
def data() -> Path:
    """bm25.trec, neural.trec (TREC runs), neural_upper.trec (the same, ids upper-cased),
    pyterrier_bm25.csv / pyterrier_neural.csv (the same rankings as PyTerrier writes them:
    qid, docid, docno, rank, score, query) and qrels.trec."""
    return DATA
