"""Generated text for the demo: a query text per query and a small documents file.

``queries.tsv`` (``id<TAB>text``, MS MARCO style) gives each query as many words as its
``length`` segment says (head: 1, torso: 2-3, tail: 4+), in the style of its intent.
``documents.jsonl.gz`` (BEIR ``corpus.jsonl``: ``_id``, ``title``, ``text``) holds the
documents of the top 10 of the three demo runs in trec_eval's order (not the whole pool: the
file stays small);
the better a document's grade for the query that first ranks it, the more of the query's
words its title and text repeat. All of it comes from its own random stream, after every
other demo file, so none of those bytes change. The text is generated, not real.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

TEXT_DEPTH = 10  # documents of each run's top 10 get a text

_TOPICS = {
    "informational": ["solar panels", "black holes", "inflation", "vitamin d", "photosynthesis",
                      "jet lag", "compound interest", "volcanoes", "sleep cycles", "tides"],
    "navigational": ["acme bank", "cityrail", "northwind mail", "globex store", "initech portal",
                     "umbrella health", "contoso cloud", "fabrikam tv", "tailspin air",
                     "wingtip toys"],
    "product": ["running shoes", "espresso machine", "noise cancelling headphones",
                "standing desk", "air purifier", "robot vacuum", "e-reader", "tent",
                "electric kettle", "gaming laptop"],
    "local": ["dentist", "pizza", "plumber", "yoga studio", "car repair", "vet clinic",
              "hardware store", "bakery", "hair salon", "pharmacy"],
    "how-to": ["fix a leaking tap", "bake sourdough", "change a tyre", "tie a tie",
               "learn python", "paint a wall", "unclog a drain", "plant tomatoes",
               "write a cv", "meditate"],
    "news": ["election results", "storm warning", "transfer window", "interest rates",
             "space launch", "film festival", "strike talks", "heat wave", "market close",
             "court ruling"],
}
_EXTRA = {
    "informational": ["how", "does", "work", "why", "explained", "meaning", "facts", "history"],
    "navigational": ["login", "sign", "in", "account", "official", "site", "app", "contact"],
    "product": ["best", "cheap", "review", "2026", "under", "200", "deal", "compare"],
    "local": ["near", "me", "open", "now", "downtown", "springfield", "late", "cheap"],
    "how-to": ["how", "to", "step", "by", "guide", "easy", "quick", "beginners"],
    "news": ["latest", "today", "live", "update", "breaking", "news", "report", "week"],
}
_FILLER = ["the", "of", "and", "a", "to", "in", "is", "for", "on", "with", "as", "by", "at",
           "from", "this", "that", "it", "are", "be", "or", "an", "was", "which", "their",
           "more", "can", "has", "also", "other", "about", "into", "most", "such", "these",
           "when", "page", "information", "people", "service", "years", "local", "time", "new",
           "first", "find"]
_CITIES = ["Springfield", "Riverton", "Lakeside", "Fairview", "Greenville", "Oakdale"]


def query_texts(rng: np.random.Generator, intents: list[str], n_terms: np.ndarray
                ) -> list[str]:
    """One text per query: the intent's topic and extra words, ``n_terms`` words long."""
    texts = []
    for intent, count in zip(intents, n_terms.tolist(), strict=True):
        topic = str(rng.choice(_TOPICS[intent])).split()
        if count < len(topic):  # "paint a wall" in two words is "paint wall"
            topic = [word for word in topic if word not in ("a", "to")]
        words = topic[:count]
        extra = list(rng.permutation(_EXTRA[intent]))
        while len(words) < count:
            words.append(str(extra.pop()) if extra else str(rng.choice(_FILLER)))
        texts.append(" ".join(words))
    return texts


def _document(rng: np.random.Generator, query: str, grade: int) -> tuple[str, str]:
    """(title, text): higher grades repeat more of the query's words."""
    words = query.split()
    keep = min(len(words), 1 + max(grade, 0))
    share = (0.02, 0.08, 0.15, 0.25)[min(max(grade, 0), 3)]
    title_words = list(words[:keep] if grade > 0 else rng.choice(words, size=1))
    title_words += [str(w) for w in rng.choice(_FILLER + _CITIES, size=int(rng.integers(1, 4)))]
    body = []
    for _ in range(int(rng.integers(15, 40))):
        body.append(str(rng.choice(words)) if rng.random() < share else str(rng.choice(_FILLER)))
    title = " ".join(title_words).capitalize()
    return title, " ".join(body).capitalize() + "."


def write_texts(outdir: Path, qids: list[str], intents: list[str], n_terms: np.ndarray,
                seed: int) -> None:
    """Write ``queries.tsv`` and ``documents.jsonl.gz`` from the runs and qrels in ``outdir``."""
    rng = np.random.default_rng([seed, 3])
    texts = query_texts(rng, intents, n_terms)
    (outdir / "queries.tsv").write_text(
        "".join(f"{q}\t{t}\n" for q, t in zip(qids, texts, strict=True)), encoding="utf-8")
    text_of = dict(zip(qids, texts, strict=True))
    grades: dict[tuple[str, str], int] = {}
    for line in (outdir / "qrels.trec").read_text().splitlines():
        query, _, doc, grade = line.split()
        grades[query, doc] = int(grade)
    first_query: dict[str, str] = {}
    for run in ("bm25_baseline.trec", "neural_reranker.trec", "dense_retriever.trec"):
        ranked: dict[str, list[tuple[float, str]]] = {}
        for line in (outdir / run).read_text().splitlines():
            query, _, doc, _, score, _ = line.split()
            ranked.setdefault(query, []).append((float(score), doc))
        for query, docs in ranked.items():
            # the top 10 the pages show: trec_eval's order (score, then doc id, descending),
            # not the rank column, which orders tied scores otherwise
            for _, doc in sorted(docs, reverse=True)[:TEXT_DEPTH]:
                first_query.setdefault(doc, query)
    records = []
    for doc in sorted(first_query):
        query = first_query[doc]
        title, body = _document(rng, text_of[query], grades.get((query, doc), 0))
        records.append(json.dumps({"_id": doc, "title": title, "text": body}) + "\n")
    # mtime=0: the same bytes on every run
    (outdir / "documents.jsonl.gz").write_bytes(
        gzip.compress("".join(records).encode("utf-8"), compresslevel=9, mtime=0))
