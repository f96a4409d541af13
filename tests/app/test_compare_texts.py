"""The Compare page with query and document texts (issue 30), under AppTest: the demo's texts
on a first visit, uploads, the server's collection, contributions, ties and the tie-averaged
order. Every value shown is checked against the library on the same files."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ranklens import demo
from ranklens.app import markup
from ranklens.compare.analysis import load_inputs
from ranklens.compare.query_texts import DOCS_ENV
from ranklens.compare.rankings import ranking
from ranklens.io import read_documents, read_queries
from ranklens.metrics import TREC_EVAL_TIE_RULE, contributions, cutoff_ties, tie_marks
from tests.app.test_compare_page import compare, labelled, start
from tests.compare.test_drilldown import tied_inputs
from tests.support.page_testing import open_sections

TEXTS = demo.text_paths()
QUERIES = dict(read_queries(TEXTS["queries"]).queries)
COLLECTION = read_documents(TEXTS["documents"])


@pytest.fixture(scope="module")
def first_visit() -> AppTest:
    return open_sections(start())  # per query and the drill-down: drawn once opened


@pytest.fixture(scope="module")
def demo_runs():
    paths = demo.paths()
    return load_inputs(paths["run_a"], paths["run_b"], qrels=paths["qrels"])


def frames_with(at: AppTest, column: str) -> list[pd.DataFrame]:
    return [d.value.reset_index(drop=True) for d in at.dataframe if column in d.value]


def test_per_query_tables_show_the_query_text_and_the_picker_searches_it(first_visit) -> None:
    tables = [f for f in frames_with(first_visit, "text") if "delta" in f]
    assert len(tables) == 2
    for table in tables:
        assert list(table["text"]) == [QUERIES[q] for q in table["query_id"]]
    picker = labelled(first_visit.selectbox, "Query")
    worst = picker.value
    assert picker.options[0].startswith(f"{worst} · {QUERIES[worst]}  (")
    assert any(f"\u201c{QUERIES[worst]}\u201d" in m.value for m in first_visit.markdown)


def test_rankings_show_titles_and_tie_marks(first_visit, demo_runs) -> None:
    query = labelled(first_visit.selectbox, "Query").value
    tables = frames_with(first_visit, "change")
    assert len(tables) == 2
    for table, run in zip(tables, (demo_runs.run_a, demo_runs.run_b), strict=True):
        found = COLLECTION.lookup(table["doc_id"])
        assert list(table["title"]) == [found[d].title if d in found else ""
                                        for d in table["doc_id"]]
        scores = np.array([s for _, s in ranking(run, query)])
        marks, crosses = tie_marks(scores, 10)
        expected = ["" if not m else f"tie {m}" + (" \u2702" if c else "")
                    for m, c in zip(marks[:10], crosses[:10], strict=True)]
        assert list(table["tie"]) == expected
    shares = [cutoff_ties(run, 10, query_ids=demo_runs.qrels.queries.to_pylist())
              for run in (demo_runs.run_a, demo_runs.run_b)]
    caption = next(c.value for c in first_visit.caption
                   if c.value.startswith("Queries whose rank 10 falls inside"))
    for s in shares:
        assert f"{100 * s.share:.1f}% ({s.n_crossing:,} of {s.n_queries:,})" in caption
    assert markup.text(f"Within such a group {TREC_EVAL_TIE_RULE}, so document ids") in caption
    texts = [e for e in first_visit.expander if e.label.startswith("Full texts:")]
    assert len(texts) == 2
    first_doc = tables[0]["doc_id"][0]
    assert any(COLLECTION.lookup([first_doc])[first_doc].text in _unmarked(m.value)
               for m in texts[0].markdown)
    # the query's terms are marked (issue 51): the demo's first query is "fabrikam tv"
    assert any(":orange-background[tv]" in m.value for m in texts[0].markdown)


def cached_rbo_of_demo():
    from ranklens import demo
    from ranklens.io import read_run
    from ranklens.metrics import rbo

    paths = demo.paths()
    return rbo(read_run(paths["run_a"]).run, read_run(paths["run_b"]).run, p=0.9)


def _unmarked(shown: str) -> str:
    """A text the page shows with the query's terms marked, without the marks."""
    return re.sub(r":orange-background\[([^\]]*)\]", r"\1", shown)


def test_contributions_sum_to_the_per_query_values(first_visit, demo_runs) -> None:
    query = labelled(first_visit.selectbox, "Query").value
    parts = [f for f in frames_with(first_visit, "contribution") if "doc_id" in f]
    assert len(parts) == 2
    for frame, run in zip(parts, (demo_runs.run_a, demo_runs.run_b), strict=True):
        expected = contributions(run, demo_runs.qrels, "nDCG@10", query)
        assert abs(frame["contribution"].sum() - expected.value) < 1e-12
        top = expected.to_frame().head(10)
        assert list(frame["grade"][:10]) == ["unjudged" if pd.isna(g) else str(g)
                                             for g in top["grade"]]
        assert list(frame["doc_id"][:10]) == list(top["doc_id"])
        np.testing.assert_allclose(frame["gain"][:10], top["gain"], rtol=0, atol=0)
        np.testing.assert_allclose(frame["discount"][:10], top["discount"], rtol=0, atol=0)
    ideal = [f for f in frames_with(first_visit, "contribution") if "doc_id" not in f]
    assert len(ideal) == 1 and abs(ideal[0]["contribution"].sum() - 1.0) < 1e-12
    sentence = next(m.value for m in first_visit.markdown if "B \u2212 A = " in m.value
                    and m.value.startswith("**"))
    assert sentence.startswith("**Most of B \u2212 A = ")


def test_tie_averaged_order_scores_the_tie_averaged_metric(first_visit) -> None:
    labelled(first_visit.radio, "Order documents by").set_value("average").run()
    assert not first_visit.exception
    assert any("nDCG(ties=average)@10" in m.value for m in first_visit.markdown)


def test_uploaded_texts_the_server_collection_and_the_tie_note(monkeypatch, tmp_path) -> None:
    inputs = tied_inputs()
    files = {f.role: f for f in inputs.files}
    queries = "".join(f"q{i:02d}\tquery number {i}\n" for i in range(60)).encode()
    collection = tmp_path / "corpus.jsonl"
    collection.write_text("".join(f'{{"_id": "d{d:02d}", "title": "Title {d}", "text": '
                                  f'"Body of document {d}."}}\n' for d in range(20)))
    monkeypatch.setenv(DOCS_ENV, str(collection))  # the server's collection, not uploaded
    at = start()
    labelled(at.radio, "Data").set_value("My files").run()
    for role in ("run_a", "run_b", "qrels"):
        at.file_uploader(key=f"upload_{role}").upload(files[role].name, files[role].data)
    at.file_uploader(key="upload_queries").upload("queries.tsv", queries)
    compare(at)
    warnings = [w.value for w in at.warning if "Score ties decide this verdict" in w.value]
    assert len(warnings) == 1 and markup.text("nDCG(ties=average)@10") in warnings[0]
    query = labelled(at.selectbox, "Query").value
    assert any(f"\u201cquery number {int(query[1:])}\u201d" in m.value for m in at.markdown)
    ranked = frames_with(at, "change")[0]
    assert list(ranked["title"]) == [f"Title {int(d[1:])}" for d in ranked["doc_id"]]
    assert set(ranked["tie"]) == {"tie 1 \u2702"}  # A ties all 20 documents


def test_a_bad_queries_file_is_said_and_the_comparison_still_shows() -> None:
    paths = demo.paths()
    at = start()
    labelled(at.radio, "Data").set_value("My files").run()
    for role in ("run_a", "run_b", "qrels"):
        at.file_uploader(key=f"upload_{role}").upload(paths[role].name, paths[role].read_bytes())
    at.file_uploader(key="upload_queries").upload(
        "queries.jsonl", b'{"_id": "q0001", "text": "ok"}\n{"_id": "q0002", "text": \n')
    compare(at)
    errors = [e.value for e in at.error]
    assert any(e.startswith("**This text file cannot be read.**") and "queries.jsonl" in e
               and "line 2" in e for e in errors), errors
    assert labelled(at.selectbox, "Query").options[0].startswith("q0313  (")


def test_queries_can_be_ordered_by_how_differently_the_runs_rank_them(first_visit) -> None:
    from ranklens.app.compare_queries import DELTA_ORDER, RBO_ORDER

    open_sections(first_visit)  # an earlier test's metric has its own sections, closed
    order = next(r for r in first_visit.radio if r.label == "Order queries by")
    order.set_value(RBO_ORDER).run()
    assert not first_visit.exception
    picker = next(s for s in first_visit.selectbox if s.label == "Query")
    shown = [option.split(" ")[0] for option in picker.options]
    overlap = dict(cached_rbo_of_demo().per_query)
    rbo = [overlap[q] for q in shown[:50]]
    assert rbo == sorted(rbo) and rbo[0] < rbo[-1]  # most reordered first
    assert len(shown) == len(set(shown)) > 100  # every query, once
    order.set_value(DELTA_ORDER).run()  # the module's page as the other tests expect it
