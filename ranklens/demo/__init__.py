"""Bundled demo data: a small, realistic comparison that a first visit shows at once.

``paths()`` answers where the files are; ``generate.py`` beside this module rebuilds them
deterministically (``python -m ranklens.demo.generate``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

FILES = {
    "run_a": "bm25_baseline.trec",
    "run_b": "neural_reranker.trec",
    "qrels": "qrels.trec",
    "qrels_proxy": "qrels_proxy.trec",
    "qrels_gold": "qrels_gold.trec",
    "segments": "segments.tsv",
    "run_dense": "dense_retriever.trec",
    "qrels_proxy_full": "qrels_proxy_full.trec",
}


# the neural re-ranker trained with two more seeds (issue 31); neural_reranker.trec is seed 1
SEED_FILES = {
    "run_b_seed2": "neural_reranker_seed2.trec",
    "run_b_seed3": "neural_reranker_seed3.trec",
}


# generated text beside the ids (issue 30): not inputs of a comparison, so not in FILES
TEXT_FILES = {
    "queries": "queries.tsv",
    "documents": "documents.jsonl.gz",
}


def data_dir() -> Path:
    """Folder holding the demo files inside the installed package."""
    return Path(str(files("ranklens.demo") / "data"))


def paths() -> dict[str, Path]:
    """Role -> path of each demo file (run_a, run_b, qrels, qrels_proxy, qrels_gold, segments,
    run_dense: a dense first stage with many unjudged documents, qrels_proxy_full: proxy
    labels of the judged documents and of every run's top 20)."""
    folder = data_dir()
    return {role: folder / name for role, name in FILES.items()}


def text_paths() -> dict[str, Path]:
    """Role -> path of the demo's text files: ``queries`` (id<TAB>text) and ``documents``
    (BEIR corpus.jsonl, gzip: the documents of the runs' top 10)."""
    folder = data_dir()
    return {role: folder / name for role, name in TEXT_FILES.items()}


def seed_paths() -> list[Path]:
    """The neural re-ranker's three training runs (seeds 1, 2, 3), seed 1 being ``run_b``:
    the demo of a system given as several runs (``ranklens.compare.seeds``)."""
    folder = data_dir()
    return [folder / FILES["run_b"], *(folder / name for name in SEED_FILES.values())]
