"""How fast is ``ranklens evaluate`` as a whole process, next to its peers, in the same run?

    .venv/bin/python bench/bench_trec_eval.py [DATA] [--trec-eval PATH] [--repeat 3]

DATA defaults to bench/data/big (``python ../shared/bench/make_data.py bench/data/big``: 7,000
queries x 1,000 documents; ``qrels.trec`` and ``run_a.trec`` are read). Each contender is one
fresh process timed from start to exit (interpreter start and imports included), output sent
to /dev/null:

- ``ranklens evaluate -q -m ndcg_cut.10 QRELS RUN`` (and ``-m all_trec``, whose ratio to the
  first is printed too);
- pytrec_eval: parse the run and qrels with its own parsers, evaluate ``ndcg_cut.10``, print
  the per-query lines;
- the floor: a process that only imports pyarrow and reads the run with ``pyarrow.csv``;
- trec_eval (``--trec-eval PATH``, e.g. 10.0 built with -O3), when a binary is given.

Then, in one process, ``ranklens.io.read_run`` against pyarrow's bare parse of the same file.
Times are the best of ``--repeat`` (wall and CPU = user + system of the child, all threads);
ratios are of the best wall times, and of CPU times (steadier on a shared machine). Not a
test: run on demand, on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "big"

PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
out = [f"{'ndcg_cut_10':<22}\\t{q}\\t{v['ndcg_cut_10']:.4f}" for q, v in sorted(values.items())]
sys.stdout.write("\\n".join(out) + "\\n")
"""
FLOOR = """
import sys, pyarrow.csv as pacsv
pacsv.read_csv(sys.argv[2], read_options=pacsv.ReadOptions(
    column_names=["qid", "q0", "docid", "rank", "score", "tag"]),
    parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False))
"""
IN_PROCESS = """
import sys, time, resource
import pyarrow.csv as pacsv
from ranklens.io import read_run
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
def bare(path):
    return pacsv.read_csv(path, read_options=pacsv.ReadOptions(
        column_names=["qid", "q0", "docid", "rank", "score", "tag"]),
        parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False))
best = {}
for _ in range(int(sys.argv[2])):
    for name, read in (("pyarrow bare parse", bare), ("ranklens.io.read_run", read_run)):
        c, t = cpu(), time.perf_counter()
        read(sys.argv[1])
        wall, used = time.perf_counter() - t, cpu() - c
        old = best.get(name, (1e9, 1e9))
        best[name] = (min(old[0], wall), min(old[1], used))
for name, (wall, used) in best.items():
    print(f"{name}\\t{wall}\\t{used}")
"""


def timed(command: list[str], repeat: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``command`` over ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--trec-eval", metavar="PATH", help="a trec_eval binary to time too")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    qrels, run = str(args.data / "qrels.trec"), str(args.data / "run_a.trec")
    python = sys.executable
    ranklens = [python, "-m", "ranklens.cli", "evaluate", "-q"]
    contenders = {
        "ranklens evaluate -q -m ndcg_cut.10": [*ranklens, "-m", "ndcg_cut.10", qrels, run],
        "ranklens evaluate -q -m all_trec": [*ranklens, "-m", "all_trec", qrels, run],
        "pytrec_eval parse + evaluate": [python, "-c", PYTREC, qrels, run],
        "pyarrow-only floor process": [python, "-c", FLOOR, qrels, run],
    }
    if args.trec_eval:
        contenders["trec_eval -q -m ndcg_cut.10"] = [args.trec_eval, "-q", "-m", "ndcg_cut.10",
                                                     qrels, run]
    env_note = f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    print(f"{args.data} ({env_note}), best of {args.repeat}")
    times = {}
    for name, command in contenders.items():
        times[name] = timed(command, args.repeat)
        print(f"  {name:<40} {times[name][0]:7.2f} s wall {times[name][1]:7.2f} s CPU")
    ours = times["ranklens evaluate -q -m ndcg_cut.10"]

    def ratio(name: str) -> str:
        peer = times[name]
        return f"{peer[0] / ours[0]:.2f}x wall, {peer[1] / ours[1]:.2f}x CPU"

    print("ranklens evaluate -q -m ndcg_cut.10 is faster than:")
    print(f"  pytrec_eval by {ratio('pytrec_eval parse + evaluate')} (target >= 6x)")
    if args.trec_eval:
        print(f"  trec_eval by {ratio('trec_eval -q -m ndcg_cut.10')} (target >= 4x)")
    floor = times["pyarrow-only floor process"]
    print(f"  and takes {ours[0] / floor[0]:.2f}x wall, {ours[1] / floor[1]:.2f}x CPU of the "
          "pyarrow-only floor (target <= 2x)")
    full = times["ranklens evaluate -q -m all_trec"]
    print(f"-m all_trec takes {full[0] / ours[0]:.2f}x wall, {full[1] / ours[1]:.2f}x CPU of "
          "-m ndcg_cut.10 (target <= 2x)")
    done = subprocess.run([python, "-c", IN_PROCESS, run, str(args.repeat)],
                          capture_output=True, text=True, check=True)
    reads = {line.split("\t")[0]: (float(line.split("\t")[1]), float(line.split("\t")[2]))
             for line in done.stdout.splitlines()}
    bare, ours_read = reads["pyarrow bare parse"], reads["ranklens.io.read_run"]
    print(f"in process: read_run {ours_read[0]:.2f} s wall {ours_read[1]:.2f} s CPU, pyarrow's "
          f"bare parse {bare[0]:.2f} s wall {bare[1]:.2f} s CPU: {ours_read[0] / bare[0]:.2f}x "
          f"wall, {ours_read[1] / bare[1]:.2f}x CPU (target <= 1.3x)")


if __name__ == "__main__":
    main()
