"""``ranklens compare --queries/--docs/--ties`` and ``ranklens app --docs`` (issue 30): the
query text beside the ids of the queries B lost and won most (text, HTML, JSON), the moves that
explain them with document titles, tie-averaged metrics, and the server-side collection."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ranklens import demo
from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.compare.html import embedded_report
from ranklens.compare.query_texts import DOCS_ENV, QUERY_TEXT_CHARS
from ranklens.compare.report_tables import biggest_changes, per_query_table
from ranklens.compare.sections.queries import SHOWN
from ranklens.formats import format_delta
from ranklens.io import read_documents, read_queries
from ranklens.metrics import evaluate, explain_difference
from tests.support.cli_helpers import Runner

FAST = ("--n-resamples", "1000", "--n-permutations", "1000")
TEXTS = demo.text_paths()


@pytest.fixture(scope="module")
def demo_queries() -> dict[str, str]:
    return dict(read_queries(TEXTS["queries"]).queries)


@pytest.fixture(scope="module")
def lost_and_won() -> tuple[list[str], list[str], dict[str, float]]:
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    report = inputs.report(CompareSettings(n_resamples=1000, n_permutations=1000))
    table = per_query_table(report, "nDCG@10")
    lost, won = biggest_changes(table, n=SHOWN)
    return (list(lost["query_id"]), list(won["query_id"]),
            dict(zip(table["query_id"], table["delta"], strict=True)))


def test_text_output_names_the_lost_and_won_queries_with_their_text_and_moves(
        ranklens: Runner, runs: list[object], demo_queries, lost_and_won) -> None:
    outcome = ranklens("compare", *runs, "--queries", TEXTS["queries"], "--docs",
                       TEXTS["documents"], *FAST)
    assert outcome.code == 0, outcome.err
    lost, won, deltas = lost_and_won
    lines = outcome.out.splitlines()
    start = lines.index("Queries neural_reranker lost most")
    assert lines.index("Queries neural_reranker won most") > start
    for query in (*lost, *won):  # a row of the table: id, text, B - A
        row = next(line for line in lines if line.startswith(f"{query}  "))
        assert f"  {demo_queries[query]}  " in row and f"  {format_delta(deltas[query])}  " in row
    # the worst query's biggest move, with its document's title (from the collection)
    paths = demo.paths()
    inputs = load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])
    difference = explain_difference(inputs.run_a, inputs.run_b, inputs.qrels, "nDCG@10",
                                    lost[0])
    top = difference.main_moves()[0]
    title = read_documents(TEXTS["documents"]).lookup([top.doc_id])[top.doc_id].title
    said = " ".join(outcome.out.split())
    assert f'{top.doc_id} ("{title}")' in said
    assert f"{top.movement()}: {format_delta(top.delta)}" in said


def test_without_texts_the_text_output_has_no_query_lines(ranklens: Runner,
                                                          runs: list[object]) -> None:
    outcome = ranklens("compare", *runs, *FAST)
    assert outcome.code == 0
    assert "lost most" not in outcome.out


def test_json_carries_every_compared_querys_text_bounded(
        ranklens: Runner, runs: list[object], demo_queries, tmp_path: Path) -> None:
    long = tmp_path / "long.tsv"
    long.write_text("".join(f"{q}\t{t} {'word ' * 100}\n" for q, t in demo_queries.items()))
    outcome = ranklens("compare", *runs, "--queries", long, "--format", "json", *FAST)
    assert outcome.code == 0, outcome.err
    data = json.loads(outcome.out)
    texts = data["query_texts"]
    assert set(texts) == set(data["per_query"]["nDCG@10"]["a"])
    assert all(QUERY_TEXT_CHARS - 6 <= len(t) <= QUERY_TEXT_CHARS and t.endswith("\u2026")
               for t in texts.values())
    first = next(iter(texts))
    assert texts[first].startswith(demo_queries[first] + " word")
    assert data["inputs"][-1]["role"] == "queries"
    assert data["inputs"][-1]["summary"]["rows"] == len(demo_queries)
    # moves only with --docs or --queries; here with --queries: ids, no titles
    moves = data["query_moves"]["nDCG@10"]
    assert len(moves) == 2 * SHOWN and all('("' not in m for m in moves.values())


def test_html_export_shows_the_query_texts_and_embeds_them(
        ranklens: Runner, runs: list[object], demo_queries, lost_and_won,
        tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    outcome = ranklens("compare", *runs, "--queries", TEXTS["queries"], "--format", "html",
                       "-o", out, *FAST)
    assert outcome.code == 0, outcome.err
    page = out.read_text()
    lost, won, _ = lost_and_won
    assert "<h3>Queries neural_reranker lost most</h3>" in page
    for query in (lost[0], won[0]):
        assert f"<td>{query}</td><td>{demo_queries[query]}</td>" in page
    assert embedded_report(page).query_texts[lost[0]] == demo_queries[lost[0]]


def test_ties_average_scores_the_tie_averaged_metrics(ranklens: Runner, runs: list[object],
                                                      demo_paths) -> None:
    outcome = ranklens("compare", *runs, "--ties", "average", "-m", "ndcg@10", "-m", "ERR@20",
                       "--format", "json", *FAST)
    assert outcome.code == 0, outcome.err
    data = json.loads(outcome.out)
    assert [c["metric"] for c in data["comparisons"]] == ["nDCG(ties=average)@10", "ERR@20"]
    inputs = load_inputs(demo_paths["run_a"], demo_paths["run_b"], qrels=demo_paths["qrels"])
    expected = evaluate(inputs.run_a, inputs.qrels, ["ndcg@10"], ties="average")
    values = data["per_query"]["nDCG(ties=average)@10"]["a"]
    for query, value in expected["nDCG(ties=average)@10"].per_query.items():
        assert values[query] == pytest.approx(value, abs=1e-15)
    # the name spells it too, and means the same
    named = ranklens("compare", *runs, "-m", "nDCG(ties=average)@10", "--format", "json", *FAST)
    assert json.loads(named.out)["per_query"]["nDCG(ties=average)@10"]["a"] == values


def test_ties_average_needs_runs_to_score(ranklens: Runner, demo_paths, tmp_path) -> None:
    outcome = ranklens("compare", demo_paths["run_a"], demo_paths["run_b"], "--ties",
                       "average")
    assert outcome.code == 2 and "--ties average scores runs: give --qrels" in outcome.err


def test_a_bad_queries_file_is_an_input_error_naming_file_and_line(
        ranklens: Runner, runs: list[object], tmp_path: Path) -> None:
    bad = tmp_path / "queries.jsonl"
    bad.write_text('{"_id": "q0001", "text": "fine"}\n{"_id": "q0002", "text": \n')
    outcome = ranklens("compare", *runs, "--queries", bad, *FAST)
    assert outcome.code != 0
    assert "queries.jsonl" in outcome.err and "line 2" in outcome.err


def test_app_docs_sets_the_server_collection(ranklens: Runner, monkeypatch,
                                             tmp_path: Path) -> None:
    from streamlit.web import cli as streamlit_cli

    seen: list[str | None] = []
    monkeypatch.setattr(streamlit_cli, "main",
                        lambda args, prog_name: seen.append(os.environ.get(DOCS_ENV)))
    monkeypatch.delenv(DOCS_ENV, raising=False)
    assert ranklens("app", "--docs", TEXTS["documents"]).code == 0
    assert seen == [str(TEXTS["documents"].resolve())]
    missing = ranklens("app", "--docs", tmp_path / "nope.jsonl")
    assert missing.code == 2 and "no such file" in missing.err
    monkeypatch.delenv(DOCS_ENV, raising=False)
