"""How fast does ranklens.io read a big TREC run, next to its peers, in the same session?

    .venv/bin/python bench/bench_io.py [RUN] [--repeat 3]

RUN defaults to bench/data/big/run_a.trec (7M rows, 247 MB), made by
``python ../shared/bench/make_data.py bench/data/big --queries 7000 --depth 1000``.
Each reader runs in its own fresh subprocess (imports done before the clock starts), which
reports its wall time, its CPU time (user + system, all threads) and its own peak RSS
(``ru_maxrss``, imports included). Times are the best of ``--repeat`` runs; the ratio is the
peer's best wall time over ranklens.io's.
Not a test: run on demand, on a quiet machine (other processes skew both columns).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

DEFAULT_RUN = Path(__file__).resolve().parent / "data" / "big" / "run_a.trec"

_CHILD = """
import json, resource, sys, time
path = sys.argv[1]
{setup}
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
cpu_start, start = cpu(), time.perf_counter()
rows = read(path)
seconds, cpu_seconds = time.perf_counter() - start, cpu() - cpu_start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "cpu": cpu_seconds, "rows": rows, "peak_mb": peak}}))
"""

READERS = {
    "ranklens.io.read_run": """
from ranklens.io import read_run
def read(path):
    run, summary = read_run(path)
    return len(run)
""",
    "ranklens.io.read_run(unique_docs=True)": """
from ranklens.io import read_run
def read(path):
    run, summary = read_run(path, unique_docs=True)
    return len(run)
""",
    "pyarrow.csv.read_csv (plain)": """
import pyarrow.csv as pacsv
def read(path):
    table = pacsv.read_csv(path, read_options=pacsv.ReadOptions(
        column_names=["qid", "q0", "docid", "rank", "score", "tag"]),
        parse_options=pacsv.ParseOptions(delimiter=" "))
    return table.num_rows
""",
    "pytrec_eval.parse_run": """
import pytrec_eval
def read(path):
    with open(path) as handle:
        run = pytrec_eval.parse_run(handle)
    return sum(len(docs) for docs in run.values())
""",
}
SLOW = {"pytrec_eval.parse_run"}  # measured once: ~10 s and gigabytes each time


def measure(setup: str, path: Path) -> dict[str, float]:
    code = _CHILD.format(setup=setup)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"reader failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip", action="append", default=[],
                        help="leave out readers whose name contains this text")
    args = parser.parse_args()
    if not args.run.exists():
        raise SystemExit(f"{args.run} not found; make it with ../shared/bench/make_data.py")
    size_mb = args.run.stat().st_size / 1e6
    load = os.getloadavg()[0]
    print(f"file: {args.run} ({size_mb:.0f} MB), cpus: {os.cpu_count()}, "
          f"load average before: {load:.2f}")
    results: dict[str, dict[str, float]] = {}
    for name, setup in READERS.items():
        if any(text in name for text in args.skip):
            continue
        runs = [measure(setup, args.run) for _ in range(1 if name in SLOW else args.repeat)]
        results[name] = {
            "best": min(r["seconds"] for r in runs),
            "median": statistics.median(r["seconds"] for r in runs),
            "cpu": min(r["cpu"] for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs),
            "rows": runs[0]["rows"],
            "n": len(runs),
        }
    ours = results.get("ranklens.io.read_run", {}).get("best")
    print(f"{'reader':40} {'rows':>10} {'best s':>7} {'median s':>8} {'cpu s':>6} "
          f"{'peak MB':>7} {'runs':>4} {'time / ranklens':>15}")
    for name, row in results.items():
        ratio = f"{row['best'] / ours:.2f}x" if ours else "-"
        print(f"{name:40} {int(row['rows']):>10,} {row['best']:>7.3f} {row['median']:>8.3f} "
              f"{row['cpu']:>6.2f} {row['peak_mb']:>7.0f} {int(row['n']):>4} {ratio:>15}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
