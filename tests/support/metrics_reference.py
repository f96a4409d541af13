"""Independent, straightforward references for the tests: plain Python loops per query.

The order is trec_eval's: score descending, then document id descending by bytes.
"""

from __future__ import annotations

import math


def trec_order(docs: dict[str, float]) -> list[str]:
    return [d for d, _ in sorted(docs.items(), key=lambda x: (x[1], x[0].encode()), reverse=True)]


def truncate(run: dict[str, dict[str, float]], k: int) -> dict[str, dict[str, float]]:
    return {q: {d: docs[d] for d in trec_order(docs)[:k]} for q, docs in run.items()}


def ndcg(ranking: list[str], judged: dict[str, int], k: int | None, gain: str) -> float:
    def g(grade: int) -> float:
        if grade <= 0:
            return 0.0
        return float(grade) if gain == "linear" else 2.0 ** grade - 1.0

    top = ranking if k is None else ranking[:k]
    dcg = sum(g(judged.get(d, 0)) / math.log2(i + 2) for i, d in enumerate(top))
    ideal = sorted((g(r) for r in judged.values()), reverse=True)
    ideal = ideal if k is None else ideal[:k]
    idcg = sum(x / math.log2(i + 2) for i, x in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def unjudged_at(ranking: list[str], judged: dict[str, int], k: int) -> float:
    """trec_eval 10's unj_k (m_unjudged.c): documents of the top k that are not in the qrels
    or have a negative grade, over k; positions past the end of the ranking are not counted."""
    return sum(1 for d in ranking[:k] if judged.get(d, -1) < 0) / k


def judged_at(ranking: list[str], judged: dict[str, int], k: int) -> float:
    return (k - sum(1 for d in ranking[:k] if judged.get(d, -1) < 0)) / k


def rbo_ext(a: list[str], b: list[str], p: float) -> float:
    """Webber et al. (2010), eq. 32: extrapolated RBO of two tie-free lists (lengths may
    differ), written as the paper states it, one depth at a time."""
    short, longer = (a, b) if len(a) <= len(b) else (b, a)
    s, n = len(short), len(longer)
    if s == 0:
        return 0.0

    def overlap(d: int) -> int:
        return len(set(short[:d]) & set(longer[:d]))

    x = {d: overlap(d) for d in range(1, n + 1)}
    total = sum(x[d] / d * p ** d for d in range(1, n + 1))
    total += sum(x[s] * (d - s) / (s * d) * p ** d for d in range(s + 1, n + 1))
    return (1 - p) / p * total + ((x[n] - x[s]) / n + x[s] / s) * p ** n
