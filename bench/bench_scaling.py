"""Does the cost per row stay flat from 1M to 50M rows? Time, CPU, peak memory, rows per second.

    .venv/bin/python bench/bench_scaling.py [--sizes 1 3.5 7 21 50] [--trec-eval PATH]
        [--data bench/data/scaling] [--shapes ordered shuffled tags] [--compare] [--spark]

For each size (millions of rows; 1,000 documents per query, so size x 1,000 queries) the data
comes from ``../shared/bench/make_data.py`` (made once into ``--data``), and each contender
runs as one fresh process, timed from start to exit with its peak resident memory
(``wait4``'s ru_maxrss, all threads):

- ``ranklens evaluate -q -m ndcg_cut.10 QRELS RUN`` on the run as written (grouped by query,
  one tag), and with ``--shapes``: the same rows shuffled (``shuffled``), and with the tag
  changing every 1,000 queries (``tags``, runs concatenated or a tag per shard);
- trec_eval ``-q -m ndcg_cut.10`` (``--trec-eval PATH``) and pytrec_eval (parse + evaluate),
  each up to the size where it takes longer than ``--peer-timeout`` seconds;
- with ``--compare``, ``ranklens compare RUN_A RUN_B --qrels QRELS --segments SEGMENTS``;
- with ``--spark``, ``ranklens evaluate --engine spark`` (local[2]): where it overtakes the
  local engine, if it does on this machine.

The table prints each size's seconds, CPU seconds, peak GB, rows per second and the time per
row as a multiple of the time per row at 3.5M rows (the flat-cost target: within 1.25x at
21M). Not a test: run on demand, on a quiet machine; the 50M case needs about 3.7 GB of disk
for its two runs and qrels, and making it took make_data.py 6 min and 18.5 GB of memory
(2026-12-05, shared machine): make it while nothing else needs the memory.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKE_DATA = HERE.parent.parent / "shared" / "bench" / "make_data.py"
PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
sys.stdout.write("".join(f"ndcg_cut_10\\t{q}\\t{v['ndcg_cut_10']:.4f}\\n"
                         for q, v in sorted(values.items())))
"""


def run_timed(command: list[str], timeout: float) -> tuple[float, float, float] | None:
    """(wall s, CPU s, peak GB) of one process, or None when it failed or ran out of time."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = started + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            process.kill()
            os.wait4(process.pid, 0)
            return None
        time.sleep(0.02)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        error = process.stderr.read().decode(errors="replace") if process.stderr else ""
        print(f"  failed: {' '.join(command[:3])} ...: {error.strip()[-300:]}", file=sys.stderr)
        return None
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1e6


def data_for(size: float, root: Path) -> Path:
    folder = root / f"{size:g}M"
    if not (folder / "run_a.trec").exists():
        queries = round(size * 1000)
        print(f"making {size:g}M rows ({queries:,} queries) in {folder} ...", file=sys.stderr)
        subprocess.run([sys.executable, str(MAKE_DATA), str(folder), "--queries", str(queries),
                        "--depth", "1000", "--seed", "1"], check=True,
                       stdout=subprocess.DEVNULL)
    return folder


def shaped(folder: Path, shape: str) -> Path:
    """The run in another shape, made once, in a process of its own (a child forked from a
    parent that held the lines would count them in its peak): rows shuffled, or a tag per
    1,000 queries."""
    target = folder / f"run_a_{shape}.trec"
    if not target.exists():
        subprocess.run([sys.executable, __file__, "--make-shape", str(folder), shape],
                       check=True)
    return target


def _make_shape(folder: Path, shape: str) -> None:
    target = folder / f"run_a_{shape}.trec"
    lines = (folder / "run_a.trec").read_bytes().splitlines(keepends=True)
    if shape == "shuffled":
        random.Random(1).shuffle(lines)
    else:
        lines = [_retagged(line, number // 1_000_000) for number, line in enumerate(lines)]
    target.write_bytes(b"".join(lines))


def _retagged(line: bytes, shard: int) -> bytes:
    head, _, _ = line.rstrip(b"\n").rpartition(b" ")
    return head + b" shard" + str(shard).encode() + b"\n"


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--make-shape":
        _make_shape(Path(sys.argv[2]), sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 3.5, 7, 21, 50])
    parser.add_argument("--data", type=Path, default=HERE / "data" / "scaling")
    parser.add_argument("--shapes", nargs="*", default=["ordered"],
                        choices=["ordered", "shuffled", "tags"])
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL"))
    parser.add_argument("--pytrec-eval", action="store_true")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--spark", action="store_true")
    parser.add_argument("--peer-timeout", type=float, default=300.0)
    args = parser.parse_args()
    ranklens = str(Path(sys.executable).parent / "ranklens")
    env_note = f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs"
    print(f"bench_scaling {time.strftime('%Y-%m-%d %H:%M')}, {env_note}")
    rows: list[tuple[str, float, tuple[float, float, float]]] = []
    given_up: set[str] = set()
    for size in args.sizes:
        folder = data_for(size, args.data)
        qrels = str(folder / "qrels.trec")
        contenders: dict[str, list[str]] = {}
        for shape in args.shapes:
            run = str(folder / "run_a.trec") if shape == "ordered" else str(shaped(folder, shape))
            contenders[f"ranklens evaluate ({shape})"] = [
                ranklens, "evaluate", "-q", "-m", "ndcg_cut.10", qrels, run]
        if args.trec_eval:
            contenders["trec_eval -O3"] = [args.trec_eval, "-q", "-m", "ndcg_cut.10", qrels,
                                           str(folder / "run_a.trec")]
        if args.pytrec_eval:
            contenders["pytrec_eval"] = [sys.executable, "-c", PYTREC, qrels,
                                         str(folder / "run_a.trec")]
        if args.compare:
            contenders["ranklens compare"] = [
                ranklens, "compare", str(folder / "run_a.trec"), str(folder / "run_b.trec"),
                "--qrels", qrels, "--segments", str(folder / "segments.tsv")]
        if args.spark:
            contenders["ranklens evaluate --engine spark"] = [
                ranklens, "evaluate", "-q", "-m", "ndcg_cut.10", "--engine", "spark", qrels,
                str(folder / "run_a.trec")]
        for name, command in contenders.items():
            if name in given_up:
                continue
            timeout = args.peer_timeout if not name.startswith("ranklens") else 3600.0
            measured = run_timed(command, timeout)
            if measured is None:
                given_up.add(name)
                print(f"  {name} at {size:g}M: did not finish (past {timeout:.0f} s or failed);"
                      " not run at larger sizes", file=sys.stderr)
                continue
            rows.append((name, size, measured))
            print(f"  {name} {size:g}M: {measured[0]:.2f} s, {measured[1]:.2f} CPU-s, "
                  f"{measured[2]:.2f} GB", file=sys.stderr)
    print()
    print("| contender | rows | seconds | CPU-s | peak GB | rows/s | time per row vs 3.5M |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, size, (wall, cpu, peak) in rows:
        reference = next((m[0] / s for n, s, m in rows if n == name and s == 3.5), None)
        ratio = f"{wall / size / reference:.2f}x" if reference else "-"
        print(f"| {name} | {size:g}M | {wall:.2f} | {cpu:.2f} | {peak:.2f} | "
              f"{size * 1e6 / wall:,.0f} | {ratio} |")


if __name__ == "__main__":
    main()
