#!/usr/bin/env python3
"""Remake tests/golden/trec_eval10/ with a trec_eval 10.0 binary built from its public source.

    python tests/golden/make_trec_eval10_golden.py /path/to/trec_eval

Writes inputs generated here (``inputs/``: a run and qrels with graded and negative grades,
score ties, ids ``7``/``07``/``10``, judged queries missing from the run whose ids sort first
(``000``) and last (``zzz``) and one (``mid``) whose qrels judge trec_eval's placeholder
document, a three-document ranking and one of 1,100, a query with grades up to 12, a query
with nothing relevant; hostile copies with padding, tabs, ``#`` lines and CRLF; a run sharing
no query with the qrels), runs the binary on each case of ``CASES`` and stores what it printed
(``expected/<case>.txt``) with its exit status (``expected/status.json``). The outputs are
facts about trec_eval 10.0 (usnistgov/trec_eval f4253652); no trec_eval code is used here.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "trec_eval10"
TAG = "golden10"
PLACEHOLDER = "ceci_nest_pas_un_docno"
ANSWERED = ("07", "7", "10", "101", "102", "103", "104", "105", "graded", "long", "short",
            "none_relevant")
MISSING = ("000", "mid", "zzz")

# case name -> (trec_eval arguments before the files, qrels file, run file)
CASES: dict[str, tuple[list[str], str, str]] = {}
for _level in (0, 1, 2, 3):
    CASES[f"all_trec_q_c_l{_level}"] = (["-q", "-c", f"-l{_level}", "-m", "all_trec"],
                                        "qrels.trec", "run.trec")
    CASES[f"all_trec_q_l{_level}"] = (["-q", f"-l{_level}", "-m", "all_trec"],
                                      "qrels_answered.trec", "run.trec")
    CASES[f"all_trec_q_c_J_l{_level}"] = (["-q", "-c", "-J", f"-l{_level}", "-m", "all_trec"],
                                          "qrels.trec", "run.trec")
CASES.update({
    "all_trec_q_J": (["-q", "-J", "-m", "all_trec"], "qrels_answered.trec", "run.trec"),
    "official_default": ([], "qrels_answered.trec", "run.trec"),
    "official_q_c": (["-q", "-c", "-m", "official"], "qrels.trec", "run.trec"),
    "all_trec_n_q_c": (["-n", "-q", "-c", "-m", "all_trec"], "qrels.trec", "run.trec"),
    "all_trec_c": (["-c", "-m", "all_trec"], "qrels.trec", "run.trec"),
    "all_trec_q_c_M5": (["-q", "-c", "-M", "5", "-m", "all_trec"], "qrels.trec", "run.trec"),
    "all_trec_q_M50_J": (["-q", "-M", "50", "-J", "-m", "all_trec"], "qrels_answered.trec",
                         "run.trec"),
    "all_trec_q_c_M0": (["-q", "-c", "-M", "0", "-m", "all_trec"], "qrels.trec", "run.trec"),
    "set_q_c_N": (["-q", "-c", "-N", "5000", "-m", "set", "-m", "utility.1,-1,-0.5,0.25"],
                  "qrels.trec", "run.trec"),
    "params_q_c": (["-q", "-c", "-m", "P.3,7,1100", "-m", "ndcg_cut.2,1000,2000",
                    "-m", "iprec_at_recall.0.75,0.25", "-m", "Rprec_mult.3,0.5",
                    "-m", "relstring.25", "-m", "rbp.p=0.5", "-m", "rbp_resid.p=0.5",
                    "-m", "success.2", "-m", "set_F.0.5", "-m", "11pt_avg.0.2,0.5,0.8",
                    "-m", "unj.1,3", "-m", "relative_P.2,50", "-m", "map_cut.4",
                    "-m", "recall.2,1200"], "qrels.trec", "run.trec"),
    "first_params_count": (["-m", "P.10,5", "-m", "P.20", "-m", "map"],
                           "qrels_answered.trec", "run.trec"),
    "by_name_q_c": (["-q", "-c", "-m", "dcg", "-m", "ideal_dcg", "-m", "gm_map",
                     "-m", "gm_bpref", "-m", "num_rel", "-m", "Rndcg"], "qrels.trec",
                    "run.trec"),
    "missing_without_c": (["-q", "-m", "map"], "qrels.trec", "run.trec"),
    "no_overlap_c": (["-q", "-c", "-m", "official"], "qrels.trec", "run_other.trec"),
    "issue_num_rel_c_l2": (["-c", "-l", "2", "-m", "num_rel"], "qrels_issue.trec",
                           "run_issue.trec"),
    "issue_num_rel_c": (["-c", "-m", "num_rel"], "qrels_issue.trec", "run_issue.trec"),
})
CASES["all_trec_q_c_binary"] = (["-q", "-c", "-m", "all_trec"], "qrels_binary.trec", "run.trec")
for _variant in ("padded", "tabs", "comments", "crlf"):
    CASES[f"all_trec_q_c_{_variant}"] = (["-q", "-c", "-m", "all_trec"],
                                         f"qrels_{_variant}.trec", f"run_{_variant}.trec")


def make_data(seed: int = 29) -> tuple[list[tuple[str, str, float]], list[tuple[str, str, int]]]:
    """(run rows (query, doc, score), qrels rows (query, doc, grade))."""
    rng = random.Random(seed)
    docs = [f"D{i:03d}" for i in range(80)] + ["7", "07", "10", "é2"]
    run: list[tuple[str, str, float]] = []
    qrels: list[tuple[str, str, int]] = []
    for query in ANSWERED + MISSING + ("run_only",):
        pool = docs if query != "long" else [f"L{i:04d}" for i in range(1100)] + docs
        if query not in MISSING:
            depth = {"short": 3, "long": 1100}.get(query, rng.randint(5, 60))
            for doc in rng.sample(pool, depth):
                run.append((query, doc, rng.choice([1.0, 1.5, 2.0, 2.5, 3.0, 0.25, -1.0])))
        if query == "run_only":
            continue
        judged = rng.sample(pool, rng.randint(8, 40) if query != "long" else 300)
        for doc in judged:
            if query == "none_relevant":
                grade = rng.choice([0, 0, -1])
            elif query == "graded":
                grade = rng.choice(range(0, 13))
            else:
                grade = rng.choice([-1, 0, 0, 0, 1, 2, 3])
            qrels.append((query, doc, grade))
        if query != "none_relevant":
            qrels.append((query, judged[0] + "x", 1))  # relevant, never retrieved
        if query == "mid":
            qrels.append((query, PLACEHOLDER, 1))  # trec_eval's placeholder, judged
    return run, qrels


def run_text(run: list[tuple[str, str, float]]) -> str:
    ranks: dict[str, int] = {}
    lines = []
    for query, doc, score in run:
        ranks[query] = ranks.get(query, 0) + 1
        lines.append(f"{query} Q0 {doc} {ranks[query]} {score:g} {TAG}\n")
    return "".join(lines)


def qrels_text(qrels: list[tuple[str, str, int]]) -> str:
    return "".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels)


def hostile(text: str, variant: str, seed: int) -> str:
    rng = random.Random(seed)
    if variant == "crlf":
        return text.replace("\n", "\r\n")
    if variant == "tabs":
        return "".join("\t".join(line.split(" ")) + "\n" for line in text.splitlines())
    if variant == "comments":
        lines = text.splitlines()
        lines.insert(len(lines) // 2, "# a comment in the middle")
        return "# written by make_trec_eval10_golden\n" + "\n".join(lines) + "\n"
    out = []
    for line in text.splitlines():
        fields = line.split(" ")
        out.append(rng.choice(["", " ", "  ", "\t"]) + "".join(
            f + rng.choice([" ", "\t", "  ", " \t"]) for f in fields[:-1]) + fields[-1]
            + rng.choice(["", " ", "\t"]))
    return "\n".join(out) + "\n"


def write_inputs() -> Path:
    inputs = HERE / "inputs"
    inputs.mkdir(parents=True, exist_ok=True)
    run, qrels = make_data()
    texts = {
        "run.trec": run_text(run),
        "qrels.trec": qrels_text(qrels),
        "qrels_answered.trec": qrels_text([row for row in qrels if row[0] not in MISSING]),
        "qrels_binary.trec": qrels_text([(q, d, min(g, 1)) for q, d, g in qrels]),
        "run_other.trec": run_text([("other", "D001", 1.0), ("other2", "D002", 2.0)]),
        "qrels_issue.trec": "1 0 a 2\n1 0 b 1\n2 0 c 1\n",
        "run_issue.trec": "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n",
    }
    for i, variant in enumerate(("padded", "tabs", "comments", "crlf")):
        texts[f"run_{variant}.trec"] = hostile(texts["run.trec"], variant, i)
        texts[f"qrels_{variant}.trec"] = hostile(texts["qrels.trec"], variant, 10 + i)
    for name, text in texts.items():
        (inputs / name).write_bytes(text.encode("utf-8"))
    return inputs


def main(binary: str) -> None:
    inputs = write_inputs()
    expected = HERE / "expected"
    expected.mkdir(parents=True, exist_ok=True)
    status = {}
    for name, (args, qrels, run) in CASES.items():
        done = subprocess.run([binary, *args, str(inputs / qrels), str(inputs / run)],
                              capture_output=True, check=False)
        (expected / f"{name}.txt").write_bytes(done.stdout)
        status[name] = {"args": args, "qrels": qrels, "run": run, "status": done.returncode,
                        "stderr": done.stderr.decode("utf-8", errors="replace")}
    (expected / "status.json").write_text(json.dumps(status, indent=1, ensure_ascii=False)
                                          + "\n", encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_trec_eval10_golden.py /path/to/trec_eval (10.0)")
    main(sys.argv[1])
