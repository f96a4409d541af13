"""ranklens.plan.analysis: the methods page's numbers, curves that behave, pilots measured right."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ranklens import io
from ranklens.compare.analysis import demo_files
from ranklens.data import MetricResult
from ranklens.io import InputFile
from ranklens.metrics import evaluate
from ranklens.plan.analysis import (
    DEFAULT_DELTAS,
    METHOD_NOTE,
    NON_SIGNIFICANT_MEANING,
    Pilot,
    mde_curve,
    n_grid,
    per_query_columns,
    pilot_from_columns,
    pilot_from_differences,
    pilot_from_files,
    pilot_from_runs,
    plan_queries,
    power_curve,
)
from ranklens.stats import minimum_detectable_effect, paired_deltas, standard_deviation


def test_methods_page_numbers() -> None:
    plan = plan_queries(0.1, n_queries=200)
    assert plan.mde is not None
    assert f"{plan.mde:.4f}" == "0.0198"
    assert DEFAULT_DELTAS == (0.02, 0.01, 0.005)
    assert [row.queries_needed for row in plan.rows] == [197, 785, 3140]


def test_methods_page_words() -> None:
    assert NON_SIGNIFICANT_MEANING == (
        "A non-significant result on a small sample does not mean “there is no effect”: "
        "it means the effect is below the resolution of this sample.")
    assert "noncentral t" in METHOD_NOTE and "Sakai" in METHOD_NOTE


@pytest.mark.parametrize("method", ["z", "t"])
def test_mde_curve_decreases_and_passes_through_the_plan(method: str) -> None:
    plan = plan_queries(0.15, n_queries=120, method=method)
    grid = n_grid(120, max(row.queries_needed for row in plan.rows))
    curve = mde_curve(0.15, grid, method=method)  # type: ignore[arg-type]
    assert (np.diff(curve["n_queries"]) > 0).all()
    assert (np.diff(curve["mde"]) < 0).all()
    at_n = float(curve.loc[curve["n_queries"] == 120, "mde"].iloc[0])
    assert at_n == pytest.approx(plan.mde, rel=1e-8)


def test_n_grid_spans_the_choice_and_every_target() -> None:
    grid = n_grid(37, 3140)
    assert 37 in grid
    assert grid.min() <= 5 and grid.max() >= 3140
    assert n_grid(3).min() >= 2


@pytest.mark.parametrize("n", [2, 3, 5, 10, 20, 30, 50])
def test_t_based_mde_is_at_least_the_z_based_at_small_n(n: int) -> None:
    z = minimum_detectable_effect(0.1, n, method="z")
    t_library = minimum_detectable_effect(0.1, n, method="t")
    t_curve = float(mde_curve(0.1, [n], method="t")["mde"].iloc[0])
    assert t_library >= z
    assert t_curve == pytest.approx(t_library, rel=1e-8)


@pytest.mark.parametrize(("alpha", "power"), [(0.01, 0.95), (0.1, 0.5), (0.05, 0.99)])
def test_t_curve_agrees_with_the_library_at_other_settings(alpha: float, power: float) -> None:
    for n in (4, 40, 400):
        fast = float(mde_curve(0.2, [n], alpha=alpha, target_power=power,
                               method="t")["mde"].iloc[0])
        slow = minimum_detectable_effect(0.2, n, alpha=alpha, power=power, method="t")
        assert fast == pytest.approx(slow, rel=1e-8)


@pytest.mark.parametrize("method", ["z", "t"])
def test_power_curve_rises_from_alpha_and_reaches_the_target_at_the_mde(method: str) -> None:
    curve = power_curve(0.1, 200, alpha=0.05, method=method, up_to=0.06)  # type: ignore[arg-type]
    assert curve["power"].iloc[0] == pytest.approx(0.05)
    assert (np.diff(curve["power"]) > 0).all()
    mde = minimum_detectable_effect(0.1, 200, method=method)
    at_mde = float(np.interp(mde, curve["true_difference"], curve["power"]))
    assert at_mde == pytest.approx(0.8, abs=0.01)


def test_zero_spread_gives_a_zero_curve() -> None:
    curve = mde_curve(0.0, [5, 50], method="t")
    assert (curve["mde"] == 0.0).all()


def _demo_results(metric: str = "nDCG@10") -> tuple[MetricResult, MetricResult]:
    files = demo_files()
    run_a, _ = io.read_run(files["run_a"].data, name=files["run_a"].name)
    run_b, _ = io.read_run(files["run_b"].data, name=files["run_b"].name)
    qrels, _ = io.read_qrels(files["qrels"].data)
    return (evaluate(run_a, qrels, [metric])[metric], evaluate(run_b, qrels, [metric])[metric])


def test_pilot_from_the_demo_runs_is_the_sd_of_paired_differences() -> None:
    result_a, result_b = _demo_results()
    _, deltas = paired_deltas(result_a.per_query, result_b.per_query)
    files = demo_files()
    measured = pilot_from_files(files["run_a"], files["run_b"], files["qrels"], "ndcg_cut_10")
    assert measured.metric == "nDCG@10"
    assert measured.n_queries == len(deltas) == 400
    assert measured.sd == pytest.approx(standard_deviation(deltas), rel=1e-12)
    assert measured.mean_delta == pytest.approx(float(deltas.mean()), rel=1e-12)
    assert "400 paired differences of nDCG@10" in measured.note


def test_pilot_from_runs_counts_queries_left_out() -> None:
    files = demo_files()
    run_a, _ = io.read_run(files["run_a"].data)
    run_b, _ = io.read_run(files["run_b"].data)
    qrels, _ = io.read_qrels(files["qrels"].data)
    measured = pilot_from_runs(run_a, run_b, qrels, "AP")
    assert measured.left_out == 0 and "left out" not in measured.note


def test_pilot_from_columns_two_runs_or_a_column_of_differences() -> None:
    a = MetricResult("m", {"q1": 0.1, "q2": 0.5, "q3": 0.2, "q4": 0.9})
    b = MetricResult("m", {"q1": 0.3, "q2": 0.4, "q3": 0.6, "q5": 0.1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = pilot_from_columns(a, b)
    assert pair.n_queries == 3 and pair.left_out == 2
    assert pair.sd == pytest.approx(float(np.std([0.2, -0.1, 0.4], ddof=1)))
    assert "2 queries measured on one side only" in pair.note
    differences = MetricResult("delta", {"q1": 0.2, "q2": -0.1, "q3": 0.4})
    alone = pilot_from_columns(None, differences)
    assert alone == pilot_from_differences(differences)
    assert alone.sd == pytest.approx(pair.sd)
    assert alone.source == "a column of per-query differences"


def test_per_query_columns_reads_a_wide_table() -> None:
    text = "query_id,bm25,neural\nq1,0.1,0.3\nq2,0.5,0.4\nq3,0.2,0.6\n"
    columns = per_query_columns(InputFile("table_a", "table.csv", text.encode()))
    assert set(columns) == {"bm25", "neural"}
    measured = pilot_from_columns(columns["bm25"], columns["neural"])
    assert isinstance(measured, Pilot) and measured.n_queries == 3


def test_a_bad_pilot_file_is_an_input_error_in_words() -> None:
    files = demo_files()
    broken = InputFile("run_b", "broken.trec", b"q1 Q0 d1 1 not-a-number tag\n")
    with pytest.raises(io.InputError, match=r"broken\.trec"):
        pilot_from_files(files["run_a"], broken, files["qrels"], "nDCG@10")


def test_an_unknown_metric_is_a_value_error() -> None:
    files = demo_files()
    with pytest.raises(ValueError):
        pilot_from_files(files["run_a"], files["run_b"], files["qrels"], "nonsense@3")


def test_one_mde_with_its_reason_below_and_above_78_queries() -> None:
    from ranklens.plan.views import mde_cards, mde_sentence, other_method_mde

    # issue 45: a 6-query pilot showed the z and the t MDE side by side with no word
    small = plan_queries(0.2, n_queries=6)
    assert small.method == "t"
    assert small.mde == minimum_detectable_effect(0.2, 6, method="t")
    assert small.mde == pytest.approx(0.28691, abs=5e-6)
    assert small.method_reason == (
        "t-based (paired t-test): below 78 queries, at alpha 0.05 and 80% power, the normal "
        "approximation overstates power (the normal approximation's MDE, 0.2287, would have "
        "61% real power)")
    sentence = mde_sentence(small, other_method_mde(small))
    assert "0.2869" in sentence and "0.2287" in sentence.split("Method:")[1]
    assert "z-based MDE" not in sentence and "t-based 0." not in sentence
    large = plan_queries(0.1, n_queries=200)
    assert large.method == "z" and large.mde == pytest.approx(0.0198, abs=5e-5)
    assert large.method_reason.startswith("z-based (normal approximation): from 78 queries on")
    card = mde_cards(large, large.rows[0], other_method_mde(large))[0]
    assert card.help.endswith("within one point of what the paired t-test achieves.")
    assert "z-method" not in card.help and "t-method" not in card.help


def test_a_method_asked_for_by_name_keeps_the_other_beside_it() -> None:
    from ranklens.plan.views import mde_sentence, other_method_mde

    plan = plan_queries(0.2, n_queries=6, method="z")
    assert plan.method == "z" and plan.method_reason == ""
    other = other_method_mde(plan)
    assert other == minimum_detectable_effect(0.2, 6, method="t")
    assert ("Method: z-based, as chosen in the settings; with the t-method: 0.2869."
            in mde_sentence(plan, other))
