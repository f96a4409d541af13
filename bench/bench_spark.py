"""The Spark engine on one machine: the standard big case against the local engine, and a
scaling sweep (1x, 2x, 4x the rows) that shows time per row and executor memory stay flat.

    .venv/bin/pip install -e '.[spark]'     # pyspark; Java 17+ must be on PATH
    .venv/bin/python bench/bench_spark.py [--data /tmp/ranklens-bench/big]

The standard big case (7,000 queries x 1,000 documents = 7M rows per run, TREC text) is made
with ``../shared/bench/make_data.py`` into ``--data`` when it is not there yet (under /tmp:
benchmark data is never committed).

Printed, for each measurement: rows, wall seconds, CPU seconds (every process that did the
work: the local engine's process, or Spark's JVM plus its Python workers, read from /proc),
rows per CPU-second, and peak memory (the local process's peak RSS; for Spark the largest RSS
any Python worker reached and the JVM's largest RSS, sampled every 0.2 s). On a shared machine
wall time depends on the neighbours; CPU seconds much less, so throughput is quoted per
CPU-second. The sweep's Parquet files are written under ``--work`` (default /tmp), never in
the repository. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parents[1]
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"  # shared/ sits beside the clone
METRICS = ["nDCG@10", "AP"]


def ensure_data(folder: pathlib.Path, make_data: pathlib.Path) -> None:
    """Generate the standard big case into ``folder`` (under /tmp) unless it is there."""
    if (folder / "run_a.trec").exists() and (folder / "qrels.trec").exists():
        return
    print(f"generating the big case into {folder} with {make_data} ...", flush=True)
    subprocess.run([sys.executable, str(make_data), str(folder), "--queries", "7000",
                    "--depth", "1000", "--seed", "1"], check=True)


# ---- /proc sampling ----------------------------------------------------------------------------

def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def spark_processes() -> dict[int, str]:
    """pid -> "jvm" | "python" for Spark's JVM and its Python daemon and workers."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        cmdline = _read(f"/proc/{entry}/cmdline").replace("\0", " ")
        if "org.apache.spark.deploy.SparkSubmit" in cmdline:
            found[int(entry)] = "jvm"
        elif "pyspark.daemon" in cmdline or "pyspark/daemon.py" in cmdline \
                or "pyspark.worker" in cmdline:
            found[int(entry)] = "python"
    return found


def rss_mb(pid: int) -> float:
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_of(pid: int) -> float:
    """utime + stime + reaped children's, in seconds."""
    stat = _read(f"/proc/{pid}/stat")
    if not stat:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Sampler:
    """Peak RSS of Spark's Python workers and JVM, and their CPU seconds, during a block."""

    worker_peak_mb: float = 0.0
    jvm_peak_mb: float = 0.0
    cpu_seconds: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _cpu_seen: dict[int, float] = field(default_factory=dict)

    def __enter__(self) -> Sampler:
        self._start_cpu = {pid: cpu_of(pid) for pid in spark_processes()}
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid, kind in spark_processes().items():
                rss = rss_mb(pid)
                if kind == "jvm":
                    self.jvm_peak_mb = max(self.jvm_peak_mb, rss)
                else:
                    self.worker_peak_mb = max(self.worker_peak_mb, rss)
                self._cpu_seen[pid] = max(self._cpu_seen.get(pid, 0.0), cpu_of(pid))
            self._stop.wait(0.2)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        end = {pid: cpu_of(pid) for pid in spark_processes()}
        for pid, seen in self._cpu_seen.items():  # workers that ended during the block
            end.setdefault(pid, seen)
        self.cpu_seconds = sum(end[pid] - self._start_cpu.get(pid, 0.0) for pid in end)


# ---- the local engine, in its own process ------------------------------------------------------

def local_worker(run_path: str, qrels_path: str) -> dict:
    from ranklens.io import read_qrels, read_run
    from ranklens.metrics import evaluate

    start = time.perf_counter()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    start_cpu = usage.ru_utime + usage.ru_stime
    run = read_run(run_path).run
    qrels = read_qrels(qrels_path).qrels
    evaluation = evaluate(run, qrels, METRICS)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"rows": len(run), "seconds": time.perf_counter() - start,
            "cpu_seconds": usage.ru_utime + usage.ru_stime - start_cpu,
            "peak_mb": usage.ru_maxrss / 1024, "means": evaluation.means()}


def run_local(run_path: pathlib.Path, qrels_path: pathlib.Path) -> dict:
    done = subprocess.run([sys.executable, __file__, "--local-worker", str(run_path),
                           str(qrels_path)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---- data for the sweep ------------------------------------------------------------------------

def write_sweep(data: pathlib.Path, work: pathlib.Path, base_queries: int) -> dict[int, dict]:
    """Parquet run + qrels with the first 1x, 2x, 4x ``base_queries`` queries of the big case."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    def trec(path: pathlib.Path, names: list[str], keep: list[str]) -> pa.Table:
        types = {name: pa.string() for name in ("query_id", "doc_id")}
        return pacsv.read_csv(path, read_options=pacsv.ReadOptions(column_names=names),
                              parse_options=pacsv.ParseOptions(delimiter=" "),
                              convert_options=pacsv.ConvertOptions(column_types=types,
                                                                   include_columns=keep))

    run = trec(data / "run_a.trec", ["query_id", "q0", "doc_id", "rank", "score", "tag"],
               ["query_id", "doc_id", "score"])
    qrels = trec(data / "qrels.trec", ["query_id", "iter", "doc_id", "relevance"],
                 ["query_id", "doc_id", "relevance"])
    queries = pc.unique(run.column("query_id")).sort()
    sets = {}
    for factor in (1, 2, 4):
        folder = work / f"{factor}x"
        chosen = queries.slice(0, base_queries * factor)
        if len(chosen) < base_queries * factor:
            raise SystemExit(f"the big case has {len(queries)} queries; --sweep-queries "
                             f"{base_queries} x 4 needs more")
        if not (folder / "run.parquet").exists():
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(run.filter(pc.is_in(run.column("query_id"), chosen)),
                           folder / "run.parquet")
            pq.write_table(qrels.filter(pc.is_in(qrels.column("query_id"), chosen)),
                           folder / "qrels.parquet")
        rows = pq.ParquetFile(folder / "run.parquet").metadata.num_rows
        sets[factor] = {"folder": folder, "rows": rows, "queries": len(chosen)}
    return sets


# ---- Spark runs --------------------------------------------------------------------------------

def run_spark(spark, run_path: str, qrels_path: str, partitions: int | None) -> dict:
    from ranklens import spark as rs

    with Sampler() as sampled:
        start = time.perf_counter()
        evaluation = rs.evaluate(rs.read_run(spark, run_path), rs.read_qrels(spark, qrels_path),
                                 METRICS, partitions=partitions).collect()
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu_seconds": sampled.cpu_seconds,
            "worker_peak_mb": sampled.worker_peak_mb, "jvm_peak_mb": sampled.jvm_peak_mb,
            "means": evaluation.means(), "rows": 0,  # the caller knows the rows
            "queries": len(evaluation.results[METRICS[0]].per_query)}


def line(label: str, rows: int, result: dict) -> str:
    memory = (f"peak RSS {result['peak_mb']:.0f} MB" if "peak_mb" in result else
              f"Python worker peak {result['worker_peak_mb']:.0f} MB, JVM peak "
              f"{result['jvm_peak_mb']:.0f} MB")
    return (f"{label:<34} {rows:>11,} rows  {result['seconds']:7.1f} s wall  "
            f"{result['cpu_seconds']:7.1f} CPU-s  {rows / result['cpu_seconds'] / 1e3:7.0f}k "
            f"rows/CPU-s  {rows / result['seconds'] / 1e3:6.0f}k rows/s  {memory}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=pathlib.Path,
                        default=pathlib.Path("/tmp/ranklens-bench/big"))
    parser.add_argument("--work", type=pathlib.Path,
                        default=pathlib.Path("/tmp/ranklens-bench/spark-sweep"))
    parser.add_argument("--sweep-queries", type=int, default=1750,
                        help="queries at 1x (default 1750: 1.75M rows; 4x = the big case)")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--driver-memory", default="2g")
    parser.add_argument("--partitions", type=int, default=None,
                        help="shuffle partitions (default: Spark's, coalesced by AQE)")
    parser.add_argument("--make-data", type=pathlib.Path, default=MAKE_DATA,
                        help="the shared data generator (used when --data is empty)")
    parser.add_argument("--local-worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.local_worker:
        print(json.dumps(local_worker(*args.local_worker)))
        return 0
    ensure_data(args.data, args.make_data)
    run_path, qrels_path = args.data / "run_a.trec", args.data / "qrels.trec"
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start "
          "(shared with other work: wall times vary, CPU seconds much less)")
    local = run_local(run_path, qrels_path)
    print(line("local engine, TREC text", local["rows"], local))

    sets = write_sweep(args.data, args.work, args.sweep_queries)
    from ranklens import spark as rs

    spark = rs.session(args.master, config={
        "spark.driver.memory": args.driver_memory, "spark.ui.showConsoleProgress": "false"})
    spark.sparkContext.setLogLevel("ERROR")
    warm = sets[1]["folder"]
    run_spark(spark, str(warm / "run.parquet"), str(warm / "qrels.parquet"), args.partitions)
    big = run_spark(spark, str(run_path), str(qrels_path), args.partitions)
    big["rows"] = local["rows"]
    print(line(f"spark {args.master}, TREC text", big["rows"], big))
    agree = all(abs(big["means"][m] - local["means"][m]) < 1e-12 for m in METRICS)
    means = ", ".join(f"{m} {big['means'][m]:.6f}" for m in METRICS)
    print(f"  means {means}; equal to the local engine's: {agree}")
    sweep = {}
    for factor, info in sets.items():
        result = run_spark(spark, str(info["folder"] / "run.parquet"),
                           str(info["folder"] / "qrels.parquet"), args.partitions)
        result["rows"] = info["rows"]
        sweep[factor] = result
        print(line(f"spark {args.master}, Parquet {factor}x", info["rows"], result))
    per_row = {f: r["seconds"] / r["rows"] for f, r in sweep.items()}
    per_row_cpu = {f: r["cpu_seconds"] / r["rows"] for f, r in sweep.items()}
    print(f"time per row 4x / 1x: wall {per_row[4] / per_row[1]:.2f}, CPU "
          f"{per_row_cpu[4] / per_row_cpu[1]:.2f} (flat: <= 1.2)")
    workers = " / ".join(f"{sweep[f]['worker_peak_mb']:.0f}" for f in (1, 2, 4))
    jvm = " / ".join(f"{sweep[f]['jvm_peak_mb']:.0f}" for f in (1, 2, 4))
    print(f"Python worker peak 1x / 2x / 4x: {workers} MB; JVM peak {jvm} MB "
          f"(spark.driver.memory {args.driver_memory})")
    throughput = sweep[4]["rows"] / sweep[4]["cpu_seconds"]
    print(f"Spark throughput at 4x: {throughput / 1e3:.0f}k rows per CPU-second; 10^9 rows "
          f"on 32 cores at that rate: {1e9 / throughput / 32 / 60:.1f} min of CPU per core")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
