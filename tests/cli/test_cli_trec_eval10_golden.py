"""`ranklens evaluate` against trec_eval 10.0 itself: byte for byte on every golden case.

tests/golden/make_trec_eval10_golden.py wrote ``tests/golden/trec_eval10/`` by running a
trec_eval 10.0 binary (built from usnistgov/trec_eval f4253652) on inputs it generates;
``expected/status.json`` holds each case's arguments and trec_eval's exit status. Every case
runs here with the same arguments and must print the same bytes (and exit the same way).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.support.cli_helpers import Runner

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
ROOT = GOLDEN / "trec_eval10"
CASES = json.loads((ROOT / "expected" / "status.json").read_text(encoding="utf-8"))
# cases where trec_eval 10.0 stops at a judged query missing from the run (exit status 4)
STOPS = {name for name, case in CASES.items() if case["status"] == 4}


def comparable(text: str) -> list[str]:
    """The lines, with the value of ``rbp`` (default persistence) blanked: trec_eval 10.0's
    m_rbp.c reads two uninitialised variables (``double min, max``) when it maps gains into
    [0, 1], so its rbp depends on what the stack held (it changes with the other measures
    asked for). tests/metrics/test_trec_measures.py checks rbp against a direct computation.
    """
    return [line.rsplit("\t", 1)[0] if line.startswith("rbp ") else line
            for line in text.splitlines()]


@pytest.mark.parametrize("small_chunks", [False, True])
@pytest.mark.parametrize("name", sorted(set(CASES) - STOPS))
def test_the_same_bytes_as_trec_eval_10(ranklens: Runner, monkeypatch, name, small_chunks):
    """With ``small_chunks`` the loops that keep 7M-row temporaries out of memory (rbp_resid's
    ranks, the judged pairs' look-up, the rows per query) cut these small files into many
    pieces too."""
    if small_chunks:
        from ranklens.data import id_keys, tables, two_threads
        from ranklens.metrics import trec_measures

        monkeypatch.setattr(trec_measures, "_RANKS_AT_ONCE", 3)
        monkeypatch.setattr(id_keys, "_CHUNK", 5)
        monkeypatch.setattr(two_threads, "PARALLEL_FROM", 8)
        monkeypatch.setattr(tables, "_COUNT_CHUNK", 64)
    case = CASES[name]
    done = ranklens("evaluate", *case["args"], ROOT / "inputs" / case["qrels"],
                    ROOT / "inputs" / case["run"])
    expected = (ROOT / "expected" / f"{name}.txt").read_text(encoding="utf-8")
    assert done.code == case["status"], done.err
    assert comparable(done.out) == comparable(expected)
    if "rbp" not in done.out.replace("rbp_", ""):
        assert done.out == expected


@pytest.mark.parametrize("name", sorted(STOPS))
def test_a_judged_query_missing_without_c_stops_as_trec_eval_10(ranklens: Runner, name):
    case = CASES[name]
    done = ranklens("evaluate", *case["args"], ROOT / "inputs" / case["qrels"],
                    ROOT / "inputs" / case["run"])
    assert done.code == 4 and done.out == ""  # '000' sorts first: no query's lines come before
    query = case["stderr"].split("'")[1]  # trec_eval: result qid '000' not found in qrels
    assert f"judged query {query!r}" in done.err and "-c" in done.err


@pytest.mark.parametrize("gone", ["102", "7"])
def test_a_missing_query_stops_after_the_lines_of_the_queries_before_it(ranklens: Runner,
                                                                         tmp_path, gone):
    """trec_eval 10.0 walks the judged queries in byte order and prints each one's ``-q``
    lines until it meets one without a ranking, then exits with status 4. Its lines for the
    queries before are those of the complete run (a query's values do not depend on the
    others): the golden case ``all_trec_q_l1`` cut before the missing id. (Checked against the
    trec_eval 10.0 binary on this very input too: the same 288 lines for '102'.)"""
    run = tmp_path / "run.trec"
    run.write_text("".join(line for line in (ROOT / "inputs" / "run.trec").read_text(
        encoding="utf-8").splitlines(keepends=True) if line.split()[0] != gone),
        encoding="utf-8")
    case = CASES["all_trec_q_l1"]
    done = ranklens("evaluate", *case["args"], ROOT / "inputs" / case["qrels"], run)
    complete = (ROOT / "expected" / "all_trec_q_l1.txt").read_text(encoding="utf-8")
    before = [line for line in complete.splitlines(keepends=True)
              if line.split("\t")[1] not in ("all",) and line.split("\t")[1] < gone]
    assert done.code == 4, done.err
    assert before and comparable(done.out) == comparable("".join(before))
    assert f"judged query {gone!r}" in done.err


def test_the_inputs_are_what_the_script_writes(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make10", GOLDEN / "make_trec_eval10_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    written = module.write_inputs()
    for path in written.iterdir():
        assert path.read_bytes() == (ROOT / "inputs" / path.name).read_bytes(), path.name
    assert set(CASES) == set(module.CASES)
