"""What the app should show, from outside the app: input files and the CLI's JSON report."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ranklens import demo

CLI = Path(sys.executable).with_name("ranklens")


def cli_compare(run_a: Path, run_b: Path, *candidates: Path, qrels: Path | None = None,
                segments: Path | None = None, segment_column: str | None = None,
                metric: str = "nDCG@10", names: tuple[str, ...] = ()) -> dict:
    """``ranklens compare --format json`` on these files (the console script, a subprocess);
    ``candidates`` after run B make it a leaderboard, ``names`` name the runs."""
    command = [str(CLI), "compare", str(run_a), str(run_b), *map(str, candidates),
               "--metric", metric, "--format", "json"]
    for name in names:
        command += ["--name", name]
    if qrels is not None:
        command += ["--qrels", str(qrels)]
    if segments is not None:
        command += ["--segments", f"{segments}:{segment_column}" if segment_column
                    else str(segments)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli_ppi(run_a: Path, run_b: Path, *, proxy: Path, gold: Path,
            metric: str = "nDCG@10") -> dict:
    """The analysis ``ranklens ppi --format json`` writes for these files (the console script,
    a subprocess): the payload's ``analysis`` part."""
    command = [str(CLI), "ppi", str(run_a), str(run_b), "--proxy-qrels", str(proxy),
               "--gold-qrels", str(gold), "--metric", metric, "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    analysis: dict = json.loads(done.stdout)["analysis"]
    return analysis


def segment_counts(segments: Path, column: str) -> Counter[str]:
    """Queries per value of ``column`` in a tab-separated segment map with a header."""
    with segments.open(newline="") as handle:
        return Counter(row[column] for row in csv.DictReader(handle, delimiter="\t"))


def demo_subset(folder: Path, n_queries: int) -> dict[str, Path]:
    """The bundled demo cut to its first ``n_queries`` query ids: small, realistic uploads.

    Returns role -> path for run_a, run_b, qrels, qrels_proxy, qrels_gold and segments; the
    files keep the demo's names so that run names match the demo's.
    """
    sources = demo.paths()
    with sources["segments"].open() as handle:
        header, *rows = handle.read().splitlines()
    keep = sorted(line.split("\t")[0] for line in rows)[:n_queries]
    wanted = set(keep)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for role, source in sources.items():
        lines = source.read_text().splitlines()
        if role == "segments":
            kept = [header] + [line for line in rows if line.split("\t")[0] in wanted]
        else:
            kept = [line for line in lines if line.split()[0] in wanted]
        target = folder / source.name
        target.write_text("\n".join(kept) + "\n")
        written[role] = target
    return written


def corrupt_line(source: Path, target: Path, line_number: int, replacement: str) -> Path:
    """A copy of ``source`` whose line ``line_number`` (1-based) is ``replacement``."""
    lines = source.read_text().splitlines()
    lines[line_number - 1] = replacement
    target.write_text("\n".join(lines) + "\n")
    return target
