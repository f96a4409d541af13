"""The seeds section of one metric, as blocks for every face: one title, tables, sentences.

Answers "for systems given as several runs, what do these runs say and what would a new
training run say": under one title ("Two answers: these runs and a new run"), the two answers
side by side (what each answers, B − A, interval, p, method), the runs per system and the
sentences, then the variance
components (when measured) and each run of B against the mean of A's runs, each a `Table`.
The cells are ``ranklens.compare.seed_views``' display texts; text and Markdown draw the
tables as they draw any, the HTML export adds its charts around the same tables
(``ranklens.compare.seed_html``). None for a report without seeds.
"""

from __future__ import annotations

from ranklens.compare import seed_views
from ranklens.compare.report import Report
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS, SeedAnswer
from ranklens.document.blocks import Block, Paragraph, Section, Table
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


def seeds_section(report: Report, metric: str) -> Section | None:
    """The seeds section of ``metric`` (two runs, or one candidate's report); None without
    seeds."""
    if report.seeds is None:
        return None
    answers, sentences, components, per_seed = seeds_parts(report.seeds.answer(metric), report)
    blocks: list[Block] = [answers, *sentences]
    if components is not None:
        blocks.append(Section("seeds-components", "Variance components", (components,)))
    blocks.append(Section("seeds-per-seed", per_seed_title(report), (per_seed,)))
    return Section("seeds", TITLE, tuple(blocks))


__all__ = ["TITLE", "per_seed_title", "runs_sentence", "seeds_parts", "seeds_section",
           "seeds_table"]
