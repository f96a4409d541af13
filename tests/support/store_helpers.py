"""Helpers shared by the report store tests (plain module: conftest names can collide)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ranklens.store import ReportStore, SQLiteReportStore


class FakeClock:
    """UNIX seconds that move only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass(frozen=True)
class Backend:
    """One store backend under test and the location of a store of it (file path or URL)."""

    name: str
    location: str

    def open(self, **options: Any) -> ReportStore:
        """A store object on this location (``limits``, ``default_ttl``, ``clock``...)."""
        if self.name == "sqlite":
            return SQLiteReportStore(self.location, **options)
        from ranklens.store.postgres_store import PostgresReportStore

        return PostgresReportStore(self.location, **options)

    def raw_connection(self) -> Any:
        """A DB-API connection straight to the store's database, bypassing the store."""
        if self.name == "sqlite":
            import sqlite3

            return sqlite3.connect(self.location)
        import psycopg

        return psycopg.connect(self.location, autocommit=True)


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
