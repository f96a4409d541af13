"""Rebuild the bundled demo data, deterministically.

    python -m ranklens.demo.generate [OUTDIR]

400 web-search-like queries, two runs of depth 100, graded qrels (0..3), proxy qrels (an
"LLM judge" that is generous to long documents: off by one level on about a quarter of
documents, biased upwards; run B favours long documents, so the proxy flatters B), gold
qrels on a random 15% of queries, and a segment map with two
columns (``intent``: 6 segments; ``length``: 3 buckets). Run B is better than A overall, much
better on ``product`` and ``local``, and worse on ``navigational``. Scores are rounded to two
decimals, so ties occur as they do in real runs.

A third run, ``dense_retriever.trec``, is a neural first stage: it also retrieves documents
outside the judged pool (as good as the pooled ones, but nobody judged them), so its top 10 is
far less judged than BM25's and trec_eval's "unjudged = non-relevant" makes it look worse than
it is (the Compare page's coverage guardrail). ``qrels_proxy_full.trec`` holds the proxy
judge's labels of the judged documents and of every document in the top 20 of the three runs,
for the robustness view's "holes filled with proxy labels". Both come from their own random
stream, after the files above, so adding them changed none of those bytes.

``queries.tsv`` and ``documents.jsonl.gz`` (``ranklens.demo.texts``) hold generated query
texts and the texts of the documents in the runs' top 10, from a third stream.

``neural_reranker_seed2.trec`` and ``neural_reranker_seed3.trec`` are the neural re-ranker
trained again with two other seeds (issue 31), from a fourth stream, last: none of the
files above changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ranklens.demo.texts import write_texts

N_QUERIES = 400
DEPTH = 100
POOL = 140  # candidate documents per query; the extra ones are judged but never retrieved
SEED = 20261129
DENSE_NEW = 60  # documents per query only the dense retriever finds (outside the judged pool)
PROXY_DEPTH = 20  # the proxy judge labels the top 20 of every run
SEED_SHIFTS = (-0.04, -0.02)  # the neural re-ranker's seeds 2 and 3: less lucky than seed 1

# intent -> (share of queries, B's quality change on relevant documents)
INTENTS = {
    "informational": (0.30, 0.06),
    "navigational": (0.20, -0.20),
    "product": (0.18, 0.35),
    "local": (0.12, 0.30),
    "how-to": (0.12, 0.02),
    "news": (0.08, 0.00),
}


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate(outdir: Path) -> None:
    """Write the demo files into ``outdir``."""
    rng = np.random.default_rng(SEED)
    outdir.mkdir(parents=True, exist_ok=True)
    names = list(INTENTS)
    shares = np.array([INTENTS[n][0] for n in names])
    intent = rng.choice(len(names), size=N_QUERIES, p=shares / shares.sum())
    n_terms = rng.choice([1, 2, 3, 4, 5, 6, 8], size=N_QUERIES,
                         p=[0.15, 0.25, 0.22, 0.15, 0.1, 0.08, 0.05])
    length = np.where(n_terms <= 1, "head (1 term)",
                      np.where(n_terms <= 3, "torso (2-3 terms)", "tail (4+ terms)"))
    qids = [f"q{i:04d}" for i in range(N_QUERIES)]

    # navigational queries have one very relevant document; others a spread of grades
    probs = np.where(
        (np.array(names)[intent] == "navigational")[:, None],
        np.array([[0.96, 0.02, 0.01, 0.01]]),
        np.array([[0.86, 0.08, 0.04, 0.02]]),
    )
    cumulative = probs.cumsum(axis=1)
    u = rng.random((N_QUERIES, POOL))
    rel = (u[:, :, None] > cumulative[:, None, :]).sum(axis=2).clip(0, 3)
    nav = np.flatnonzero(np.array(names)[intent] == "navigational")
    rel[nav, rng.integers(0, POOL, size=nav.size)] = 3  # every navigational query has its page

    difficulty = rng.normal(0.0, 0.4, size=(N_QUERIES, 1))
    b_shift = np.array([INTENTS[n][1] for n in names])[intent][:, None]
    noise_a = rng.normal(0.0, 1.0, size=(N_QUERIES, POOL))
    noise_b = 0.7 * noise_a + rng.normal(0.0, 0.72, size=(N_QUERIES, POOL))  # correlated runs
    score_a = np.round(rel * (0.9 + difficulty) + noise_a, 2)
    # the neural reranker likes long documents, which the LLM judge over-rates: the proxy
    # judgements flatter B, a bias that only the gold sample can reveal (the PPI page's story)
    long_doc = rng.random((N_QUERIES, POOL)) < 0.4
    score_b = np.round(rel * (0.9 + difficulty + b_shift) + noise_b + 0.6 * long_doc, 2)
    doc_index = np.array([rng.permutation(100_000)[:POOL] for _ in range(N_QUERIES)])

    def run_lines(scores: np.ndarray, tag: str) -> list[str]:
        lines = []
        for q in range(N_QUERIES):
            order = np.argsort(-scores[q], kind="stable")[:DEPTH]
            for rank, d in enumerate(order, start=1):
                doc = f"doc{doc_index[q, d]:06d}"
                lines.append(f"{qids[q]} Q0 {doc} {rank} {scores[q, d]:.2f} {tag}")
        return lines

    _write(outdir / "bm25_baseline.trec", run_lines(score_a, "bm25_baseline"))
    _write(outdir / "neural_reranker.trec", run_lines(score_b, "neural_reranker"))

    # judged: every relevant document plus a pool of non-relevant ones
    judged = (rel > 0) | (rng.random((N_QUERIES, POOL)) < 0.35)
    u = rng.random((N_QUERIES, POOL))
    up = long_doc & (u < 0.35) | ~long_doc & (u < 0.08)
    down = ~up & (u > 0.93)
    proxy = np.clip(rel + up.astype(int) - down.astype(int), 0, 3)
    gold_queries = np.zeros(N_QUERIES, dtype=bool)
    gold_queries[rng.choice(N_QUERIES, size=int(0.15 * N_QUERIES), replace=False)] = True

    qrels, proxy_lines, gold = [], [], []
    for q in range(N_QUERIES):
        for d in np.flatnonzero(judged[q]):
            doc = f"doc{doc_index[q, d]:06d}"
            qrels.append(f"{qids[q]} 0 {doc} {rel[q, d]}")
            proxy_lines.append(f"{qids[q]} 0 {doc} {proxy[q, d]}")
            if gold_queries[q]:
                gold.append(f"{qids[q]} 0 {doc} {rel[q, d]}")
    _write(outdir / "qrels.trec", qrels)
    _write(outdir / "qrels_proxy.trec", proxy_lines)
    _write(outdir / "qrels_gold.trec", gold)
    _write(outdir / "segments.tsv", ["query_id\tintent\tlength"] + [
        f"{qids[q]}\t{names[intent[q]]}\t{length[q]}" for q in range(N_QUERIES)
    ])
    _dense_retriever(outdir, qids, probs, rel, difficulty, doc_index, judged, proxy,
                     [score_a, score_b])
    write_texts(outdir, qids, [names[k] for k in intent], n_terms, SEED)
    _neural_seeds(outdir, rel, difficulty, b_shift, noise_a, long_doc, run_lines)


def _neural_seeds(outdir: Path, rel: np.ndarray, difficulty: np.ndarray, b_shift: np.ndarray,
                  noise_a: np.ndarray, long_doc: np.ndarray,
                  run_lines: Callable[[np.ndarray, str], list[str]]) -> None:
    """Write ``neural_reranker_seed2.trec`` and ``_seed3``: the neural re-ranker's recipe
    trained again with two other seeds (``neural_reranker.trec`` is seed 1), from a stream of
    their own, last. Each seed shifts the whole run (a lucky or unlucky training run) and
    each query a little (query x seed), so the three runs beat BM25 on their mean while a
    new training run may not (issue 31)."""
    rng = np.random.default_rng([SEED, 31])
    for k, shift in ((2, SEED_SHIFTS[0]), (3, SEED_SHIFTS[1])):
        per_query = rng.normal(0.0, 0.08, size=(N_QUERIES, 1))
        noise = 0.7 * noise_a + rng.normal(0.0, 0.72, size=noise_a.shape)
        scores = np.round(rel * (0.9 + difficulty + b_shift + shift + per_query) + noise
                          + 0.6 * long_doc, 2)
        _write(outdir / f"neural_reranker_seed{k}.trec",
               run_lines(scores, f"neural_reranker_seed{k}"))


def _dense_retriever(outdir: Path, qids: list[str], probs: np.ndarray, rel: np.ndarray,
                     difficulty: np.ndarray, doc_index: np.ndarray, judged: np.ndarray,
                     proxy: np.ndarray, pool_scores: list[np.ndarray]) -> None:
    """Write ``dense_retriever.trec`` and ``qrels_proxy_full.trec`` from their own stream."""
    rng = np.random.default_rng([SEED, 2])
    # new documents: same grade distribution as the pool, ids outside the pool's id range
    u = rng.random((N_QUERIES, DENSE_NEW))
    new_rel = (u[:, :, None] > probs.cumsum(axis=1)[:, None, :]).sum(axis=2).clip(0, 3)
    new_index = np.array([100_000 + rng.permutation(100_000)[:DENSE_NEW]
                          for _ in range(N_QUERIES)])
    rels = np.concatenate([rel, new_rel], axis=1)
    ids = np.concatenate([doc_index, new_index], axis=1)
    noise = rng.normal(0.0, 1.0, size=rels.shape)
    score_d = np.round(rels * (0.95 + difficulty) + noise, 2)

    lines = []
    for q in range(N_QUERIES):
        order = np.argsort(-score_d[q], kind="stable")[:DEPTH]
        for rank, d in enumerate(order, start=1):
            lines.append(f"{qids[q]} Q0 doc{ids[q, d]:06d} {rank} {score_d[q, d]:.2f} "
                         "dense_retriever")
    _write(outdir / "dense_retriever.trec", lines)

    # the proxy judge (same bias: generous to long documents) on the judged documents and on
    # the top PROXY_DEPTH of every run
    new_long = rng.random((N_QUERIES, DENSE_NEW)) < 0.4
    u = rng.random((N_QUERIES, DENSE_NEW))
    up = new_long & (u < 0.35) | ~new_long & (u < 0.08)
    down = ~up & (u > 0.93)
    new_proxy = np.clip(new_rel + up.astype(int) - down.astype(int), 0, 3)
    labels = np.concatenate([proxy, new_proxy], axis=1)
    labelled = np.concatenate([judged, np.zeros((N_QUERIES, DENSE_NEW), dtype=bool)], axis=1)
    for scores in [*(np.pad(s, ((0, 0), (0, DENSE_NEW)), constant_values=-np.inf)
                     for s in pool_scores), score_d]:
        top = np.argsort(-scores, axis=1, kind="stable")[:, :PROXY_DEPTH]
        np.put_along_axis(labelled, top, True, axis=1)
    _write(outdir / "qrels_proxy_full.trec", [
        f"{qids[q]} 0 doc{ids[q, d]:06d} {labels[q, d]}"
        for q in range(N_QUERIES) for d in np.flatnonzero(labelled[q])
    ])


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "data")
