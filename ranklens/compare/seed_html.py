"""The seeds section in the HTML export: both answers, the components and each seed, drawn.

The tables are `ranklens.compare.seed_views`' (the ones every face shows), the charts
`ranklens.compare.seed_charts`' as inline SVG; empty for a report without seeds.
"""

from __future__ import annotations

from ranklens.compare import seed_charts, seed_views
from ranklens.compare.report import Report
from ranklens.compare.sections.seeds import TITLE, per_seed_title, seeds_parts, seeds_table
from ranklens.compare.seed_section import NEW_RUN
from ranklens.document import html_shell as html_common
from ranklens.document.html import table_html

CHART_WIDTH = 640


def section(report: Report, metric: str, level: int = 3) -> str:
    """The seeds section of one metric of a two-run (or one candidate's) report: the tables
    of ``ranklens.compare.sections.seeds`` with the forest plot and the components' chart."""
    if report.seeds is None:
        return ""
    answer = report.seeds.answer(metric)
    names = report.pair_names
    alpha = answer.comparison.these_runs.alpha
    answers, sentences, components, per_seed = seeds_parts(answer, report)
    sub = level + 1
    parts = [f'<section class="seeds" id="seeds-{html_common.text(metric)}">',
             f"<h{level}>{TITLE}</h{level}>", table_html(answers),
             *(f"<p>{html_common.text(s.text)}</p>" for s in sentences)]
    parts.append(html_common.figure(
        html_common.chart_svg(seed_charts.seeds_forest(answer, metric=metric, names=names,
                                                       alpha=alpha), CHART_WIDTH),
        f"Forest plot of {metric}: both answers and each run of {names[1]} against the mean "
        f"of {names[0]}'s runs"))
    if components is not None:
        parts += [f"<h{sub}>Variance components</h{sub}>", table_html(components),
                  html_common.figure(html_common.chart_svg(
                      seed_charts.components_chart(answer, names), CHART_WIDTH),
                      "The query and seed parts of the new-run estimate's variance")]
    parts += [f"<h{sub}>{html_common.text(per_seed_title(report))}</h{sub}>",
              table_html(per_seed), "</section>"]
    return "\n".join(parts)


def leaderboard(report: Report, metric: str) -> str:
    """Several candidates with seeds: the new-run leaderboard with Holm-adjusted p."""
    if report.seeds is None:
        return ""
    return "\n".join((f"<h3>{NEW_RUN} against {html_common.text(report.run_names[0])}</h3>",
                      table_html(seeds_table("seeds-leaderboard",
                                             seed_views.leaderboard_table(report, metric)))))
