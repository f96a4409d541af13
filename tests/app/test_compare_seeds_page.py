"""The Compare page with systems trained with several seeds (issue 31), under AppTest.

The demo's "three training seeds" switch and a run slot holding several files: the page shows
both answers, named for what they answer, with the library's numbers on the same inputs.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ranklens import demo
from ranklens.compare.analysis import CompareSettings, load_inputs
from ranklens.formats import format_delta, format_interval, format_p
from tests.support.page_testing import metric_cards, run_page

ROOT = Path(__file__).resolve().parents[2]
PATHS = demo.paths()


def _library(seed_runs: tuple[int, ...], *runs: Path, segments: bool = True):  # type: ignore[no-untyped-def]
    inputs = load_inputs(*runs, qrels=PATHS["qrels"],
                         segments=PATHS["segments"] if segments else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return inputs.report(CompareSettings(seed_runs=seed_runs,
                                             segment_column="intent" if segments else None))


def _texts(at: AppTest) -> str:
    return "\n".join([*(m.value for m in at.markdown), *(c.value for c in at.caption),
                      *(w.value for w in at.warning), *(i.value for i in at.info)])


def test_demo_seeds_show_both_answers_with_the_library_numbers() -> None:
    at = run_page(ROOT / "app.py")
    at.toggle(key="demo_seeds").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    report = _library((1, 3), PATHS["run_a"], *demo.seed_paths())
    answer = report.seeds.answer("nDCG@10")
    texts = _texts(at)
    assert "**These trained runs**" in texts and "**A new training run**" in texts
    new_run = answer.comparison.new_run
    these = answer.comparison.these_runs
    cards = [(m.label, m.value) for m in at.metric]
    assert ("Interval", format_interval(new_run.low, new_run.high)) in cards
    assert ("Interval", format_interval(these.interval.low, these.interval.high)) in cards
    assert ("p", format_p(new_run.p_value)) in cards
    assert ("B \u2212 A", format_delta(these.delta)) in cards
    # the demo's story: these runs differ, a new training run may not beat BM25
    assert these.significant and not new_run.significant
    assert any("These runs differ; a new training run of neural_reranker may not beat "
               "bm25_baseline" in w.value for w in at.warning)
    assert "Variance components" in texts
    assert metric_cards(at)  # the verdict's cards are drawn too


def test_a_run_slot_takes_several_files() -> None:
    at = run_page(ROOT / "app.py")
    at.radio(key="data_source").set_value("My files").run()
    at.file_uploader(key="upload_run_a").upload("bm25.trec", PATHS["run_a"].read_bytes())
    uploader = at.file_uploader(key="upload_run_b")
    assert uploader.accept_multiple_files
    for k, path in enumerate(demo.seed_paths(), start=1):
        uploader.upload(f"neural_seed{k}.trec", path.read_bytes())
    at.file_uploader(key="upload_qrels").upload("qrels.trec", PATHS["qrels"].read_bytes())
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _texts(at)
    assert "**A new training run**" in texts
    report = _library((1, 3), PATHS["run_a"], *demo.seed_paths(), segments=False)
    new_run = report.seeds.answer("nDCG@10").comparison.new_run
    assert ("Interval", format_interval(new_run.low, new_run.high)) in [
        (m.label, m.value) for m in at.metric]
    assert any("**neural** (B) against **bm25** (A)" in c.value for c in at.caption)


def test_the_seeds_view_says_it_leaves_the_dense_retriever_out() -> None:
    """Issue 51: the toggle used to drop the demo's third run without a word."""
    from ranklens.app.compare_seeds import SEEDS_LEAVE_OUT

    at = run_page(ROOT / "app.py")
    assert all(SEEDS_LEAVE_OUT not in c.value for c in at.caption)
    at.toggle(key="demo_seeds").set_value(True).run()
    assert not at.exception
    assert any(SEEDS_LEAVE_OUT in c.value for c in at.caption)
