"""The seeds section of one metric, as blocks for every face: one title, tables, sentences.

Answers "for systems given as several runs, what do these runs say and what would a new
training run say": under one title ("Two answers: these runs and a new run"), the two answers
side by side (what each answers, B − A, interval, p, method), the runs per system and the
sentences, then the variance
components (when measured) and each run of B against the mean of A's runs, each a `Table`.
The cells are ``ranklens.compare.seed_views``' display texts; the forest plot and the
components' chart are `Chart` blocks (``ranklens.compare.seed_charts``), which the HTML export
draws and text and Markdown leave out. None for a report without seeds.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ranklens.compare import seed_views
from ranklens.compare.report import Report
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS, SeedAnswer
from ranklens.document.blocks import Block, Chart, Paragraph, Section, Table
from ranklens.document.columns import Column

TITLE = f"Two answers: {THESE_RUNS.lower()} and {NEW_RUN.lower()}"
"""The seeds section's one title on every face."""


def seeds_table(key: str, table: seed_views.Table) -> Table:
    """A table of display texts (``seed_views``' header and rows) as a `Table` keyed ``key``."""
    header, rows = table
    shown = tuple(Column(str(i), name, "text") for i, name in enumerate(header))
    records = tuple({str(i): cell for i, cell in enumerate(row)} for row in rows)
    return Table(key, shown, records)


def per_seed_title(report: Report) -> str:
    """The heading of the per-seed table: each run of B against the mean of A's runs."""
    name_a, name_b = report.pair_names
    return f"Each run of {name_b} against the mean of {name_a}'s runs"


def runs_sentence(answer: SeedAnswer, report: Report) -> str:
    """How many runs each system was given as: ``neural: 3 runs, bm25: 1.``"""
    name_a, name_b = report.pair_names
    return (f"Runs per system: {name_b} {answer.comparison.n_seeds_b}, "
            f"{name_a} {answer.comparison.n_seeds_a}.")


def seeds_parts(answer: SeedAnswer, report: Report) -> tuple[Table, list[Paragraph],
                                                             Table | None, Table]:
    """The answers table, the sentences (the runs per system first), the components table
    (None when not measured) and the per-seed table of ``answer``."""
    components = (seeds_table("seeds-components", seed_views.components_table(answer))
                  if answer.measured else None)
    return (seeds_table("seeds-answers", seed_views.answers_table(answer)),
            [Paragraph(s) for s in (runs_sentence(answer, report),
                                    *seed_views.sentences(answer, report.pair_names))],
            components,
            seeds_table("seeds-per-seed", seed_views.per_seed_table(answer)))


def leaderboard_section(report: Report, metric: str) -> Section | None:
    """Several candidates with seeds: the new-run leaderboard of ``metric`` (each candidate's
    new-run B − A, interval, p and Holm-adjusted p), under one title on every face; None
    without seeds."""
    if report.seeds is None:
        return None
    table = seeds_table("seeds-leaderboard", seed_views.leaderboard_table(report, metric))
    return Section("seeds-leaderboard", f"{NEW_RUN} against {report.run_names[0]}: {metric}",
                   (table,))


def seeds_section(report: Report, metric: str) -> Section | None:
    """The seeds section of ``metric`` (two runs, or one candidate's report), with its
    forest plot and the components' chart (`Chart` blocks: drawn by the faces that draw
    pictures); None without seeds."""
    if report.seeds is None:
        return None
    answer = report.seeds.answer(metric)
    answers, sentences, components, per_seed = seeds_parts(answer, report)
    name_a, name_b = report.pair_names
    forest = Chart("seeds-forest", partial(_seeds_forest, answer, metric, report.pair_names),
                   f"Forest plot of {metric}: both answers and each run of {name_b} against "
                   f"the mean of {name_a}'s runs")
    blocks: list[Block] = [answers, *sentences, forest]
    if components is not None:
        chart = Chart("seeds-components", partial(_components_chart, answer, report.pair_names),
                      "The query and seed parts of the new-run estimate's variance")
        blocks.append(Section("seeds-components", "Variance components", (components, chart)))
    blocks.append(Section("seeds-per-seed", per_seed_title(report), (per_seed,)))
    return Section("seeds", TITLE, tuple(blocks), anchor=f"seeds-{metric}")


def _seeds_forest(answer: SeedAnswer, metric: str, names: tuple[str, str]) -> Any:
    from ranklens.compare import seed_charts  # Altair loads only where drawn

    return seed_charts.seeds_forest(answer, metric=metric, names=names,
                                    alpha=answer.comparison.these_runs.alpha)


def _components_chart(answer: SeedAnswer, names: tuple[str, str]) -> Any:
    from ranklens.compare import seed_charts

    return seed_charts.components_chart(answer, names)


__all__ = ["TITLE", "leaderboard_section", "per_seed_title", "runs_sentence", "seeds_parts",
           "seeds_section", "seeds_table"]
