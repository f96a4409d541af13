"""The seeds section as tables and sentences: the one home of what every face shows of it.

For a report whose systems were given as several runs (`ranklens.compare.seed_section`): the
two answers side by side (`answers_table`), the variance components (`components_table`),
each seed of the candidate against the baseline (`per_seed_table`), the new-run leaderboard of
several candidates (`leaderboard_table`) and the sentences (`sentences`). The seeds section
(``ranklens.compare.sections.seeds``, which also holds the leaderboard's section), the HTML
export and the page draw these tables; the CSV's cells are built here. It reads numbers from
the report, computes none.
"""

from __future__ import annotations

from ranklens.compare.report import Report
from ranklens.compare.seed_section import (
    NEW_RUN,
    NEW_RUN_QUESTION,
    THESE_RUNS,
    THESE_RUNS_QUESTION,
    SeedAnswer,
    disagreement,
    not_measured_note,
)
from ranklens.formats import (
    DASH,
    format_delta,
    format_interval,
    format_p,
    format_value,
    level_number,
)
from ranklens.stats.random_effects import RANDOM_EFFECTS_METHOD

Table = tuple[list[str], list[list[str]]]

ANSWERS_HEADER = ["answer", "answers", "B \u2212 A", "interval", "p", "method"]
COMPONENTS_HEADER = ["source", "A", "B", "share of new-run variance"]
PER_SEED_HEADER = ["run of B", "B \u2212 A", "interval", "p"]
LEADERBOARD_HEADER = ["candidate", "seeds", "new run B \u2212 A", "interval", "p",
                      "adjusted p (Holm)"]
CSV_COLUMNS = ("answer", "new_run_delta", "new_run_low", "new_run_high", "new_run_p",
               "new_run_df", "new_run_adjusted_p", "var_query", "var_seed", "var_query_seed")
"""Columns a report with seeds adds to every CSV row (filled on overall rows; the per-seed
rows name their run in ``answer``)."""


def answers_table(answer: SeedAnswer) -> Table:
    """The two answers side by side: what each answers, B - A, interval, p, method."""
    these = answer.comparison.these_runs
    rows = [[THESE_RUNS, THESE_RUNS_QUESTION, format_delta(these.delta),
             format_interval(these.interval.low, these.interval.high), format_p(these.p_value),
             f"{these.interval.method} on the per-query seed means"]]
    new_run = answer.comparison.new_run
    if new_run is None:
        rows.append([NEW_RUN, NEW_RUN_QUESTION, DASH, "not measurable: one run per system",
                     DASH, DASH])
    else:
        rows.append([NEW_RUN, NEW_RUN_QUESTION, format_delta(new_run.estimate),
                     format_interval(new_run.low, new_run.high), format_p(new_run.p_value),
                     f"{RANDOM_EFFECTS_METHOD}, df {new_run.df:.1f}"])
    return ANSWERS_HEADER, rows


def _variance(value: float | None) -> str:
    return DASH if value is None else f"{value:.3g}"


def components_table(answer: SeedAnswer) -> Table:
    """Query, seed and query x seed variance of each system, and each part's share of the
    new-run estimate's variance."""
    c = answer.comparison.components
    total = c.query_part + c.seed_part
    share = {"seed": c.seed_part / total if total else 0.0,
             "query": c.query_part / total if total else 0.0}
    rows = [
        ["query", _variance(c.a.query), _variance(c.b.query),
         f"{100 * share['query']:.0f}% (paired differences)"],
        ["seed", _variance(c.a.seed), _variance(c.b.seed), f"{100 * share['seed']:.0f}%"],
        ["query \u00d7 seed", _variance(c.a.query_seed), _variance(c.b.query_seed),
         "within the query part"],
    ]
    return COMPONENTS_HEADER, rows


def per_seed_table(answer: SeedAnswer) -> Table:
    """Each run of B against the mean of A's runs."""
    rows = [[name, format_delta(r.delta), format_interval(r.interval.low, r.interval.high),
             format_p(r.p_value)]
            for name, r in zip(answer.seed_names, answer.comparison.per_seed, strict=True)]
    return PER_SEED_HEADER, rows


def leaderboard_table(report: Report, metric: str) -> Table:
    """Several candidates with seeds: each one's new-run answer and its Holm-adjusted p."""
    assert report.seeds is not None
    rows = []
    for answer in report.seeds.answers:
        if answer.metric != metric:
            continue
        new_run = answer.comparison.new_run
        name = report.run_names[answer.candidate]
        seeds = str(answer.comparison.n_seeds_b)
        if new_run is None:
            rows.append([name, seeds, DASH, "not measurable", DASH, DASH])
            continue
        adjusted = DASH if answer.adjusted_p is None else format_p(answer.adjusted_p)
        rows.append([name, seeds, format_delta(new_run.estimate),
                     format_interval(new_run.low, new_run.high), format_p(new_run.p_value),
                     adjusted])
    return LEADERBOARD_HEADER, rows


def sentences(answer: SeedAnswer, names: tuple[str, str]) -> list[str]:
    """What the answers say in words: the disagreement (or the one-run note), the new-run
    reading, and whether one seed carries the result."""
    comparison = answer.comparison
    new_run = comparison.new_run
    if new_run is None:
        return [not_measured_note(answer)]
    name_a, name_b = names
    out = [disagreement(answer, names)] if comparison.answers_disagree else []
    level = level_number(1 - new_run.alpha)
    if new_run.significant:
        out.append(f"A new training run of {name_b} is expected to "
                   f"{'beat' if new_run.estimate > 0 else 'fall short of'} {name_a} by "
                   f"{format_delta(new_run.estimate)} ({level}% interval "
                   f"{format_interval(new_run.low, new_run.high)}, p {format_p(new_run.p_value)}"
                   f", over {comparison.n_seeds_a} and {comparison.n_seeds_b} runs).")
    else:
        verb = "beat" if comparison.these_runs.delta > 0 else "fall short of"
        out.append(f"A new training run of {name_b} may not {verb} {name_a}: the {level}% "
                   f"interval {format_interval(new_run.low, new_run.high)} holds 0 "
                   f"(p {format_p(new_run.p_value)}, {comparison.n_seeds_a} and "
                   f"{comparison.n_seeds_b} runs).")
    signs = {r.delta > 0 for r in comparison.per_seed}
    significant = sum(r.significant for r in comparison.per_seed)
    if len(comparison.per_seed) > 1 and len(signs) > 1:
        out.append(f"The runs of {name_b} disagree in sign against {name_a}: one seed can "
                   "carry the result.")
    elif len(comparison.per_seed) > 1:
        verb = "differs" if significant == 1 else "differ"
        out.append(f"{significant} of {len(comparison.per_seed)} runs of {name_b} {verb} "
                   f"significantly from {name_a} on their own.")
    c = comparison.components
    out.append(f"Standard error of the new-run estimate: seed part "
               f"\u00b1{format_value(c.seed_part ** 0.5, 3)}, query part "
               f"\u00b1{format_value(c.query_part ** 0.5, 3)}.")
    return out


def csv_cells(report: Report, metric: str, candidate: int) -> list[object]:
    """The `CSV_COLUMNS` of an overall row ("these runs" in ``answer``, the new-run numbers
    beside it)."""
    assert report.seeds is not None
    answer = report.seeds.answer(metric, candidate)
    c = answer.comparison.components
    new_run = answer.comparison.new_run
    numbers: list[object] = ["", "", "", "", "", ""] if new_run is None else [
        new_run.estimate, new_run.low, new_run.high, new_run.p_value, new_run.df,
        "" if answer.adjusted_p is None else answer.adjusted_p]
    return ["these runs", *numbers, c.query, "" if c.seed is None else c.seed,
            "" if c.query_seed is None else c.query_seed]


def per_seed_results(report: Report, metric: str, candidate: int
                     ) -> list[tuple[str, object]]:
    """(run name, its comparison with the baseline's mean) for each run of the candidate."""
    assert report.seeds is not None
    answer = report.seeds.answer(metric, candidate)
    return list(zip(answer.seed_names, answer.comparison.per_seed, strict=True))
