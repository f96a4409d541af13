"""The Compare page draws its per-query view, its drill-down and its judged@k table only when
the reader opens them (issue 51: they were most of what every click cost the browser), and
draws them, with the library's numbers, once opened."""

from __future__ import annotations

from ranklens.app.compare_queries import rankings_section
from ranklens.app.lazy import section_key
from ranklens.compare import report_tables
from tests.app.test_compare_page import (
    chart_datasets,
    demo_files,
    first_candidate,
    labelled,
    library_report,
    start,
)
from tests.support.page_testing import metric_cards

METRIC, SCOPE = "nDCG@10", ":b"  # the demo's first candidate, shown on arrival


def test_sections_are_closed_on_arrival_and_drawn_once_opened() -> None:
    at = start()
    _, everything = library_report(demo_files(), segment_column="intent")
    report = first_candidate(everything)
    outcomes = report.comparison(METRIC).overall.outcomes
    # on arrival: the counts and the RBO card, the sections' titles, nothing inside them
    assert "Per query" in [s.value for s in at.subheader]
    cards = metric_cards(at)
    assert cards["Ties"] == f"{outcomes.ties:,}" and "Mean RBO (p=0.9)" in cards
    titles = [e.label for e in at.expander]
    assert "One query, both rankings" in titles
    assert any(t.startswith("B \u2212 A per query") for t in titles)
    assert any(t.startswith("Judged@10 per segment") for t in titles)
    assert "Query" not in [s.label for s in at.selectbox]
    assert not [d for d in at.dataframe if "change" in d.value or "could_change" in d.value]
    assert not [f for sets in chart_datasets(at) for f in sets if "queries" in f]
    # opened (what a click on its title does): the rankings of the query B lost most, and
    # only that section
    at.session_state[section_key(rankings_section(METRIC, SCOPE))] = True
    at.run()
    assert not at.exception
    worst = report_tables.per_query_table(report, METRIC).sort_values(
        ["delta", "query_id"])["query_id"].iloc[0]
    assert labelled(at.selectbox, "Query").value == worst
    assert len([d for d in at.dataframe if "change" in d.value]) == 2
    assert not [f for sets in chart_datasets(at) for f in sets if "queries" in f]
