"""The bundled demo data is what the generator makes, and has the features the demo promises."""

from collections import Counter

import pytest

from ranklens import demo
from ranklens.demo.generate import generate


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generator's files, written once for the module's tests (it takes seconds): the
    tests that read them share one xdist group, so one worker writes them once."""
    folder = tmp_path_factory.mktemp("demo")
    generate(folder)
    return folder


@pytest.mark.xdist_group("demo-generator")
def test_generator_reproduces_the_bundled_files_byte_for_byte(generated):
    for role, path in demo.paths().items():
        assert (generated / path.name).read_bytes() == path.read_bytes(), role


def test_demo_runs_have_tied_scores_within_queries():
    lines = demo.paths()["run_a"].read_text().splitlines()
    per_query_scores = Counter((line.split()[0], line.split()[4]) for line in lines)
    tied = sum(1 for count in per_query_scores.values() if count > 1)
    assert tied > 100


def test_demo_segment_map_has_two_columns_and_a_handful_of_segments():
    rows = [line.split("\t") for line in demo.paths()["segments"].read_text().splitlines()]
    assert rows[0] == ["query_id", "intent", "length"]
    assert len(rows) - 1 == 400
    assert 4 <= len({row[1] for row in rows[1:]}) <= 8
    assert len({row[2] for row in rows[1:]}) == 3


def test_gold_queries_are_a_subset_with_proxy_judgements_for_each():
    def queries(role: str) -> set[str]:
        return {line.split()[0] for line in demo.paths()[role].read_text().splitlines()}

    gold, proxy = queries("qrels_gold"), queries("qrels_proxy")
    assert 40 <= len(gold) <= 80
    assert gold <= proxy


@pytest.mark.xdist_group("demo-generator")
def test_generator_reproduces_the_text_files_and_they_read(generated):
    from ranklens.io import read_documents, read_queries, read_run
    from ranklens.metrics.contributions import ranking

    for role, path in demo.text_paths().items():
        assert (generated / path.name).read_bytes() == path.read_bytes(), role
    queries, summary = read_queries(demo.text_paths()["queries"])
    assert len(queries) == 400 and not summary.set_aside
    rows = [line.split("\t") for line in demo.paths()["segments"].read_text().splitlines()[1:]]
    words = {"head (1 term)": {1}, "torso (2-3 terms)": {2, 3},
             "tail (4+ terms)": set(range(4, 9))}
    assert all(len(queries[query].split()) in words[length] for query, _, length in rows)
    documents = read_documents(demo.text_paths()["documents"])
    top, _ = ranking(read_run(demo.paths()["run_a"]).run, "q0313")
    found = documents.lookup(top.to_pylist()[:10])
    assert len(found) == 10 and all(doc.title and doc.text for doc in found.values())
