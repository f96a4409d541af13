"""What the health checks cost per run, against the metric they guard (nDCG@10 of the run).

    .venv/bin/python bench/bench_health.py [--data bench/data/big] [--repeat 3]

Make the standard big case first (7,000 queries x 1,000 docs):

    .venv/bin/python ../shared/bench/make_data.py bench/data/big --queries 7000 --depth 1000

Reads run_a and the qrels once, then times, on the same run and judgements, the health
checks' counting (``ranklens.health.checks.run_facts``: document ids against the judgements,
with a fold search when few match, and self-retrieval) and ``ranklens.metrics.evaluate`` for
nDCG@10 alone. Prints the best of ``--repeat`` for each and their ratio.
"""

from __future__ import annotations

import argparse
import pathlib
import time
from collections.abc import Callable

from ranklens.health.checks import run_facts
from ranklens.io import read_qrels, read_run
from ranklens.metrics import evaluate

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best(seconds: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        seconds()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=pathlib.Path, default=ROOT / "bench" / "data" / "big")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    run, _ = read_run(args.data / "run_a.trec")
    qrels, _ = read_qrels(args.data / "qrels.trec")
    facts = best(lambda: run_facts(run, qrels), args.repeat)
    metric = best(lambda: evaluate(run, qrels, ["nDCG@10"]), args.repeat)
    print(f"{len(run):,} rows, {len(qrels):,} judgements")
    print(f"health checks' counting: {facts:.2f} s; nDCG@10: {metric:.2f} s; "
          f"ratio {facts / metric:.2f}")


if __name__ == "__main__":
    main()
