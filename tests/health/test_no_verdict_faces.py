"""No verdict, no finding: where the verdict is withheld (a run's documents match nothing),
the segment table, the forest plot and the robustness view show their numbers without a
reading, and every face says why (text, Markdown, HTML; the page in tests/app).

The case is PyTerrier's: the baseline's CSV has ``docno``, the candidate's only the integer
``docid``, so none of the candidate's documents is judged and it scores 0 on every query: read
as usual, the baseline would be "better" on every segment at q 0.015.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ranklens.compare import charts, coverage_words, report_tables
from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.compare.report import Report
from ranklens.compare.text import render_markdown, render_text
from ranklens.health.check_words import (
    NO_MARKS,
    NO_VERDICT,
    ROBUSTNESS_WITHHELD,
    SEGMENTS_WITHHELD,
)
from tests.health.conftest import DATA

SETTINGS = CompareSettings(n_resamples=200, n_permutations=200, segment_column="intent")
READINGS = ("neural_docid better", "neural_docid worse", "better on", "worse on",
            "differ at q", "no reliable difference", "does not hang", "not enough to change")
"""Findings and readings of the comparison, none of which may be shown without a verdict."""


def unmatched_files(folder: Path) -> dict[str, Path]:
    """pyterrier_bm25.csv as it is, the neural run without its docno column (ids that match
    no judgement), the qrels and a segment map of the 30 queries (intent: three values)."""
    with (DATA / "pyterrier_neural.csv").open(newline="") as source:
        rows = list(csv.DictReader(source))
    neural = folder / "neural_docid.csv"
    with neural.open("w", newline="") as out:
        writer = csv.DictWriter(out, ["qid", "docid", "rank", "score", "query"],
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    queries = sorted({row["qid"] for row in rows})
    segments = folder / "intent.tsv"
    segments.write_text("query_id\tintent\n" + "".join(
        f"{q}\t{('info', 'nav', 'tx')[i % 3]}\n" for i, q in enumerate(queries)))
    return {"run_a": DATA / "pyterrier_bm25.csv", "run_b": neural,
            "qrels": DATA / "qrels.trec", "segments": segments}


@pytest.fixture(scope="module")
def unmatched(tmp_path_factory: pytest.TempPathFactory) -> Report:
    files = unmatched_files(tmp_path_factory.mktemp("unmatched"))
    return build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                        segments=files["segments"], settings=SETTINGS)


def _after_health(text: str) -> str:
    """What follows the health section (its messages are not readings of the comparison)."""
    return text[text.index("nDCG@10"):]


def test_the_case_would_read_as_findings(unmatched: Report) -> None:
    comparison = unmatched.comparison("nDCG@10")
    assert [round(row.result.q_value, 3) for row in comparison.segments
            if row.result is not None and row.result.q_value is not None] == [0.015] * 3
    assert all(row.result is not None and row.result.significant
               for row in comparison.segments)
    assert comparison.overall.mean_b == 0.0
    assert unmatched.health is not None and unmatched.health.withheld.startswith("No verdict")
    plain = report_tables.segment_table(comparison, unmatched.pair_names)
    assert set(plain["finding"]) == {"neural_docid worse"}  # what is withheld below


def test_the_segment_table_and_plot_show_numbers_without_findings(unmatched: Report) -> None:
    comparison = unmatched.comparison("nDCG@10")
    table = report_tables.segment_table(comparison, unmatched.pair_names, withheld=True)
    assert list(table["finding"]) == [NO_VERDICT] * 4
    assert not table["significant"].any()
    assert round(table["delta"].iloc[0], 4) == -0.7211  # the numbers stay
    chart = charts.forest_plot(table, metric="nDCG@10", run_names=unmatched.pair_names,
                               alpha=0.05).to_dict()
    colour = chart["layer"][2]["encoding"]["color"]
    assert colour["title"] == "No verdict: see the health checks"
    assert colour["scale"]["domain"] == [NO_VERDICT]
    assert coverage_words.segments_flagged(unmatched.coverage.metric("nDCG@10"),
                                           withheld=True) == ""


def test_text_shows_no_mark_no_finding_and_says_why(unmatched: Report) -> None:
    text = render_text(unmatched)
    after = _after_health(text)
    for word in READINGS:
        assert word not in after, word
    table = next(block for block in after.split("\n\n")
                 if block.startswith("intent")).splitlines()
    assert table[0].split()[-1] == "note" and "*" not in "\n".join(table)
    assert NO_MARKS in after
    assert " ".join(SEGMENTS_WITHHELD.split()) in " ".join(after.split())
    robustness = [line for line in after.splitlines() if line.startswith("Non-relevant")]
    assert f"  {NO_VERDICT}" in robustness[0] and "0.7211" in robustness[0]
    assert ROBUSTNESS_WITHHELD in " ".join(after.split())
    assert "Judged@10: pyterrier_bm25 78%, neural_docid 0%" in after


def test_markdown_shows_no_mark_no_finding_and_says_why(unmatched: Report) -> None:
    markdown = render_markdown(unmatched)
    after = _after_health(markdown)
    for word in READINGS:
        assert word not in after, word
    lines = after.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("| intent")))
    rows = lines[header + 2:lines.index("", header)]
    assert "sig." not in lines[header] and len(rows) == 4  # no row marked: no mark column
    assert "*" not in "\n".join(rows)
    for sentence in (NO_MARKS, SEGMENTS_WITHHELD, ROBUSTNESS_WITHHELD):
        assert sentence in after
    assert "| 0.0050 | no verdict |" in after


def test_html_shows_no_finding_and_says_why(unmatched: Report) -> None:
    from ranklens.compare import html

    page = html.render(unmatched)
    after = page[page.index('<section class="metric"'):page.index("<h2>Inputs")]
    for word in READINGS:
        assert word not in after, word
    assert SEGMENTS_WITHHELD in after.replace("&#x27;", "'")
    assert ROBUSTNESS_WITHHELD in after.replace("&#x27;", "'")
    # four table rows, two treatments and the forest plot's legend
    assert after.count(f">{NO_VERDICT}<") == 4 + 2 + 1
    assert "Verdict could change" in after and ">yes<" not in after and ">no<" not in after


def test_no_tie_sentence_under_no_verdict(unmatched: Report) -> None:
    """The sentence that the verdict reads otherwise under the other tie rule is a reading
    too: under "No verdict" no face shows it."""
    import dataclasses

    from ranklens.compare.html import render as render_html

    tied = dataclasses.replace(unmatched, tie_notes={"nDCG@10": "TIES WOULD READ OTHERWISE"})
    for face in (render_text(tied), render_markdown(tied)):
        assert "TIES WOULD READ OTHERWISE" not in face
    assert 'class="warnings ties"' not in render_html(tied)  # (the embedded JSON keeps it)
