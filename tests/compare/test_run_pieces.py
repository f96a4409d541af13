"""A comparison whose runs are read and scored a few rows at a time (``compare.run_pieces``)
says exactly what the same comparison of the runs read whole says."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from ranklens.compare import run_pieces
from ranklens.compare.inputs import load_inputs
from ranklens.compare.settings import CompareSettings
from ranklens.health import documents
from ranklens.io import InputFile, build, pieces

FAST = dict(n_resamples=500, n_permutations=500, seed=3)


def _write_inputs(folder: Path, seed: int = 7) -> dict[str, Path]:
    """Two runs grouped by query (1 to 6 rows a query, some self-retrieved rows, some queries
    tied, run B writing a third of its ids in capitals), judgements, proxy judgements and a
    segment map."""
    rng = random.Random(seed)
    queries = [f"q{n:03d}" for n in range(70)]
    qrels, proxy, segments = [], [], ["query_id\tsegment"]
    for q in queries[:60]:  # ten queries of the runs are not judged
        for d in range(8):
            qrels.append(f"{q} 0 {q}_d{d} {rng.choice((0, 0, 1, 2))}")
        proxy.append(f"{q} 0 {q}_d9 1")
        segments.append(f"{q}\t{rng.choice(('head', 'tail'))}")
    qrels.append("q999 0 q999_d0 1")  # judged, retrieved by neither run
    paths = {"qrels": folder / "qrels.txt", "proxy": folder / "proxy.txt",
             "segments": folder / "segments.tsv"}
    paths["qrels"].write_text("\n".join(qrels) + "\n")
    paths["proxy"].write_text("\n".join(proxy) + "\n")
    paths["segments"].write_text("\n".join(segments) + "\n")
    for name, tag in (("a", "A"), ("b", "B")):
        lines = []
        for q in queries:
            depth = rng.randint(1, 6)
            tied = rng.random() < 0.2
            docs = rng.sample(range(12), depth)
            for rank, d in enumerate(docs, 1):
                doc = q if d == 11 else f"{q}_d{d}"
                if name == "b" and rng.random() < 0.35:
                    doc = doc.upper()
                score = 1.0 if tied else round(10 - rank + rng.random(), 3)
                lines.append(f"{q} Q0 {doc} {rank} {score} {tag}")
        paths[name] = folder / f"run_{name}.trec"
        paths[name].write_text("\n".join(lines) + "\n")
    return paths


@pytest.fixture
def small_scale(monkeypatch):
    """Pieces of a few rows (about 120 bytes), a read block of 256 bytes (so a whole read of
    these files has several blocks, as a big file has) and 40 ids looked up per run."""
    monkeypatch.setattr(build, "BLOCK_SIZE", 256)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 120)
    monkeypatch.setattr(documents, "CHECKED", 40)
    monkeypatch.setattr(documents, "SAMPLE", 25)
    monkeypatch.setattr(documents, "FOLD_QUERIES", 7)
    read: list[tuple[int, int]] = []
    real = run_pieces.read_piece

    def counted(path, piece):
        read.append(piece)
        return real(path, piece)

    monkeypatch.setattr(run_pieces, "read_piece", counted)
    return read


def _reports(paths: dict[str, Path], settings: CompareSettings, *, whole: bool):
    def given(role: str) -> Path | InputFile:
        return InputFile.from_path(role, paths[role[-1]]) if whole else paths[role[-1]]

    inputs = load_inputs(given("run_a"), given("run_b"), qrels=paths["qrels"],
                         segments=paths["segments"], proxy_qrels=paths["proxy"],
                         settings=settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return inputs.report(settings)


@pytest.mark.parametrize("options", [
    dict(metrics=("nDCG@10", "P@5", "RBP(p=0.8)"), segment_column="segment"),
    dict(metrics=("AP",), missing="zero", unjudged="judged-only"),
    dict(metrics=("nDCG@10",), unjudged="proxy", drop_self_retrieval=True),
    dict(metrics=("RR",), order="rank"),
])
def test_a_run_read_a_few_rows_at_a_time_gives_the_whole_reads_report(
        tmp_path, small_scale, options):
    paths = _write_inputs(tmp_path)
    settings = CompareSettings(**options, **FAST)
    by_pieces = _reports(paths, settings, whole=False)
    assert len(small_scale) > 40  # both runs were cut, a few queries a piece
    assert max(stop - start for start, stop in small_scale) < 400
    read = len(small_scale)
    whole = _reports(paths, settings, whole=True)
    assert len(small_scale) == read  # the whole reads cut nothing
    assert by_pieces.to_json() == whole.to_json()
    assert by_pieces.health is not None and whole.health is not None


def test_the_sampled_ids_and_the_fold_are_the_whole_runs(tmp_path, small_scale):
    """Run B's ids match the judgements only in part: the report names the same sample and
    the same fold either way (40 of its rows looked up, a fold found on 7 queries)."""
    paths = _write_inputs(tmp_path)
    settings = CompareSettings(metrics=("P@5",), **FAST)
    by_pieces = _reports(paths, settings, whole=False)
    checks = [c for c in by_pieces.health.checks if c.key == "documents"]
    assert {c.numbers["documents_checked"] for c in checks} == {40}
    assert by_pieces.to_json() == _reports(paths, settings, whole=True).to_json()


def test_a_file_the_pieces_cannot_stand_for_is_read_whole(tmp_path, small_scale):
    """A query that comes back after another, or a comment line, sends the run to the whole
    read: the report is the whole read's."""
    paths = _write_inputs(tmp_path)
    lines = paths["a"].read_text().splitlines()
    paths["a"].write_text("\n".join([*lines, lines[0].replace(" 1 ", " 9 ", 1)
                                     .replace("_d", "_x", 1)]) + "\n")
    paths["b"].write_text("# made by a test\n" + paths["b"].read_text())
    settings = CompareSettings(metrics=("P@5",), **FAST)
    by_pieces = _reports(paths, settings, whole=False)
    assert small_scale  # tried
    assert by_pieces.to_json() == _reports(paths, settings, whole=True).to_json()
    assert any("comment line" in r.summary["description"] for r in by_pieces.inputs)
