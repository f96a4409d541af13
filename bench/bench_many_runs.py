"""Benchmark: ten candidates of the big case against a baseline through ``ranklens compare``.

The data: the big case of ``../shared/bench/make_data.py`` (7,000 queries x 1,000 documents =
7M rows per run, graded qrels, 40 segments) gives the baseline (run_a) and the first candidate
(run_b); nine more candidates are derived from the baseline's scores, each with noise of its
own and its own small (or no) boost of judged-relevant documents, re-ranked and written in the
same TREC format (7M rows each). Everything lives in a folder of /tmp (default
/tmp/ranklens_bench_many), made once.

Measured: ``ranklens compare BASELINE C1 ... C10 --qrels --segments -m ndcg@10`` (10,000
resamples and permutations per comparison, the family's max-t over 10,000 sign patterns), as
the console script: wall and CPU seconds, the command's own stages (``--timings``) and its peak
resident memory (``ru_maxrss`` of the child). Targets: <= 30 s and <= 2 GB on a 2-core machine.
Beside it, the peer in the same run: pytrec_eval scoring the same eleven runs on ndcg_cut.10,
one at a time (the usual dict parse + evaluate), in a child process of its own, with its wall
time and peak memory.

    .venv/bin/python bench/bench_many_runs.py [--data DIR] [--repeat N] [--peer-runs K]

``--peer-runs K`` scores only the first K runs with pytrec_eval and says so (the total is then
extrapolated, and marked as such). Not a timed test: it prints, it does not assert.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = Path("/tmp/ranklens_bench_many")
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"
if not MAKE_DATA.exists():  # a worktree sits one level deeper than the main clone
    MAKE_DATA = ROOT.parent.parent / "shared" / "bench" / "make_data.py"
CONSOLE_SCRIPT = Path(sys.executable).with_name("ranklens")
N_CANDIDATES = 10
TARGET_SECONDS, TARGET_MB = 30.0, 2048.0
# candidate k (3..10): (noise sd added to the baseline's scores, boost per relevance grade)
DERIVED = {3: (0.5, 0.00), 4: (0.5, 0.05), 5: (0.8, 0.10), 6: (0.3, 0.02), 7: (1.0, 0.00),
           8: (0.6, 0.15), 9: (0.4, -0.05), 10: (0.7, 0.08), 11: (0.5, 0.03)}


def candidate_names() -> list[str]:
    return ["run_b.trec", *(f"cand_{k:02d}.trec" for k in sorted(DERIVED))]


def ensure_data(folder: Path) -> None:
    """Make the big case and the derived candidates once (skipped when all files are there)."""
    base = ("run_a.trec", "run_b.trec", "qrels.trec", "segments.tsv")
    if not all((folder / name).exists() for name in base):
        print(f"generating the big case into {folder} (takes a while)...", flush=True)
        subprocess.run([sys.executable, str(MAKE_DATA), str(folder), "--queries", "7000",
                        "--depth", "1000"], check=True)
    missing = [k for k in sorted(DERIVED) if not (folder / f"cand_{k:02d}.trec").exists()]
    if missing:
        derive_candidates(folder, missing)


def derive_candidates(folder: Path, which: list[int]) -> None:
    """Candidates from the baseline's scores: noise and a relevance boost of their own."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    print(f"deriving candidates {which} from run_a.trec...", flush=True)
    options = pacsv.ReadOptions(column_names=["qid", "q0", "docid", "rank", "score", "tag"])
    parse = pacsv.ParseOptions(delimiter=" ")
    convert = pacsv.ConvertOptions(column_types={"score": pa.float64()})
    run = pacsv.read_csv(folder / "run_a.trec", read_options=options, parse_options=parse,
                         convert_options=convert)
    qrels = pacsv.read_csv(folder / "qrels.trec", parse_options=parse,
                           read_options=pacsv.ReadOptions(
                               column_names=["qid", "iter", "docid", "rel"]))
    position = pc.index_in(run["docid"], value_set=qrels["docid"])
    grade = np.zeros(run.num_rows)
    found = position.is_valid().to_numpy(zero_copy_only=False)
    grade[found] = qrels["rel"].to_numpy()[position.drop_null().to_numpy()]
    query = pc.dictionary_encode(run["qid"]).combine_chunks()
    query_index = query.indices.to_numpy()
    score = run["score"].to_numpy()
    for k in which:
        sd, boost = DERIVED[k]
        rng = np.random.default_rng([20261130, k])
        new = np.round(score + rng.normal(0.0, sd, size=score.size) + boost * grade, 2)
        order = np.lexsort((-new, query_index))
        starts = np.r_[0, np.flatnonzero(np.diff(query_index[order])) + 1]
        ranks = np.arange(order.size) - np.repeat(starts, np.diff(np.r_[starts, order.size])) + 1
        table = pa.table({
            "qid": run["qid"].take(order), "q0": run["q0"].take(order),
            "docid": run["docid"].take(order), "rank": ranks,
            "score": pa.array(np.char.mod("%.2f", new[order])),
            "tag": pa.array(np.full(order.size, f"cand{k:02d}")),
        })
        write = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
        pacsv.write_csv(table, folder / f"cand_{k:02d}.trec", write_options=write)
        print(f"  cand_{k:02d}.trec written", flush=True)


def measured(command: list[str]) -> tuple[float, float, float, subprocess.CompletedProcess[str]]:
    """Wall s, CPU s and peak MB of one child (run in a fresh process so that ru_maxrss is
    its own: the bench's children so far are measured through a wrapper)."""
    wrapper = [sys.executable, "-c", (
        "import resource, subprocess, sys, time, json\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - start\n"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "sys.stderr.write(done.stderr)\n"
        "sys.stdout.write(done.stdout)\n"
        "print(json.dumps({'wall': wall, 'cpu': usage.ru_utime + usage.ru_stime,"
        " 'peak_mb': usage.ru_maxrss / 1024, 'code': done.returncode}), file=sys.stderr)\n"),
        *command]
    done = subprocess.run(wrapper, capture_output=True, text=True, check=False)
    numbers = json.loads(done.stderr.strip().splitlines()[-1])
    if numbers["code"] != 0:
        raise SystemExit(f"{command[0]} failed ({numbers['code']}): {done.stderr}")
    return numbers["wall"], numbers["cpu"], numbers["peak_mb"], done


def run_ranklens(folder: Path, output: Path) -> tuple[float, float, float, str]:
    runs = [folder / "run_a.trec", *(folder / name for name in candidate_names())]
    command = [str(CONSOLE_SCRIPT), "compare", *map(str, runs), "--qrels",
               str(folder / "qrels.trec"), "--segments", str(folder / "segments.tsv"),
               "--metric", "ndcg@10", "--n-resamples", "10000", "--n-permutations", "10000",
               "--format", "json", "--output", str(output), "--timings"]
    wall, cpu, peak, done = measured(command)
    timings = done.stderr.split("timings:", 1)[1].split("\n")[0].strip()
    return wall, cpu, peak, timings


PEER = r"""
import json, resource, sys, time
import pytrec_eval

def read_trec(path, field, cast):
    table = {}
    with open(path) as lines:
        for line in lines:
            fields = line.split()
            if fields:
                table.setdefault(fields[0], {})[fields[2]] = cast(fields[field])
    return table

start = time.perf_counter()
qrels = read_trec(sys.argv[1], 3, int)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
parse = evaluate = 0.0
for path in sys.argv[2:]:
    began = time.perf_counter()
    run = read_trec(path, 4, float)
    parsed = time.perf_counter()
    evaluator.evaluate(run)
    del run
    parse += parsed - began
    evaluate += time.perf_counter() - parsed
print(json.dumps({"parse": parse, "evaluate": evaluate, "total": time.perf_counter() - start}))
"""


def run_peer(folder: Path, runs: list[Path]) -> tuple[dict[str, float], float, float, float]:
    wall, cpu, peak, done = measured([sys.executable, "-c", PEER, str(folder / "qrels.trec"),
                                      *map(str, runs)])
    return json.loads(done.stdout.strip().splitlines()[-1]), wall, cpu, peak


def check_report(output: Path) -> str:
    report = json.loads(output.read_text())
    family = report["families"][0]
    best = max(family["pairs"], key=lambda pair: pair["result"]["delta"])
    found = sum(1 for pair in family["pairs"] if pair["adjusted_p"] <= 0.05)
    return (f"{len(report['run_names']) - 1} candidates, {family['n_queries']} queries, "
            f"{len(report['comparisons'][0]['segments'])} segments each; {found} differ from "
            f"the baseline at adjusted p <= 0.05; largest delta "
            f"{best['result']['delta']:+.5f} ({report['run_names'][best['b']]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeat", type=int, default=1, help="ranklens runs (best is kept)")
    parser.add_argument("--peer-runs", type=int, default=N_CANDIDATES + 1,
                        help="runs pytrec_eval scores (default all eleven)")
    parser.add_argument("--skip-peer", action="store_true", help="do not run pytrec_eval")
    args = parser.parse_args()
    ensure_data(args.data)
    output = args.data / "bench_many_runs_report.json"
    print(f"machine: {os.cpu_count()} cpus, load average before: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (the machine is shared)", flush=True)
    size = sum((args.data / name).stat().st_size for name in ["run_a.trec", *candidate_names()])
    print(f"inputs: 11 runs, {size / 1e9:.2f} GB of TREC text, 7M rows each", flush=True)
    best = None
    for attempt in range(1, args.repeat + 1):
        wall, cpu, peak, timings = run_ranklens(args.data, output)
        print(f"ranklens compare (baseline + {N_CANDIDATES} candidates) run {attempt}: wall "
              f"{wall:.2f} s, CPU {cpu:.2f} s, peak RSS {peak:,.0f} MB\n  stages: {timings}",
              flush=True)
        if best is None or wall < best[0]:
            best = (wall, cpu, peak)
    assert best is not None
    print(f"report: {check_report(output)}")
    wall, _, peak = best
    print(f"best: {wall:.2f} s (target <= {TARGET_SECONDS:.0f} s: "
          f"{'met' if wall <= TARGET_SECONDS else 'MISSED'}), peak {peak:,.0f} MB (target <= "
          f"{TARGET_MB:,.0f} MB: {'met' if peak <= TARGET_MB else 'MISSED'})")
    if args.skip_peer:
        return
    runs = [args.data / "run_a.trec", *(args.data / name for name in candidate_names())]
    chosen = runs[: max(1, min(args.peer_runs, len(runs)))]
    times, peer_wall, peer_cpu, peer_peak = run_peer(args.data, chosen)
    scale = len(runs) / len(chosen)
    note = "" if scale == 1 else f" (scored {len(chosen)} of {len(runs)}; x{scale:.1f} below)"
    print(f"pytrec_eval, the same runs one at a time{note}: parse {times['parse']:.2f} s + "
          f"evaluate {times['evaluate']:.2f} s; process wall {peer_wall:.2f} s, CPU "
          f"{peer_cpu:.2f} s, peak RSS {peer_peak:,.0f} MB")
    peer_total = peer_wall * scale
    print(f"scoring 11 runs: pytrec_eval {peer_total:.1f} s"
          f"{' (extrapolated)' if scale != 1 else ''} against ranklens' whole compare "
          f"{wall:.1f} s (read, score, 10 comparisons with 40 segments, family test): "
          f"{peer_total / wall:.1f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
