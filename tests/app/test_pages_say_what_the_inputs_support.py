"""The pages on awkward inputs: names shown literally, defaults that follow, nothing overclaimed.

A file named ``click me **bold** $x^2$.trec`` reaches every error box escaped (Streamlit
renders alerts as Markdown and LaTeX); the MDE page's number of queries follows the spread's
source until the user types one; identical pilot runs plan nothing; a run tied on every query
is named with rank order offered, and rank order is there to choose.
"""

from __future__ import annotations

from pathlib import Path

from ranklens import demo
from ranklens.compare.analysis import demo_files
from ranklens.formats import literal
from ranklens.plan.analysis import no_spread_sentence, pilot_from_files
from tests.support.page_testing import metric_cards, run_page

ROOT = Path(__file__).resolve().parents[2]
DEMO = {role: path.read_bytes() for role, path in demo.paths().items()}
HOSTILE = "click me **bold** $x^2$.trec"
BROKEN_RUN = b"q0000 Q0 d1 1 notanumber tag\n"


def test_a_markdown_file_name_is_shown_literally_on_every_page() -> None:
    compare = run_page(ROOT / "app.py")  # Compare is the default page
    compare.radio(key="data_source").set_value("My files").run()
    for role, name, data in (("run_a", "a.trec", DEMO["run_a"]), ("run_b", HOSTILE, BROKEN_RUN),
                             ("qrels", "qrels.trec", DEMO["qrels"])):
        compare.file_uploader(key=f"upload_{role}").upload(name, data)
    next(b for b in compare.button if b.label == "Compare").click().run()

    mde = run_page(ROOT / "pages" / "mde.py")
    mde.radio(key="mde_source").set_value("My pilot runs").run()
    for key, name, data in (("mde_run_a", "a.trec", DEMO["run_a"]),
                            ("mde_run_b", HOSTILE, BROKEN_RUN),
                            ("mde_qrels", "qrels.trec", DEMO["qrels"])):
        mde.file_uploader(key=key).upload(name, data)
    mde.run()

    ppi = run_page(ROOT / "pages" / "ppi.py")
    ppi.radio(key="ppi_source").set_value("My files").run()
    for key, name, data in (("ppi_run_a", "a.trec", DEMO["run_a"]),
                            ("ppi_run_b", HOSTILE, BROKEN_RUN),
                            ("ppi_proxy", "proxy.trec", DEMO["qrels_proxy"]),
                            ("ppi_gold", "gold.trec", DEMO["qrels_gold"])):
        ppi.file_uploader(key=key).upload(name, data)
    ppi.run()

    escaped = "click me \\*\\*bold\\*\\* \\$x^2\\$.trec"
    assert literal(HOSTILE) == escaped
    for at in (compare, mde, ppi):
        assert not at.exception
        assert len(at.error) == 1, [e.value for e in at.error]
        message = at.error[0].value
        assert f"{escaped}, line 1" in message  # the name, escaped, then the line
        assert "**bold**" not in message and "$x^2$" not in message


def test_the_number_of_queries_follows_the_spread_source_until_typed() -> None:
    at = run_page(ROOT / "pages" / "mde.py")
    assert "MDE with 400 queries" in metric_cards(at)  # the demo pilot's 400
    at.radio(key="mde_source").set_value("Type it in").run()
    assert at.number_input(key="mde_n").value == 200  # the Methods page's example
    assert "MDE with 200 queries" in metric_cards(at)
    assert metric_cards(at)["MDE with 200 queries"] == "0.0198"
    at.radio(key="mde_source").set_value("Demo pilot runs").run()
    assert at.number_input(key="mde_n").value == 400  # back to the pilot's
    at.number_input(key="mde_n").set_value(1000).run()
    at.radio(key="mde_source").set_value("Type it in").run()
    assert at.number_input(key="mde_n").value == 1000  # a typed number stays
    assert "MDE with 1,000 queries" in metric_cards(at)


def test_a_pilot_of_another_size_replaces_the_default() -> None:
    lines = DEMO["run_a"].decode().splitlines(keepends=True)
    kept = {f"q{i:04d}" for i in range(150)}
    small_a = "".join(line for line in lines if line.split()[0] in kept).encode()
    small_b = "".join(line for line in DEMO["run_b"].decode().splitlines(keepends=True)
                      if line.split()[0] in kept).encode()
    at = run_page(ROOT / "pages" / "mde.py")
    assert at.number_input(key="mde_n").value == 400
    at.radio(key="mde_source").set_value("My pilot runs").run()
    for key, name, data in (("mde_run_a", "a.trec", small_a), ("mde_run_b", "b.trec", small_b),
                            ("mde_qrels", "qrels.trec", DEMO["qrels"])):
        at.file_uploader(key=key).upload(name, data)
    at.run()
    assert not at.exception and not at.error
    assert at.number_input(key="mde_n").value == 150
    assert "MDE with 150 queries" in metric_cards(at)


def test_identical_pilot_runs_say_there_is_no_spread() -> None:
    at = run_page(ROOT / "pages" / "mde.py")
    at.radio(key="mde_source").set_value("My pilot runs").run()
    for key, name, data in (("mde_run_a", "same_a.trec", DEMO["run_a"]),
                            ("mde_run_b", "same_b.trec", DEMO["run_a"]),
                            ("mde_qrels", "qrels.trec", DEMO["qrels"])):
        at.file_uploader(key=key).upload(name, data)
    at.run()
    assert not at.exception and not at.error
    files = demo_files()
    pilot = pilot_from_files(files["run_a"], files["run_a"], files["qrels"], "nDCG@10")
    assert pilot.sd == 0.0 and pilot.no_spread
    assert [w.value for w in at.warning] == [no_spread_sentence(0.0, pilot)]
    assert not any(label.startswith("MDE with") for label in metric_cards(at))
    assert not at.dataframe and not at.get("vega_lite_chart")


def test_a_tied_run_is_named_and_rank_order_can_be_chosen() -> None:
    flat = "".join(" ".join([*line.split()[:4], "1.0", line.split()[5]]) + "\n"
                   for line in DEMO["run_b"].decode().splitlines()).encode()
    at = run_page(ROOT / "app.py")  # Compare is the default page
    at.radio(key="data_source").set_value("My files").run()
    for role, name, data in (("run_a", "bm25.trec", DEMO["run_a"]),
                             ("run_b", "run_b_flat.trec", flat),
                             ("qrels", "qrels.trec", DEMO["qrels"])):
        at.file_uploader(key=f"upload_{role}").upload(name, data)
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception and not at.error
    warned = " ".join(w.value for w in at.warning)
    assert literal("run_b_flat (run_b_flat.trec) gives every document the same score on 400 "
                   "of its 400 queries") in warned
    assert "order by rank instead" in warned
    before = metric_cards(at)
    at.radio(key="order").set_value("rank").run()
    assert not at.exception and not at.error
    assert "same score" not in " ".join(w.value for w in at.warning)
    assert metric_cards(at) != before  # scored in the run's own order now


def test_a_loss_is_drawn_as_a_loss() -> None:
    at = run_page(ROOT / "app.py")  # Compare is the default page
    at.radio(key="data_source").set_value("My files").run()
    for role, name, data in (("run_a", "neural.trec", DEMO["run_b"]),
                             ("run_b", "bm25.trec", DEMO["run_a"]),
                             ("qrels", "qrels.trec", DEMO["qrels"])):
        at.file_uploader(key=f"upload_{role}").upload(name, data)
    next(b for b in at.button if b.label == "Compare").click().run()
    card = next(m for m in at.metric if m.label == "bm25 (B)")
    assert card.delta.startswith("\u2212")
    assert (card.proto.direction, card.proto.color) == (
        card.proto.MetricDirection.DOWN, card.proto.MetricColor.RED)
