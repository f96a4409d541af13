"""Helpers shared by the report store tests (plain module: conftest names can collide)."""

from __future__ import annotations

import random


class FakeClock:
    """UNIX seconds that move only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def trec_run_bytes(n_queries: int, depth: int, seed: int, tag: str = "run") -> bytes:
    """A TREC run file (qid Q0 docid rank score tag) with random doc ids and scores."""
    rng = random.Random(seed)
    lines = []
    for q in range(n_queries):
        score = 30.0
        for rank in range(1, depth + 1):
            score -= rng.random() / 10
            lines.append(f"q{q} Q0 d{rng.randrange(10**7)} {rank} {score:.5f} {tag}\n")
    return "".join(lines).encode()
