"""Tie-averaged metrics against trec_eval's tie rule, on one run with many ties.

    python bench/bench_ties.py [--queries 7000] [--depth 1000] [--decimals 1]

Builds a synthetic run in memory (scores rounded to ``--decimals``, so ties are everywhere, as
with BM25 or quantised scores) and graded judgements for 100 documents a query, then times
``evaluate`` of nDCG@10, AP, RR, P@10 with ``ties="trec_eval"`` (the peer: the default path)
and ``ties="average"``, and ``cutoff_ties(run, 10)``. Prints CPU seconds (less sensitive to a
shared machine than wall time), the ratio, and how much the tie rule moves the means.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from ranklens.data import Qrels, Run
from ranklens.metrics import cutoff_ties, evaluate

METRICS = ["nDCG@10", "AP", "RR", "P@10"]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def synthetic(queries: int, depth: int, decimals: int, seed: int = 30) -> tuple[Run, Qrels]:
    rng = np.random.default_rng(seed)
    query_ids = np.repeat(np.array([f"q{k:05d}" for k in range(queries)], dtype=object), depth)
    docs = rng.integers(0, 10 * depth, size=(queries, depth))
    docs = np.sort(docs, axis=1)
    docs[:, 1:] += np.cumsum(docs[:, 1:] == docs[:, :-1], axis=1)  # distinct per query
    doc_ids = np.char.add("d", docs.ravel().astype(str)).astype(object)
    scores = np.round(rng.random(queries * depth) * 10, decimals)
    run = Run.from_columns(query_ids, doc_ids, scores, name="synthetic")
    judged = depth // 10
    picks = rng.permuted(np.tile(np.arange(depth), (queries, 1)), axis=1)[:, :judged]
    qrels_docs = np.take_along_axis(docs, picks, axis=1)
    qrels = Qrels.from_columns(
        np.repeat(np.array([f"q{k:05d}" for k in range(queries)], dtype=object), judged),
        np.char.add("d", qrels_docs.ravel().astype(str)).astype(object),
        rng.choice(4, size=queries * judged, p=[0.6, 0.2, 0.12, 0.08]))
    return run, qrels


def timed(function, *args, **kwargs):  # type: ignore[no-untyped-def]
    start = cpu_seconds()
    result = function(*args, **kwargs)
    return result, cpu_seconds() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--decimals", type=int, default=1)
    args = parser.parse_args()
    wall = time.perf_counter()
    run, qrels = synthetic(args.queries, args.depth, args.decimals)
    print(f"run: {len(run):,} rows, {args.queries:,} queries, scores to {args.decimals} "
          f"decimal(s) (built in {time.perf_counter() - wall:.1f} s)")
    evaluate(run, qrels, ["P@1"])  # warm-up: first-use imports are nobody's cost
    plain, plain_s = timed(evaluate, run, qrels, METRICS)
    averaged, averaged_s = timed(evaluate, run, qrels, METRICS, ties="average")
    ties, ties_s = timed(cutoff_ties, run, 10)
    print(f"evaluate ties=trec_eval  {plain_s:6.2f} s CPU   (peer: the default path)")
    print(f"evaluate ties=average    {averaged_s:6.2f} s CPU   ratio average / trec_eval = "
          f"{averaged_s / plain_s:.2f}x")
    print(f"cutoff_ties(run, 10)     {ties_s:6.2f} s CPU   {ties.describe()}")
    for metric in METRICS:
        a, b = plain[metric].mean, averaged[metric].mean
        print(f"  mean {metric:8s} trec_eval {a:.4f}   average {b:.4f}   difference "
              f"{b - a:+.4f}")


if __name__ == "__main__":
    main()
