"""The PPI page's "Which queries to label next" (issue 47): the library's plan, in its words,
for the page's runs and proxy judgements; the budget and seed reach it; the CSV is the plan."""

from __future__ import annotations

from pathlib import Path

from ranklens import demo
from ranklens.io import read_qrels, read_run
from ranklens.ppi.labelling import plan_labels
from tests.support.page_testing import run_page

PAGE = Path(__file__).resolve().parents[2] / "pages" / "ppi.py"


def _library(budget: float, seed: int):
    paths = demo.paths()
    return plan_labels(read_run(paths["run_a"])[0], read_run(paths["run_b"])[0],
                       read_qrels(paths["qrels_proxy"])[0], metric="nDCG@10",
                       budget_queries=budget, seed=seed)


def _words(at) -> str:
    return "\n".join(m.value for m in at.markdown).replace("\\", "")


def test_the_page_shows_the_librarys_plan_and_follows_its_budget_and_seed():
    at = run_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    budget = at.number_input(key="plan_budget")
    assert budget.value == 40  # 10% of the demo's 400 queries
    for line in _library(40, 0).summary_lines():
        assert line in _words(at), line
    frame = next(d.value for d in at.dataframe if "Probability" in d.value.columns)
    expected = _library(40, 0).queries
    assert sorted(frame["Query"]) == sorted(expected.loc[expected["drawn"], "query_id"])

    budget.set_value(80).run()
    at.number_input(key="plan_seed").set_value(3).run()
    assert not at.exception, [e.value for e in at.exception]
    again = _library(80, 3)
    for line in again.summary_lines():
        assert line in _words(at), line
    frame = next(d.value for d in at.dataframe if "Probability" in d.value.columns)
    assert len(frame) == int(again.queries["drawn"].sum()) != len(expected[expected["drawn"]])


def test_the_plan_is_the_one_plan_labels_prints():
    """`ranklens plan-labels` prints the same lines (one home for the words)."""
    from ranklens.cli import main

    paths = demo.paths()
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["plan-labels", str(paths["run_a"]), str(paths["run_b"]),
                     "--proxy-qrels", str(paths["qrels_proxy"]), "--budget-queries", "40"])
    assert code == 0
    for line in _library(40, 0).summary_lines():
        assert line in err.getvalue(), line


def _gold_of(plan) -> bytes:
    """The demo's true grades of the plan's documents only, as TREC qrels."""
    asked = set(zip(plan.documents["query_id"], plan.documents["doc_id"], strict=True))
    lines = [line for line in demo.paths()["qrels"].read_text(encoding="utf-8").splitlines()
             if (line.split()[0], line.split()[2]) in asked]
    return ("\n".join(lines) + "\n").encode()


def test_the_plans_gold_labels_give_the_librarys_interval_and_others_are_refused():
    from ranklens.ppi.labelling import design_sentence
    from ranklens.ppi.rounds import design_estimate_from_gold

    paths = demo.paths()
    plan = _library(40, 0)
    at = run_page(PAGE)
    at.file_uploader(key="plan_gold").upload("gold.trec", _gold_of(plan))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    gold = read_qrels(_gold_of(plan), name="gold.trec")[0]
    estimate, _ = design_estimate_from_gold(
        plan.documents, read_run(paths["run_a"])[0], read_run(paths["run_b"])[0],
        read_qrels(paths["qrels_proxy"])[0], gold)
    sentence = design_sentence(estimate, "nDCG@10")
    assert sentence in _words(at) and "drawn by the plan" in sentence

    at.file_uploader(key="plan_gold").upload("all.trec", paths["qrels"].read_bytes())
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "Cannot use these gold labels" in errors and "the plan did not ask for" in errors


def test_a_new_budget_or_seed_draws_again_without_reading_the_runs_again(monkeypatch):
    """The runs and proxy judgements are parsed once per upload (`state.parsed_run`): a budget or
    a seed the page has not drawn yet makes a new plan from the parsed inputs."""
    from ranklens.app import state

    reads: list[str] = []
    for name in ("read_run", "read_qrels"):
        real = getattr(state, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(state, name, counting)
    at = run_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    first = len(reads)
    assert first <= 3  # two runs and the proxy judgements, unless another test read them
    at.number_input(key="plan_budget").set_value(57).run()
    at.number_input(key="plan_seed").set_value(11).run()
    assert not at.exception, [e.value for e in at.exception]
    for line in _library(57, 11).summary_lines():
        assert line in _words(at), line
    assert len(reads) == first
