"""How fast is ``ranklens evaluate`` as a whole process, next to its peers, in the same run?

    .venv/bin/python bench/bench_trec_eval.py [DATA] [--trec-eval PATH] [--repeat 3]

DATA defaults to bench/data/big (``python ../shared/bench/make_data.py bench/data/big``: 7,000
queries x 1,000 documents; ``qrels.trec`` and ``run_a.trec`` are read). Each contender is one
fresh process timed from start to exit (interpreter start and imports included), output sent
to /dev/null, the contenders taking turns in each round (a drifting machine load hits them
alike), the order rotated by one each round: on a VM whose host takes freed memory back, the
process after a memory-hungry one (pytrec_eval) pays for its page faults several times over
(the floor process: 0.63 s alone, 1.4-2.3 s right after pytrec_eval), so no contender always
follows the same one:

- ``ranklens evaluate -q -m ndcg_cut.10 QRELS RUN`` (and ``-m all_trec``, whose ratio to the
  first is printed too);
- pytrec_eval: parse the run and qrels with its own parsers, evaluate ``ndcg_cut.10``, print
  the per-query lines;
- the floor: a process that only imports pyarrow and reads the run with ``pyarrow.csv``;
- trec_eval ``-q -m ndcg_cut.10`` (e.g. 10.0 built with -O3), when a binary is given by
  ``--trec-eval PATH`` or the ``TREC_EVAL`` environment variable.

Then, in one process, ``ranklens.io.read_run`` against pyarrow's bare parse of the same file,
and where one ``ranklens evaluate -q -m ndcg_cut.10`` spends its time (imports, reading the run,
reading the qrels, ranking and measures, the lines), wall and CPU per phase.

Times are the best of ``--repeat`` (wall and CPU = user + system of the child, all threads);
ratios are of the best wall times, and of CPU times (steadier on a shared machine). Python
children run with bytecode caches (in a temporary ``PYTHONPYCACHEPREFIX``, warmed by a first
run that is not counted), as an installed package has them, even when the calling shell sets
``PYTHONDONTWRITEBYTECODE``. Not a test: run on demand, on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
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


PHASES = """
import sys, time
wall0, cpu0 = time.perf_counter(), time.process_time()
from ranklens.cli.evaluate import COMMAND  # what `ranklens evaluate` imports
from ranklens import io
from ranklens.metrics.trec_eval import plan_measures
from ranklens.metrics.trec_lines import TrecOptions, trec_eval_output
marks = [("imports", time.perf_counter(), time.process_time())]
run, summary = io.read_run(sys.argv[2])
marks.append(("read_run", time.perf_counter(), time.process_time()))
qrels, _ = io.read_qrels(sys.argv[1])
marks.append(("read_qrels", time.perf_counter(), time.process_time()))
output = trec_eval_output(run, qrels, plan_measures(["ndcg_cut.10"]),
                          TrecOptions(per_query=True),
                          run_tag=summary.run_tag)
marks.append(("ranking + measures + lines", time.perf_counter(), time.process_time()))
with open("/dev/null", "w") as sink:
    sink.write(output.text)
marks.append(("write", time.perf_counter(), time.process_time()))
wall, cpu = wall0, cpu0
for name, w, c in marks:
    print(f"{name}\t{w - wall}\t{c - cpu}")
    wall, cpu = w, c
"""


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, all threads) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def child_environment(cache: str) -> dict[str, str]:
    """This environment, with bytecode caches written to and read from ``cache``."""
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--trec-eval", metavar="PATH", default=os.environ.get("TREC_EVAL"),
                        help="a trec_eval binary to time too (default: $TREC_EVAL)")
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
    with tempfile.TemporaryDirectory(prefix="bench-pycache-") as cache:
        env = child_environment(cache)
        subprocess.run([*ranklens, "-m", "ndcg_cut.10", qrels, run], stdout=subprocess.DEVNULL,
                       check=True, env=env)  # writes the bytecode caches (not counted)
        print(f"{args.data} ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the "
              f"start), best of {args.repeat}")
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
        names = list(contenders)
        for round_ in range(args.repeat):
            turn = round_ % len(names)
            for name in names[turn:] + names[:turn]:
                runs[name].append(timed(contenders[name], env))
        times = {name: (min(w for w, _ in done), min(c for _, c in done))
                 for name, done in runs.items()}
        for name, (wall, cpu) in times.items():
            print(f"  {name:<40} {wall:7.2f} s wall {cpu:7.2f} s CPU")
        done = subprocess.run([python, "-c", IN_PROCESS, run, str(args.repeat)],
                              capture_output=True, text=True, check=True, env=env)
        phases = subprocess.run([python, "-c", PHASES, qrels, run], capture_output=True,
                                text=True, check=True, env=env)
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    ours = times["ranklens evaluate -q -m ndcg_cut.10"]

    def faster(name: str) -> str:
        peer = times[name]
        return f"{peer[0] / ours[0]:.2f}x wall, {peer[1] / ours[1]:.2f}x CPU"

    print("ranklens evaluate -q -m ndcg_cut.10 is faster than:")
    print(f"  pytrec_eval by {faster('pytrec_eval parse + evaluate')} (target >= 6x)")
    if args.trec_eval:
        print(f"  trec_eval by {faster('trec_eval -q -m ndcg_cut.10')} (target >= 4x)")
    floor = times["pyarrow-only floor process"]
    print(f"  and takes {ours[0] / floor[0]:.2f}x wall, {ours[1] / floor[1]:.2f}x CPU of the "
          "pyarrow-only floor (target <= 2x)")
    pytrec = times["pytrec_eval parse + evaluate"]
    print(f"  (the floor itself is {pytrec[0] / floor[0]:.2f}x wall, {pytrec[1] / floor[1]:.2f}x "
          "CPU faster than pytrec_eval" + (
              f", {times['trec_eval -q -m ndcg_cut.10'][0] / floor[0]:.2f}x wall, "
              f"{times['trec_eval -q -m ndcg_cut.10'][1] / floor[1]:.2f}x CPU than trec_eval"
              if args.trec_eval else "") + ")")
    full = times["ranklens evaluate -q -m all_trec"]
    print(f"-m all_trec takes {full[0] / ours[0]:.2f}x wall, {full[1] / ours[1]:.2f}x CPU of "
          "-m ndcg_cut.10 (target <= 2x)")
    reads = {line.split("\t")[0]: (float(line.split("\t")[1]), float(line.split("\t")[2]))
             for line in done.stdout.splitlines()}
    bare, ours_read = reads["pyarrow bare parse"], reads["ranklens.io.read_run"]
    print(f"in process: read_run {ours_read[0]:.2f} s wall {ours_read[1]:.2f} s CPU, pyarrow's "
          f"bare parse {bare[0]:.2f} s wall {bare[1]:.2f} s CPU: {ours_read[0] / bare[0]:.2f}x "
          f"wall, {ours_read[1] / bare[1]:.2f}x CPU (target <= 1.3x)")
    print("where one ranklens evaluate -q -m ndcg_cut.10 spends its time (one run, in process):")
    for line in phases.stdout.splitlines():
        name, wall, cpu = line.split("\t")
        print(f"  {name:<30} {float(wall):6.2f} s wall {float(cpu):6.2f} s CPU")


if __name__ == "__main__":
    main()
