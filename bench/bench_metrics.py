"""One run -> per-query NDCG@10, parsing included: ranklens vs pytrec_eval (and ranx).

    .venv/bin/python bench/bench_metrics.py [--data bench/data/big] [--ranx] [--repeat 1]

Make the standard big case first (7,000 queries x 1,000 docs):

    .venv/bin/python ../shared/bench/make_data.py bench/data/big --queries 7000 --depth 1000

Each tool runs in its own subprocess, so each peak RSS is its own. Printed: wall time (parse
included), peak RSS, the mean NDCG@10, the ratio of pytrec_eval's time to ranklens', and
whether the means agree. ranx is slow on the big case (minutes): it runs only with ``--ranx``.

ranklens reads with ``ranklens.io.read_run`` / ``read_qrels`` (format detection, validation,
duplicate checks included), then ``ranklens.metrics.evaluate``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds() -> float:
    """User + system CPU time of this process: less sensitive than wall time to other load."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def worker_ranklens(run_path: pathlib.Path, qrels_path: pathlib.Path) -> dict:
    from ranklens.io import read_qrels, read_run
    from ranklens.metrics import evaluate

    start, start_cpu = time.perf_counter(), cpu_seconds()
    run = read_run(run_path).run
    qrels = read_qrels(qrels_path).qrels
    parsed = time.perf_counter()
    result = evaluate(run, qrels, ["ndcg@10"])["nDCG@10"]
    done = time.perf_counter()
    return {"seconds": done - start, "work_cpu_seconds": cpu_seconds() - start_cpu,
            "parse_seconds": parsed - start,
            "metric_seconds": done - parsed, "mean": result.mean,
            "queries": result.n_queries}


def worker_pytrec_eval(run_path: pathlib.Path, qrels_path: pathlib.Path) -> dict:
    import pytrec_eval

    start, start_cpu = time.perf_counter(), cpu_seconds()
    qrels: dict[str, dict[str, int]] = {}
    with open(qrels_path) as lines:
        for line in lines:
            query, _, doc, grade = line.split()
            qrels.setdefault(query, {})[doc] = int(grade)
    run: dict[str, dict[str, float]] = {}
    with open(run_path) as lines:
        for line in lines:
            query, _, doc, _, score, _ = line.split()
            run.setdefault(query, {})[doc] = float(score)
    parsed = time.perf_counter()
    values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    done = time.perf_counter()
    mean = sum(v["ndcg_cut_10"] for v in values.values()) / len(values)
    return {"seconds": done - start, "work_cpu_seconds": cpu_seconds() - start_cpu,
            "parse_seconds": parsed - start,
            "metric_seconds": done - parsed, "mean": mean, "queries": len(values)}


def worker_ranx(run_path: pathlib.Path, qrels_path: pathlib.Path) -> dict:
    from ranx import Qrels as RanxQrels
    from ranx import Run as RanxRun
    from ranx import evaluate as ranx_evaluate

    start, start_cpu = time.perf_counter(), cpu_seconds()
    qrels = RanxQrels.from_file(str(qrels_path), kind="trec")
    run = RanxRun.from_file(str(run_path), kind="trec")
    parsed = time.perf_counter()
    mean = float(ranx_evaluate(qrels, run, "ndcg@10"))
    done = time.perf_counter()
    return {"seconds": done - start, "work_cpu_seconds": cpu_seconds() - start_cpu,
            "parse_seconds": parsed - start,
            "metric_seconds": done - parsed, "mean": mean, "queries": len(run)}


def run_worker(tool: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, __file__, "--worker", tool, "--data", str(args.data),
               "--run-file", args.run_file]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode:
        raise SystemExit(f"{tool} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=pathlib.Path, default=ROOT / "bench" / "data" / "big")
    parser.add_argument("--run-file", default="run_a.trec")
    parser.add_argument("--ranx", action="store_true", help="also time ranx (slow)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of ranklens; the fastest is reported")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    run_path, qrels_path = args.data / args.run_file, args.data / "qrels.trec"

    if args.worker:
        if args.worker == "ranklens":
            out = worker_ranklens(run_path, qrels_path)
        elif args.worker == "pytrec_eval":
            out = worker_pytrec_eval(run_path, qrels_path)
        else:
            out = worker_ranx(run_path, qrels_path)
        out["peak_rss_mb"] = peak_rss_mb()
        out["cpu_seconds"] = cpu_seconds()
        print(json.dumps(out))
        return

    if not run_path.exists():
        raise SystemExit(f"{run_path} is missing; see the docstring to generate it")
    tools = ["ranklens", "pytrec_eval"]
    tools += ["ranx"] if args.ranx else []
    results = {}
    for tool in tools:
        repeat = args.repeat if tool == "ranklens" else 1
        results[tool] = min((run_worker(tool, args) for _ in range(repeat)),
                            key=lambda r: r["seconds"])
    print(f"data: {run_path} ({run_path.stat().st_size / 1e6:.0f} MB), {qrels_path.name}; "
          f"metric: NDCG@10 per query, parse included")
    print(f"{'tool':12s} {'total s':>8s} {'parse s':>8s} {'metric s':>9s} {'work CPU s':>11s} "
          f"{'process CPU s':>14s} {'peak RSS MB':>12s} {'queries':>8s} {'mean':>12s}")
    for tool, r in results.items():
        print(f"{tool:12s} {r['seconds']:8.2f} {r['parse_seconds']:8.2f} "
              f"{r['metric_seconds']:9.2f} {r['work_cpu_seconds']:11.2f} {r['cpu_seconds']:14.2f} "
              f"{r['peak_rss_mb']:12.0f} {r['queries']:8d} {r['mean']:12.9f}")
    print(f"(total/parse/metric: wall seconds after imports; work CPU: CPU seconds of parse + "
          f"metric, all threads; process CPU adds interpreter start and imports; load average "
          f"now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    reference = results["pytrec_eval"]
    ratio = reference["seconds"] / results["ranklens"]["seconds"]
    cpu_ratio = reference["work_cpu_seconds"] / results["ranklens"]["work_cpu_seconds"]
    agree = abs(results["ranklens"]["mean"] - reference["mean"]) <= 1e-9
    print(f"ranklens is {ratio:.1f}x faster than pytrec_eval (wall), {cpu_ratio:.1f}x in work CPU; "
          f"means agree (1e-9): {agree}")
    if "ranx" in results:
        ratio = results["ranx"]["seconds"] / results["ranklens"]["seconds"]
        diff = results["ranx"]["mean"] - reference["mean"]
        print(f"ranx / ranklens: {ratio:.1f}x; ranx mean - trec_eval mean = {diff:+.3g} "
              f"(ranx breaks score ties by insertion order)")


if __name__ == "__main__":
    main()
