"""Measure stdlib codecs on TREC-like text, to choose the share-link store's compression.

Run: ``.venv/bin/python bench/store_compression.py [n_queries] [depth]``.
The text is synthetic (no real runs ship with the repo): MS MARCO-like numeric doc ids,
scores with six decimals, 1000 documents per query by default, and a qrels file with a
few graded judgements per query.
"""

from __future__ import annotations

import lzma
import random
import sys
import time
import zlib
from collections.abc import Callable


def trec_run(n_queries: int, depth: int, tag: str, seed: int) -> bytes:
    rng = random.Random(seed)
    lines = []
    for q in range(n_queries):
        qid = 1_000_000 + q * 37
        score = rng.uniform(20.0, 40.0)
        for rank in range(1, depth + 1):
            score -= rng.expovariate(1 / 0.02)
            lines.append(f"{qid} Q0 {rng.randrange(8_841_823)} {rank} {score:.6f} {tag}\n")
    return "".join(lines).encode()


def trec_qrels(n_queries: int, per_query: int, seed: int) -> bytes:
    rng = random.Random(seed)
    lines = []
    for q in range(n_queries):
        qid = 1_000_000 + q * 37
        for _ in range(per_query):
            lines.append(f"{qid} 0 {rng.randrange(8_841_823)} {rng.choice((0, 1, 1, 2, 3))}\n")
    return "".join(lines).encode()


CODECS: dict[str, tuple[Callable[[bytes], bytes], Callable[[bytes], bytes]]] = {
    "zlib-1": (lambda b: zlib.compress(b, 1), zlib.decompress),
    "zlib-6": (lambda b: zlib.compress(b, 6), zlib.decompress),
    "zlib-9": (lambda b: zlib.compress(b, 9), zlib.decompress),
    "lzma-0": (lambda b: lzma.compress(b, preset=0), lzma.decompress),
    "lzma-1": (lambda b: lzma.compress(b, preset=1), lzma.decompress),
    "lzma-6": (lambda b: lzma.compress(b, preset=6), lzma.decompress),
}


def main() -> None:
    n_queries = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    samples = {
        "run": trec_run(n_queries, depth, "bm25", seed=1),
        "qrels": trec_qrels(n_queries * 10, 20, seed=2),
    }
    print(f"{'input':6} {'codec':7} {'raw MB':>8} {'stored MB':>9} {'ratio':>6} "
          f"{'comp MB/s':>9} {'decomp MB/s':>11}")
    for name, raw in samples.items():
        mb = len(raw) / 1e6
        for codec, (compress, decompress) in CODECS.items():
            t0 = time.perf_counter()
            packed = compress(raw)
            t1 = time.perf_counter()
            assert decompress(packed) == raw
            t2 = time.perf_counter()
            print(f"{name:6} {codec:7} {mb:8.1f} {len(packed) / 1e6:9.2f} "
                  f"{len(raw) / len(packed):6.2f} {mb / (t1 - t0):9.1f} {mb / (t2 - t1):11.1f}")


if __name__ == "__main__":
    main()
