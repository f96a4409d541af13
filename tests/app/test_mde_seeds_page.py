"""The MDE page's seeds section (issue 31): how many seeds and queries, from the demo's seeds."""

from __future__ import annotations

from pathlib import Path

from ranklens import demo
from ranklens.formats import format_value
from ranklens.io import InputFile
from ranklens.plan.seeds import components_from_inputs, seed_plan
from tests.support.page_testing import metric_cards, run_page

ROOT = Path(__file__).resolve().parents[2]


def test_mde_page_plans_seeds_and_queries_from_the_demo_seeds() -> None:
    at = run_page(ROOT / "pages" / "mde.py")
    paths = demo.paths()
    components = components_from_inputs(
        [InputFile.from_path("run", paths["run_a"])],
        [InputFile.from_path("run", p) for p in demo.seed_paths()],
        InputFile.from_path("qrels", paths["qrels"]), "nDCG@10")
    assert components.b.n_seeds == 3 and components.a.seed is None
    cards = metric_cards(at)
    mde_label = next(label for label in cards if label.startswith("MDE, 3 seeds"))
    n_queries = int(mde_label.split("×")[1].split()[0].replace(",", ""))
    assert n_queries == 400  # the pilot's queries
    target_label = next(label for label in cards if label.startswith("Seeds for"))
    target = float(target_label.split()[2])
    plan = seed_plan(components, n_seeds=3, n_queries=400, delta=target)
    assert cards[mde_label] == format_value(plan.mde)
    shown = cards[target_label]
    assert shown == ("—" if plan.seeds_for_delta is None else str(plan.seeds_for_delta))
    # more seeds: a smaller MDE, never below what the queries alone allow
    at.number_input(key="mde_seeds_s").set_value(10).run()
    ten = seed_plan(components, n_seeds=10, n_queries=400, delta=target)
    assert ten.mde < plan.mde
    assert metric_cards(at)["MDE, 10 seeds × 400 queries"] == format_value(ten.mde)
