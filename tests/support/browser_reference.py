"""What the app should show, from outside the app: input files and the CLI's JSON report."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections import Counter
from pathlib import Path

from ranklens import demo
from ranklens.cli import main


def run_cli(command: list[str]) -> str:
    """What ``ranklens COMMAND...`` prints on stdout, run in this process (the console script
    is the same ``main``: ``tests/cli/test_cli_subprocess.py`` and the wheel test run it as a
    process); fails with what it printed on stderr when it exits non-zero."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(command)
    assert code == 0, err.getvalue()
    return out.getvalue()


def cli_compare(run_a: Path, run_b: Path, *candidates: Path, qrels: Path | None = None,
                segments: Path | None = None, segment_column: str | None = None,
                metric: str = "nDCG@10", names: tuple[str, ...] = ()) -> dict:
    """``ranklens compare --format json`` on these files (the CLI's ``main``, in process);
    ``candidates`` after run B make it a leaderboard, ``names`` name the runs."""
    command = ["compare", str(run_a), str(run_b), *map(str, candidates),
               "--metric", metric, "--format", "json"]
    for name in names:
        command += ["--name", name]
    if qrels is not None:
        command += ["--qrels", str(qrels)]
    if segments is not None:
        command += ["--segments", f"{segments}:{segment_column}" if segment_column
                    else str(segments)]
    return json.loads(run_cli(command))


def cli_ppi(run_a: Path, run_b: Path, *, proxy: Path, gold: Path,
            metric: str = "nDCG@10") -> dict:
    """The analysis ``ranklens ppi --format json`` writes for these files (the CLI's ``main``,
    in process): the payload's ``analysis`` part."""
    command = ["ppi", str(run_a), str(run_b), "--proxy-qrels", str(proxy),
               "--gold-qrels", str(gold), "--metric", metric, "--format", "json"]
    analysis: dict = json.loads(run_cli(command))["analysis"]
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
