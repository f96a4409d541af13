"""Benchmark: ``ranklens compare`` end to end on the standard big case, beside pytrec_eval.

The big case: two 7M-row runs (7,000 queries x 1,000 documents), graded qrels and 40 segments
from ``../shared/bench/make_data.py OUTDIR --queries 7000 --depth 1000``; NDCG@10 with
10,000 bootstrap resamples and 10,000 permutations per segment. Target: <= 8 s end to end
(the console script, from start to the report written) on a 2-core machine.

Prints the wall time of the command, its CPU time, the seconds of each stage as the command
itself measured them (``--timings``: read, score, compare, write), and, as the peer in the same
run, pytrec_eval's time to score both runs (parse qrels + runs into dicts, evaluate
ndcg_cut.10) with the ratio to ranklens' read + score. The machine's load average is printed
first: other work on the two cores inflates wall times, not CPU times.

    .venv/bin/python bench/bench_compare.py [--data DIR] [--repeat N] [--skip-peer]

Not a timed test: it prints, it does not assert the target.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / "bench" / "data" / "big"
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"  # shared/ sits beside the clone
FILES = ("run_a.trec", "run_b.trec", "qrels.trec", "segments.tsv")
TARGET_SECONDS = 8.0
CONSOLE_SCRIPT = Path(sys.executable).with_name("ranklens")


def ensure_data(folder: Path) -> None:
    """Generate the big case once (it is git-ignored) unless every file is there."""
    if all((folder / name).exists() for name in FILES):
        return
    print(f"generating the big case into {folder} (takes a while)...", flush=True)
    subprocess.run([sys.executable, str(MAKE_DATA), str(folder), "--queries", "7000",
                    "--depth", "1000"], check=True)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


Stages = dict[str, tuple[float, float]]


def run_ranklens(folder: Path, output: Path) -> tuple[float, float, Stages]:
    """Wall seconds, CPU seconds and the command's own stage timings (wall, CPU) of one run."""
    command = [str(CONSOLE_SCRIPT), "compare", str(folder / "run_a.trec"),
               str(folder / "run_b.trec"), "--qrels", str(folder / "qrels.trec"),
               "--segments", str(folder / "segments.tsv"), "--metric", "ndcg@10",
               "--n-resamples", "10000", "--n-permutations", "10000", "--format", "json",
               "--output", str(output), "--timings"]
    cpu_before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"ranklens compare failed ({done.returncode}): {done.stderr}")
    timings = done.stderr.split("timings:", 1)[1].split(";")[0]
    stages = {name.strip(" ,"): (float(wall_s), float(cpu_s)) for name, wall_s, cpu_s in
              re.findall(r"([a-z ,]+?) ([0-9.]+) s \(CPU ([0-9.]+) s\)", timings)}
    return wall, cpu, stages


def check_report(output: Path) -> str:
    report = json.loads(output.read_text())
    comparison = report["comparisons"][0]
    overall = comparison["overall"]
    return (f"{comparison['metric']}: {overall['n_queries']} queries, "
            f"{len(comparison['segments'])} segments, delta {overall['delta']:+.5f} "
            f"[{overall['ci_low']:+.5f}, {overall['ci_high']:+.5f}], p {overall['p_value']:.5f}")


def read_trec(path: Path, value_field: int, cast: type) -> dict[str, dict[str, object]]:
    """A TREC file as pytrec_eval wants it: {query: {doc: value}} (the usual Python loop)."""
    table: dict[str, dict[str, object]] = {}
    with path.open() as lines:
        for line in lines:
            fields = line.split()
            if fields:
                table.setdefault(fields[0], {})[fields[2]] = cast(fields[value_field])
    return table


def run_pytrec_eval(folder: Path) -> tuple[float, float, float, float]:
    """Wall seconds to parse (qrels + both runs), to evaluate both runs on ndcg_cut.10, in
    all, and the CPU seconds of all that."""
    import pytrec_eval

    start, start_cpu = time.perf_counter(), time.process_time()
    qrels = read_trec(folder / "qrels.trec", 3, int)
    runs = [read_trec(folder / name, 4, float) for name in ("run_a.trec", "run_b.trec")]
    parsed = time.perf_counter()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
    for run in runs:
        evaluator.evaluate(run)
    evaluated = time.perf_counter()
    cpu = time.process_time() - start_cpu
    return parsed - start, evaluated - parsed, evaluated - start, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeat", type=int, default=3, help="ranklens runs (best is kept)")
    parser.add_argument("--skip-peer", action="store_true", help="do not run pytrec_eval")
    args = parser.parse_args()
    ensure_data(args.data)
    output = ROOT / "bench" / "out" / "bench_compare_report.json"
    output.parent.mkdir(parents=True, exist_ok=True)

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    print(f"case: {args.data} (NDCG@10, 40 segments, 10,000 resamples and permutations)")
    results = []
    for attempt in range(1, args.repeat + 1):
        wall, cpu, stages = run_ranklens(args.data, output)
        results.append((wall, cpu, stages))
        parts = ", ".join(f"{name} {w:.2f} s (CPU {c:.2f} s)" for name, (w, c) in stages.items())
        print(f"ranklens compare run {attempt}: wall {wall:.2f} s, CPU {cpu:.2f} s; "
              f"stages: {parts}", flush=True)
    print(f"report: {check_report(output)}")
    wall, cpu, stages = min(results, key=lambda r: r[0])
    verdict = "met" if wall <= TARGET_SECONDS else "MISSED"
    print(f"best end to end: {wall:.2f} s (target <= {TARGET_SECONDS:.0f} s: {verdict})")
    if args.skip_peer:
        return
    scoring = ("reading the inputs", "scoring the runs")
    ranklens_wall = sum(stages[name][0] for name in scoring)
    ranklens_cpu = sum(stages[name][1] for name in scoring)
    parse, evaluate, total, peer_cpu = run_pytrec_eval(args.data)
    print(f"pytrec_eval scoring both runs: parse {parse:.2f} s + evaluate {evaluate:.2f} s "
          f"= {total:.2f} s (CPU {peer_cpu:.2f} s)")
    print(f"ranklens read + score of the same best run (also reads the segments and hashes "
          f"the inputs): {ranklens_wall:.2f} s (CPU {ranklens_cpu:.2f} s); pytrec_eval / "
          f"ranklens = {total / ranklens_wall:.1f}x wall, {peer_cpu / ranklens_cpu:.1f}x CPU")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
