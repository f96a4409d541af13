"""What each shape of a run file costs: the same 7M rows in query order, with the tag changing
halfway, shuffled, with long document ids, and as many short queries (700,000 x 10).

    .venv/bin/python bench/bench_shapes.py [--data bench/data/shapes] [--rows 7]
        [--only ordered shuffled ...]

The data comes from ``../shared/bench/make_data.py`` (seed 1; made once into ``--data``): the
big case (``--rows`` million rows, 1,000 documents a query) and the many-queries case (10
documents a query). The other shapes are made from the big case's runs, each once, in a
process of its own:

- ``tags``: the tag changes halfway (two runs concatenated, or a tag per shard);
- ``shuffled``: the rows in a random order (seed 1): not grouped by query;
- ``long``: every document id ``doc-collection-2026-shard-07-<id>`` in runs and qrels (64
  bytes a line more than 36);
- ``short``: ``--rows`` million rows as queries of 10 documents.

For each shape, two fresh processes, timed from start to exit with their peak resident memory
(``wait4``'s ru_maxrss, all threads): ``ranklens evaluate -q -m ndcg_cut.10 QRELS RUN_A`` and
``ranklens compare RUN_A RUN_B --qrels QRELS --segments SEGMENTS``. The table gives seconds, CPU
seconds, peak GB, bytes of peak per row, and CPU per row as a multiple of the ordered run's (the
shape's own cost), per run row and per line read (runs, judgements and segment map: the
many-queries case has make_data's 40 judged documents a query, so its judgements outnumber its
run rows four to one, where the big case has about one judgement for 25 run rows). Not a test:
it prints, it does not assert; on a busy machine read the peaks and the CPU ratios, not the
seconds.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

from bench_scaling import MAKE_DATA, run_timed

HERE = Path(__file__).resolve().parent
SHAPES = ("ordered", "tags", "shuffled", "long", "short")
LONG_PREFIX = b"doc-collection-2026-shard-07-"


def case(root: Path, rows: float, depth: int) -> Path:
    """The make_data case of ``rows`` million rows at ``depth`` documents a query (made once)."""
    queries = round(rows * 1e6 / depth)
    folder = root / f"{rows:g}M_depth{depth}"
    if not (folder / "run_b.trec").exists():
        print(f"making {folder} ({queries:,} queries x {depth}) ...", file=sys.stderr)
        subprocess.run([sys.executable, str(MAKE_DATA), str(folder), "--queries", str(queries),
                        "--depth", str(depth), "--seed", "1"], check=True,
                       stdout=subprocess.DEVNULL)
    return folder


def inputs(root: Path, rows: float, shape: str) -> tuple[Path, Path, Path, Path]:
    """(qrels, run A, run B, segments) of ``shape``, made once."""
    folder = case(root, rows, 10 if shape == "short" else 1000)
    names = {"ordered": ("qrels", "run_a", "run_b"), "short": ("qrels", "run_a", "run_b"),
             "tags": ("qrels", "run_a_tags", "run_b_tags"),
             "shuffled": ("qrels", "run_a_shuffled", "run_b_shuffled"),
             "long": ("qrels_long", "run_a_long", "run_b_long")}[shape]
    paths = [folder / f"{name}.trec" for name in names]
    if not all(path.exists() for path in paths):
        subprocess.run([sys.executable, __file__, "--make-shape", str(folder), shape],
                       check=True)
    return paths[0], paths[1], paths[2], folder / "segments.tsv"


def _make_shape(folder: Path, shape: str) -> None:
    for name in (("run_a", "run_b", "qrels") if shape == "long" else ("run_a", "run_b")):
        lines = (folder / f"{name}.trec").read_bytes().splitlines(keepends=True)
        if shape == "shuffled":
            random.Random(1).shuffle(lines)
        elif shape == "tags":
            half = len(lines) // 2
            lines = [*lines[:half], *(line.rstrip(b"\n") + b"2\n" for line in lines[half:])]
        else:  # long: the document id is the third field
            lines = [b" ".join([*fields[:2], LONG_PREFIX + fields[2], *fields[3:]]) + b"\n"
                     for fields in (line.split() for line in lines)]
        suffix = "tags" if shape == "tags" else "shuffled" if shape == "shuffled" else "long"
        (folder / f"{name}_{suffix}.trec").write_bytes(b"".join(lines))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--make-shape":
        _make_shape(Path(sys.argv[2]), sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HERE / "data" / "shapes")
    parser.add_argument("--rows", type=float, default=7.0, help="million rows a run")
    parser.add_argument("--only", nargs="*", default=list(SHAPES), choices=SHAPES)
    args = parser.parse_args()
    ranklens = str(Path(sys.executable).parent / "ranklens")
    rows = args.rows * 1e6
    measured: list[tuple[str, str, tuple[float, float, float, int]]] = []
    for shape in args.only:
        qrels, run_a, run_b, segments = inputs(args.data, args.rows, shape)
        commands = {
            "evaluate": [ranklens, "evaluate", "-q", "-m", "ndcg_cut.10", str(qrels), str(run_a)],
            "compare": [ranklens, "compare", str(run_a), str(run_b), "--qrels", str(qrels),
                        "--segments", str(segments), "--format", "json", "--output",
                        "/dev/null"]}
        for command, argv in commands.items():
            found = run_timed(argv, 3600.0)
            if found is None:
                print(f"  {command} ({shape}): failed", file=sys.stderr)
                continue
            read = [qrels, run_a] + ([run_b, segments] if command == "compare" else [])
            measured.append((command, shape, (*found, sum(_lines(path) for path in read))))
            print(f"  {command} ({shape}): {found[0]:.2f} s, {found[1]:.2f} CPU-s, "
                  f"{found[2]:.2f} GB", file=sys.stderr)
    print()
    print("| command | shape | seconds | CPU-s | peak GB | peak bytes/row | CPU per row vs "
          "ordered | lines read | CPU per line read vs ordered |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for command, shape, (wall, cpu, peak, lines) in measured:
        ordered = next((m for c, s, m in measured if c == command and s == "ordered"), None)
        ratio = f"{cpu / ordered[1]:.2f}x" if ordered else "-"
        per_line = f"{cpu / lines / (ordered[1] / ordered[3]):.2f}x" if ordered else "-"
        print(f"| {command} | {shape} | {wall:.2f} | {cpu:.2f} | {peak:.2f} | "
              f"{peak * 1e9 / rows:.0f} | {ratio} | {lines:,} | {per_line} |")


def _lines(path: Path) -> int:
    """The lines of a file, counted in 16 MiB blocks."""
    count = 0
    with path.open("rb") as handle:
        while block := handle.read(1 << 24):
            count += block.count(b"\n")
    return count


if __name__ == "__main__":
    main()
