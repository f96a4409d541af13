#!/usr/bin/env python3
"""Regenerate the trec_eval golden files of tests/golden/trec_eval/ from pytrec_eval.

    .venv/bin/python tests/golden/make_trec_eval_golden.py

Writes a run and qrels (``inputs/run.trec``, ``inputs/qrels.trec``) with ties, grades -1..3,
ids ``007`` and ``7``, queries only in the run and only in the qrels, a short ranking and a
query with nothing relevant; hostile copies of the same data (padded fields, tab and blank
mixtures, comment lines, CRLF); and for ``-l 1/2/3``, with and without ``-c``, with and
without ``-J``, the lines ``trec_eval -q [-c] [-J] -l N -m all_trec qrels run`` prints for the
measures ranklens computes (``expected/*.txt``).

Per-query values come from pytrec_eval (trec_eval 9.0.8). The summary lines follow trec_eval's
rules (measures.c, meas_avg.c): values are added in query order and divided by the number of
evaluated queries, or with ``-c`` by the number of qrels queries; ``num_ret``, ``num_rel``,
``num_rel_ret`` are sums over the evaluated queries; ``gm_map`` is exp of the mean of
log(max(AP, 0.00001)), a missing query adding log(0.00001). Two measures pytrec_eval 9.0.8
does not have are written from trec_eval 10's definitions: ``runid`` (the tag of the run's
last line) and ``unj_k`` (m_unjudged.c: top-k documents absent from the qrels or graded < 0,
over k). Lines are printed as trec_eval prints them: ``%-22s\\t%s\\t%6.4f``, counts ``%ld``.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytrec_eval

HERE = Path(__file__).resolve().parent / "trec_eval"
CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
# trec_eval's measure order (measures.c) for the measures ranklens computes
ORDER = [("num_ret", None), ("num_rel", None), ("num_rel_ret", None), ("map", None),
         ("gm_map", None), ("Rprec", None), ("bpref", None), ("recip_rank", None), ("P", CUTS),
         ("recall", CUTS), ("ndcg", None), ("ndcg_cut", CUTS), ("map_cut", CUTS),
         ("success", (1, 5, 10)), ("unj", (5, 10, 20))]
COUNTS = {"num_ret", "num_rel", "num_rel_ret"}
PYTREC = {"num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
          "P", "recall", "ndcg", "ndcg_cut", "map_cut", "success"}
TAG = "golden_run"


def make_data(seed: int = 14) -> tuple[list[tuple[str, str, int, float]], list[tuple[str, str,
                                                                                         int]]]:
    rng = random.Random(seed)
    docs = [f"D{i:03d}" for i in range(60)] + ["007", "7", "d-1", "é2"]
    run: list[tuple[str, str, int, float]] = []
    qrels: list[tuple[str, str, int]] = []
    queries = ["007", "7", "101", "102", "103", "104", "105", "106", "run_only", "qrels_only",
               "short", "none_relevant"]
    for query in queries:
        if query != "qrels_only":
            depth = 3 if query == "short" else rng.randint(5, 40)
            ranked = rng.sample(docs, depth)
            scores = [rng.choice([1.0, 1.5, 2.0, 2.5, 3.0]) for _ in ranked]  # many ties
            order = sorted(range(depth), key=lambda i: -scores[i])
            run += [(query, ranked[i], rank + 1, scores[i]) for rank, i in enumerate(order)]
        if query != "run_only":
            judged = rng.sample(docs, rng.randint(8, 30))
            for doc in judged:
                grade = 0 if query == "none_relevant" else rng.choice([-1, 0, 0, 0, 1, 2, 3])
                qrels.append((query, doc, grade))
            if query != "none_relevant":
                qrels.append((query, judged[0] + "x", 1))  # a relevant document never retrieved
    return run, qrels


def clean_texts(run, qrels) -> tuple[str, str]:
    run_text = "".join(f"{q} Q0 {d} {r} {s:g} {TAG}\n" for q, d, r, s in run)
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels)
    return run_text, qrels_text


def hostile_texts(run, qrels, seed: int = 7) -> dict[str, tuple[str, str]]:
    rng = random.Random(seed)

    def blanks() -> str:
        return rng.choice([" ", "\t", "  ", " \t", "\t ", "\t\t"])

    def line(fields) -> str:
        return rng.choice(["", " ", "\t", "  "]) + "".join(
            f + blanks() for f in fields[:-1]) + fields[-1] + rng.choice(["", " ", "\t"])

    padded_run = "".join(line([q, "Q0", d, str(r), f"{s:g}", TAG]) + "\n" for q, d, r, s in run)
    padded_qrels = "".join(line([q, "0", d, str(g)]) + "\n" for q, d, g in qrels)
    tabbed_run = "".join(f"{q}\tQ0\t{d}\t{r}\t  {s:g}\t{TAG}\n" for q, d, r, s in run)
    run_text, qrels_text = clean_texts(run, qrels)
    commented_run = "# a run with comments\n" + run_text.replace(
        "\n", "\n# pool depth 100\n", 3) + "  # the end\n"
    commented_qrels = "# judgements\n" + qrels_text.replace("\n", "\n  # assessor 2\n", 2)
    return {
        "padded": (padded_run, padded_qrels),
        "tab_padded_score": (tabbed_run, qrels_text),
        "comments": (commented_run, commented_qrels),
        "crlf": (run_text.replace("\n", "\r\n"), qrels_text.replace("\n", "\r\n")),
    }


def unj(ranking: list[str], judged: dict[str, int], k: int) -> float:
    return sum(1 for d in ranking[:k] if judged.get(d, -1) < 0) / k


def trec_order(docs: dict[str, float]) -> list[str]:
    return [d for d, _ in sorted(docs.items(), key=lambda x: (x[1], x[0].encode()), reverse=True)]


def expected_lines(run, qrels, *, level: int, complete: bool, judged_only: bool) -> list[str]:
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, _, s in run:
        run_dict.setdefault(q, {})[d] = s
    qrels_dict: dict[str, dict[str, int]] = {}
    for q, d, g in qrels:
        qrels_dict.setdefault(q, {})[d] = g
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels_dict, {"num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                     "recip_rank", "P", "recall", "ndcg", "ndcg_cut", "map_cut", "success"},
        relevance_level=level, judged_docs_only_flag=judged_only)
    values = evaluator.evaluate(run_dict)
    queries = sorted(values)
    for query in queries:
        ranking = trec_order(run_dict[query])
        if judged_only:
            ranking = [d for d in ranking if qrels_dict[query].get(d, -1) >= 0]
        for k in (5, 10, 20):
            values[query][f"unj_{k}"] = unj(ranking, qrels_dict[query], k)
    n_missing = len(set(qrels_dict) - set(run_dict)) if complete else 0
    n_average = len(queries) + n_missing
    names = [(name, [name] if cuts is None else [f"{name}_{k}" for k in cuts])
             for name, cuts in ORDER]
    lines = []
    for query in queries:
        for root, printed in names:
            for name in printed:
                lines.append(format_line(name, query, values[query][name], root in COUNTS))
    lines.append(f"{'runid':<22}\tall\t{TAG}")
    lines.append(f"{'num_q':<22}\tall\t{n_average}")
    for root, printed in names:
        for name in printed:
            total = 0.0
            for query in queries:
                total += values[query][name]
            if root in COUNTS:
                lines.append(format_line(name, "all", total, True))
            elif root == "gm_map":
                total += n_missing * math.log(0.00001)
                lines.append(format_line(name, "all", math.exp(total / n_average), False))
            else:
                lines.append(format_line(name, "all", total / n_average, False))
    return lines


def format_line(name: str, query: str, value: float, count: bool) -> str:
    return f"{name:<22}\t{query}\t{int(value)}" if count else f"{name:<22}\t{query}\t{value:6.4f}"


def golden_name(level: int, complete: bool, judged_only: bool) -> str:
    return f"q{'_c' if complete else ''}{'_J' if judged_only else ''}_l{level}.txt"


def main() -> None:
    run, qrels = make_data()
    inputs = HERE / "inputs"
    expected = HERE / "expected"
    inputs.mkdir(parents=True, exist_ok=True)
    expected.mkdir(parents=True, exist_ok=True)
    run_text, qrels_text = clean_texts(run, qrels)
    (inputs / "run.trec").write_text(run_text, encoding="utf-8", newline="")
    (inputs / "qrels.trec").write_text(qrels_text, encoding="utf-8", newline="")
    for variant, (hostile_run, hostile_qrels) in hostile_texts(run, qrels).items():
        (inputs / f"run_{variant}.trec").write_text(hostile_run, encoding="utf-8", newline="")
        (inputs / f"qrels_{variant}.trec").write_text(hostile_qrels, encoding="utf-8",
                                                      newline="")
    for level in (1, 2, 3):
        for complete in (False, True):
            for judged_only in (False, True):
                lines = expected_lines(run, qrels, level=level, complete=complete,
                                       judged_only=judged_only)
                (expected / golden_name(level, complete, judged_only)).write_text(
                    "".join(line + "\n" for line in lines), encoding="utf-8")


if __name__ == "__main__":
    main()
