"""Systems given as several runs, as the faces take them: ``NAME=FILE,FILE`` and seed columns.

`parse_system` reads one CLI argument (``neural=n1.trec,n2.trec,n3.trec``, or a plain path);
`split_seed_table` turns a per-query table with a ``seed`` column (or a run column holding
several runs: ``run``, ``run_id``, ``system``, ``tag``, ``fold``) into one table per seed;
`flatten` makes the pipeline's inputs of a list of systems: the files in order, the
``seed_runs`` of `CompareSettings` (None when every system has one run and none was given as
a list) and the systems' names. Nothing here scores or compares.
"""

from __future__ import annotations

import gzip
import io as bytes_io
from collections.abc import Sequence
from pathlib import Path

from ranklens.io import InputError, InputFile
from ranklens.io.columns import ALIASES
from ranklens.io.source import file_stem

SEED_COLUMNS = ("seed", "fold", "run", "run_id", "runid", "system", "tag")
"""Columns of a per-query table that can name its runs (lower case), the first found wins."""
SYNTAX = "NAME=FILE[,FILE...]"
"""How a system with several runs is given on the command line."""


def parse_system(text: str) -> tuple[str | None, list[str]]:
    """One ``ranklens compare`` argument: (name or None, its files).

    ``neural=n1.trec,n2.trec`` is the system "neural" with two runs; ``bm25=bm25.trec`` one
    run named "bm25"; a path that exists as given (even with ``=`` or ``,`` in it) is one run
    named after its file. ``ValueError`` for an empty name or file list.
    """
    if Path(text).exists() or "=" not in text:
        return None, [text]
    name, _, files = text.partition("=")
    paths = [f for f in files.split(",") if f]
    if not name.strip() or not paths:
        raise ValueError(f"{text!r}: give {SYNTAX}, e.g. neural=n1.trec,n2.trec,n3.trec")
    return name.strip(), paths


def split_seed_table(file: InputFile) -> tuple[InputFile, ...]:
    """A per-query table with a seed column holding two or more values, as one table per
    seed in order of first appearance (named ``<stem>_<column><value>.tsv``, the column left
    out); any other file as it is. Reads CSV/TSV (gzip too) and Parquet; a file it cannot
    read as a table is returned as it is (its reader then says what is wrong)."""
    import pandas as pd

    data = file.data
    try:
        if data[:4] == b"PAR1":
            frame = pd.read_parquet(bytes_io.BytesIO(data))
        else:
            text = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
            first = text.split(b"\n", 1)[0]
            frame = pd.read_csv(bytes_io.BytesIO(text), sep="\t" if b"\t" in first else ",",
                                dtype=str, keep_default_na=False)
    except Exception:  # not a table we can split: its reader will say why
        return (file,)
    lower = {str(c).strip().lower(): c for c in frame.columns}
    if not any(alias in lower for alias in ALIASES["query_id"]):
        return (file,)  # no header naming the queries (trec_eval -q output, a run): not split
    column = next((lower[c] for c in SEED_COLUMNS if c in lower), None)
    if column is None:
        return (file,)
    values = list(dict.fromkeys(frame[column].astype(str)))
    if len(values) < 2:
        return (file,)
    stem = file_stem(file.name)
    label = str(column).strip().lower()
    out = []
    for value in values:
        part = frame[frame[column].astype(str) == value].drop(columns=[column])
        body = part.to_csv(sep="\t", index=False).encode("utf-8")
        name = f"{stem}_{value}.tsv" if value.lower().startswith(label) else \
            f"{stem}_{label}{value}.tsv"
        out.append(InputFile(file.role, name, body))
    return tuple(out)


def flatten(systems: Sequence[tuple[str | None, Sequence[InputFile]]], *, listed: bool
            ) -> tuple[list[InputFile], tuple[int, ...] | None, tuple[str, ...] | None]:
    """The files of ``systems`` (name or None, its runs) in order, their ``seed_runs`` and
    names for `CompareSettings`.

    ``seed_runs`` is None when every system has one run and ``listed`` is False (none was
    given as a list): a comparison as ever. Names are None when no system is named; a system
    without a name is named after its runs (`ranklens.compare.seeds.system_name`).
    """
    from ranklens.compare.seeds import system_name

    if any(not runs for _, runs in systems):
        empty = next(name for name, runs in systems if not runs)
        raise InputError(str(empty or "runs"), "is a system with no run",
                         hint="give each system one or more runs")
    files = [f for _, runs in systems for f in runs]
    several = listed or any(len(runs) > 1 for _, runs in systems)
    seed_runs = tuple(len(runs) for _, runs in systems) if several else None
    if all(name is None for name, _ in systems):
        return files, seed_runs, None
    names = tuple(name if name is not None else system_name([file_stem(f.name) for f in runs])
                  for name, runs in systems)
    return files, seed_runs, names
