"""Labelling in rounds on the PPI page (issue 47): the gold labels of each round give B - A
after every round in the words ``ranklens ppi --design`` prints, and the next round is the
one ``ranklens plan-labels --design PLAN --gold-qrels GOLD`` draws, as a plan file that the
page takes back for the round after."""

from __future__ import annotations

from pathlib import Path

from ranklens import demo
from ranklens.data import Qrels
from ranklens.io import read_qrels, read_run
from ranklens.metrics.top_k import grades_frame
from ranklens.ppi.labelling import Rounds, plan_csv, plan_labels
from ranklens.ppi.rounds import design_looks, look_sentence, plan_next_round
from tests.support.page_testing import run_page

PAGE = Path(__file__).resolve().parents[2] / "pages" / "ppi.py"
DEMO = {role: path.read_bytes() for role, path in demo.paths().items()}


def _close_run_b() -> bytes:
    """The demo's run A, except on 30 queries where it is the demo's run B: a B - A small
    enough that one round of 10 labelled queries does not settle its sign."""
    lines_a = DEMO["run_a"].decode().splitlines()
    lines_b = DEMO["run_b"].decode().splitlines()
    moved = sorted({line.split()[0] for line in lines_b})[:30]
    kept = [line for line in lines_a if line.split()[0] not in moved]
    return ("\n".join(kept + [line for line in lines_b if line.split()[0] in moved])
            + "\n").encode()


def _gold(rows, truth: Qrels) -> bytes:
    """The true grades of the plan's documents (every round's), as TREC qrels."""
    grades = grades_frame(truth).merge(rows[["query_id", "doc_id"]].drop_duplicates(),
                                       on=["query_id", "doc_id"])
    return "".join(f"{q} 0 {d} {int(g)}\n" for q, d, g in
                   zip(grades["query_id"], grades["doc_id"], grades["grade"], strict=True)
                   ).encode()


def _words(at) -> str:
    return "\n".join(m.value for m in at.markdown).replace("\\", "")


def test_each_rounds_gold_labels_give_the_librarys_looks_and_its_next_round():
    run_b = _close_run_b()
    runs = read_run(DEMO["run_a"], name="a.trec")[0], read_run(run_b, name="b.trec")[0]
    proxy = read_qrels(DEMO["qrels_proxy"], name="proxy.trec")[0]
    truth = read_qrels(DEMO["qrels"], name="qrels.trec")[0]
    first = plan_labels(*runs, proxy, budget_queries=10, seed=2, rounds=Rounds(max_rounds=3))

    at = run_page(PAGE)
    at.radio(key="ppi_source").set_value("My files").run()
    for key, name, data in (("ppi_run_a", "a.trec", DEMO["run_a"]), ("ppi_run_b", "b.trec", run_b),
                            ("ppi_proxy", "proxy.trec", DEMO["qrels_proxy"]),
                            ("ppi_gold", "gold.trec", DEMO["qrels_gold"])):
        at.file_uploader(key=key).upload(name, data)
    at.run()
    at.number_input(key="plan_budget").set_value(10).run()
    at.number_input(key="plan_seed").set_value(2).run()
    at.number_input(key="plan_rounds").set_value(3).run()
    assert not at.exception, [e.value for e in at.exception]
    for line in first.summary_lines():
        assert line in _words(at), line  # round 1 of at most 3, its rule in words

    gold_1 = _gold(first.design, truth)
    at.file_uploader(key="plan_gold").upload("gold1.trec", gold_1)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    looks, _ = design_looks(first.design, *runs, proxy, read_qrels(gold_1)[0])
    said = look_sentence(looks[0], first.metric)
    assert said in _words(at) and "label round 2" in said
    second = plan_next_round(first.design, *runs, proxy, read_qrels(gold_1)[0],
                             budget_queries=10, seed=2)
    for line in second.summary_lines():
        assert line in _words(at), line
    assert any(b.label == "Plan with round 2 (CSV)" for b in at.get("download_button"))

    # the round 2 plan file and the gold labels of both rounds: B - A after each round
    gold_2 = _gold(second.design, truth)
    at.file_uploader(key="plan_design").upload("plan2.csv", plan_csv(second.design).encode())
    at.file_uploader(key="plan_gold").upload("gold2.trec", gold_2)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    looks, _ = design_looks(second.design, *runs, proxy, read_qrels(gold_2)[0])
    assert len(looks) == 2
    for look in looks:
        assert look_sentence(look, first.metric) in _words(at)

    # round 1's gold labels alone leave round 2 unlabelled: refused in words
    at.file_uploader(key="plan_gold").upload("gold1.trec", gold_1)
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "Cannot use these gold labels" in errors and "round 2" in errors, errors


def test_a_file_that_is_not_a_plan_is_refused_in_words():
    at = run_page(PAGE)
    at.file_uploader(key="plan_design").upload("notes.csv", b"query,text\nq1,hello\n")
    at.file_uploader(key="plan_gold").upload("gold.trec", DEMO["qrels_gold"])
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "notes.csv: not a plan of 'ranklens plan-labels'" in errors, errors
