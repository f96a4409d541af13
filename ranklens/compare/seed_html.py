"""The seeds section in the HTML export: both answers, the components and each seed, drawn.

The tables are `ranklens.compare.seed_views`' (the ones every face shows), the charts
`ranklens.compare.seed_charts`' as inline SVG; empty for a report without seeds.
"""

from __future__ import annotations

from ranklens.compare import seed_charts, seed_views
from ranklens.compare.report import Report
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS
from ranklens.document import html_shell as html_common

CHART_WIDTH = 640


def _table(table: seed_views.Table, css_class: str) -> str:
    header, rows = table
    return html_common.table(header, ([html_common.text_cell(c) for c in row] for row in rows),
                             css_class=css_class)


def section(report: Report, metric: str, level: int = 3) -> str:
    """The seeds section of one metric of a two-run (or one candidate's) report."""
    if report.seeds is None:
        return ""
    answer = report.seeds.answer(metric)
    names = report.pair_names
    alpha = answer.comparison.these_runs.alpha
    sub = level + 1
    parts = [f'<section class="seeds" id="seeds-{html_common.text(metric)}">',
             f"<h{level}>Two answers: {THESE_RUNS.lower()} and {NEW_RUN.lower()}</h{level}>",
             _table(seed_views.answers_table(answer), "seeds-answers"),
             *(f"<p>{html_common.text(s)}</p>" for s in seed_views.sentences(answer, names))]
    parts.append(html_common.figure(
        html_common.chart_svg(seed_charts.seeds_forest(answer, metric=metric, names=names,
                                                       alpha=alpha), CHART_WIDTH),
        f"Forest plot of {metric}: both answers and each run of {names[1]} against the mean "
        f"of {names[0]}'s runs"))
    if answer.measured:
        parts += [f"<h{sub}>Variance components</h{sub}>",
                  _table(seed_views.components_table(answer), "seeds-components"),
                  html_common.figure(html_common.chart_svg(
                      seed_charts.components_chart(answer, names), CHART_WIDTH),
                      "The query and seed parts of the new-run estimate's variance")]
    parts += [f"<h{sub}>Each run of {html_common.text(names[1])} against the mean of "
              f"{html_common.text(names[0])}'s runs</h{sub}>",
              _table(seed_views.per_seed_table(answer), "seeds-per-seed"), "</section>"]
    return "\n".join(parts)


def leaderboard(report: Report, metric: str) -> str:
    """Several candidates with seeds: the new-run leaderboard with Holm-adjusted p."""
    if report.seeds is None:
        return ""
    return "\n".join((f"<h3>{NEW_RUN} against {html_common.text(report.run_names[0])}</h3>",
                      _table(seed_views.leaderboard_table(report, metric), "seeds-leaderboard")))
