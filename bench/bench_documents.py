"""Documents beside the rankings: index a big JSONL corpus once, then show one query's texts.

    python bench/bench_documents.py [--size-mb 1024] [--gzip]

Writes a synthetic BEIR-style ``corpus.jsonl`` (``_id``, ``title``, ``text``; about 1 KB a
document) of ``--size-mb`` MB into a temporary folder, then, in a fresh process each:

- ranklens: ``read_documents`` (the one streaming pass) and ``lookup`` of the 20 documents of
  one query's two top 10s; the extra memory is the peak resident size (sampled every 5 ms)
  over the resident size after imports;
- peer: what a lookup costs without an index, one Python pass over the file that keeps only
  the 20 ids wanted (``json.loads`` per line), as a page would have to do per query.

With ``--gzip`` the corpus is also gzip-compressed (level 1) and indexed by checkpoints. The
temporary folder is removed at the end. Targets (issue 30): extra memory <= 300 MB and a
lookup <= 2 s after the one-time pass.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

_CHILD = r"""
import json, sys, threading, time
path, mode, wanted = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
import ranklens.io  # noqa: F401  (imports are part of the baseline, not of the extra)
def current_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 1e6
peak = [0.0]
def sample():
    while True:
        peak[0] = max(peak[0], current_mb())
        time.sleep(0.005)
base = current_mb()
threading.Thread(target=sample, daemon=True).start()
def rss_mb():
    return max(peak[0], current_mb())
if mode == "ranklens":
    from ranklens.io import read_documents
    start = time.perf_counter()
    collection = read_documents(path)
    indexed = time.perf_counter() - start
    start = time.perf_counter()
    found = collection.lookup(wanted)
    lookup = time.perf_counter() - start
    start = time.perf_counter()
    again = collection.lookup(list(reversed(wanted)))
    second = time.perf_counter() - start
    assert len(found) == len(wanted) == len(again), (len(found), len(wanted))
    print(json.dumps({"index_s": indexed, "lookup_s": lookup, "second_lookup_s": second,
                      "extra_mb": rss_mb() - base, "documents": len(collection),
                      "index_mb": collection.index_bytes / 1e6}))
else:
    start = time.perf_counter()
    keep, found = set(wanted), {}
    with open(path, "rb") as handle:
        for line in handle:
            record = json.loads(line)
            if record["_id"] in keep:
                found[record["_id"]] = record
    assert len(found) == len(wanted)
    print(json.dumps({"pass_s": time.perf_counter() - start, "extra_mb": rss_mb() - base}))
"""


def write_corpus(path: Path, size_mb: int, seed: int = 30) -> list[str]:
    """A synthetic corpus of about ``size_mb`` MB; returns its ids in file order."""
    rng = np.random.default_rng(seed)
    vocabulary = [f"w{k:x}" for k in range(5_000)]
    snippets = [" ".join(rng.choice(vocabulary, size=int(rng.integers(80, 260))))
                for _ in range(2_000)]
    titles = [" ".join(rng.choice(vocabulary, size=int(rng.integers(3, 9))))
              for _ in range(500)]
    ids: list[str] = []
    written, target = 0, size_mb * 1_000_000
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            picks = rng.integers(0, len(snippets), size=10_000)
            heads = rng.integers(0, len(titles), size=10_000)
            lines = []
            for pick, head in zip(picks.tolist(), heads.tolist(), strict=True):
                doc = f"d{len(ids):08d}"
                ids.append(doc)
                # the words are plain ASCII: no JSON escaping needed (json.dumps is 5x slower)
                lines.append(f'{{"_id": "{doc}", "title": "{titles[head]}", '
                             f'"text": "{snippets[pick]}"}}')
            block = "\n".join(lines) + "\n"
            out.write(block)
            written += len(block)
    return ids


def _child(path: Path, mode: str, wanted: list[str]) -> dict[str, float]:
    result = subprocess.run([sys.executable, "-c", _CHILD, str(path), mode, json.dumps(wanted)],
                            check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--gzip", action="store_true", help="also measure the corpus gzipped")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ranklens-bench-docs-"))
    try:
        corpus = folder / "corpus.jsonl"
        start = time.perf_counter()
        ids = write_corpus(corpus, args.size_mb)
        print(f"corpus: {corpus.stat().st_size / 1e6:,.0f} MB, {len(ids):,} documents, "
              f"written in {time.perf_counter() - start:.1f} s")
        rng = np.random.default_rng(1)
        wanted = [ids[k] for k in rng.choice(len(ids), size=20, replace=False)]
        ours = _child(corpus, "ranklens", wanted)
        peer = _child(corpus, "peer", wanted)
        print(f"ranklens  one-time pass {ours['index_s']:6.2f} s   lookup of 20 documents "
              f"{ours['lookup_s'] * 1000:7.1f} ms (again {ours['second_lookup_s'] * 1000:.1f} "
              f"ms)   extra memory {ours['extra_mb']:6.0f} MB (index {ours['index_mb']:.0f} "
              "MB)")
        print(f"peer      Python pass per lookup (json.loads, keep 20) {peer['pass_s']:6.2f} s   "
              f"extra memory {peer['extra_mb']:6.0f} MB")
        print(f"ratio     peer pass / ranklens lookup = "
              f"{peer['pass_s'] / ours['lookup_s']:,.0f}x;  peer pass / ranklens one-time pass "
              f"= {peer['pass_s'] / ours['index_s']:.1f}x")
        if args.gzip:
            packed = folder / "corpus.jsonl.gz"
            start = time.perf_counter()
            with corpus.open("rb") as raw, gzip.open(packed, "wb", compresslevel=1) as out:
                shutil.copyfileobj(raw, out, 1 << 24)
            corpus.unlink()
            print(f"gzip: {packed.stat().st_size / 1e6:,.0f} MB, compressed in "
                  f"{time.perf_counter() - start:.1f} s")
            zipped = _child(packed, "ranklens", wanted)
            print(f"ranklens  gzip: one-time pass {zipped['index_s']:6.2f} s   lookup of 20 "
                  f"documents {zipped['lookup_s'] * 1000:7.1f} ms   extra memory "
                  f"{zipped['extra_mb']:6.0f} MB")
        ok = ours["extra_mb"] <= 300 and ours["lookup_s"] <= 2.0
        print(f"targets (extra memory <= 300 MB, lookup <= 2 s): {'met' if ok else 'MISSED'}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
