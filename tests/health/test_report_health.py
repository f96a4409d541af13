"""The health section travels with the report: JSON round trip, older reports, strict mode,
every export."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ranklens.compare.analysis import build_report
from ranklens.compare.csv_report import render_csv
from ranklens.compare.report import Report
from ranklens.compare.text import render_markdown, render_text
from ranklens.errors import RanklensError
from ranklens.health import HealthCheckFailed
from tests.health.conftest import FAST


@pytest.fixture(scope="module")
def failing(data: Path) -> Report:
    return build_report(data / "bm25.trec", data / "neural_upper.trec",
                        qrels=data / "qrels.trec", settings=FAST)


def test_json_round_trip_keeps_every_check(failing: Report) -> None:
    data = json.loads(failing.to_json())
    assert data["health"]["status"] == "failed"
    keys = [(c["key"], c["subject"], c["status"]) for c in data["health"]["checks"]]
    assert keys[0] == ("documents", "neural_upper", "failed")
    assert len(keys) == 8
    back = Report.from_json(failing.to_json())
    assert back == failing and back.health == failing.health


def test_a_report_written_before_health_checks_still_opens(failing: Report) -> None:
    data = json.loads(failing.to_json())
    del data["health"]
    old = Report.from_dict(data)
    assert old.health is None
    assert "Health checks" not in render_text(old)
    assert render_csv(old).splitlines()[1].endswith(",")  # an empty health cell


def test_strict_raises_with_the_report(data: Path, failing: Report) -> None:
    with pytest.raises(HealthCheckFailed) as raised:
        build_report(data / "bm25.trec", data / "neural_upper.trec", qrels=data / "qrels.trec",
                     settings=FAST, strict=True)
    assert isinstance(raised.value, RanklensError)  # the package error base
    assert [c.key for c in raised.value.failed] == ["documents"]
    assert raised.value.report.health == failing.health
    assert "1 health check(s) failed" in str(raised.value)
    passing = build_report(data / "bm25.trec", data / "neural.trec", qrels=data / "qrels.trec",
                           settings=FAST, strict=True)
    assert passing.health is not None and passing.health.status == "passed"


def test_exports_carry_the_section(failing: Report) -> None:
    text = render_text(failing)
    assert text.startswith("Health checks: 1 failed, 7 passed\n")
    assert text.count("No verdict:") == 1  # in the verdict's place, once per metric
    assert "the run writes 'DOC028936', the qrels 'doc028936'" in text
    markdown = render_markdown(failing)
    assert "## Health checks" in markdown
    assert markdown.index("## Health checks") < markdown.index("## nDCG@10")
    rows = list(csv.DictReader(io.StringIO(render_csv(failing))))
    assert rows[0]["health"] == "failed: documents (neural_upper)"


def test_html_export_shows_the_section(failing: Report) -> None:
    from ranklens.compare import html

    page = html.render(failing)
    assert "Health checks" in page
    assert page.index("Health checks") < page.index("nDCG@10</h2>")
    assert "DOC028936" in page


def test_changes_name_the_health_of_a_recomputed_link(failing: Report) -> None:
    from ranklens.share.differences import report_changes

    data = json.loads(failing.to_json())
    del data["health"]
    older = Report.from_dict(data)
    assert report_changes(older, failing) == (
        "health checks: only in the recomputed report (1 failed, 7 passed)",)
    assert report_changes(failing, failing) == ()


def test_leaderboard_names_each_candidates_health(data: Path) -> None:
    from ranklens.compare import html, report_tables

    report = build_report(data / "bm25.trec", data / "neural.trec", data / "neural_upper.trec",
                          qrels=data / "qrels.trec", settings=FAST)
    table = report_tables.leaderboard_table(report, "nDCG@10").set_index("run")
    assert table.loc["neural_upper", "health"] == "failed: documents"
    assert table.loc["neural_upper", "finding"] == "no verdict"
    assert table.loc["neural", "health"] == "passed"
    assert table.loc["neural", "finding"] != "no verdict"
    assert not table.loc["neural_upper", "significant"]  # adjusted p 0.005: no mark though
    text = render_text(report)
    assert "No verdict: the documents of neural_upper do not match" in text
    # the leaderboard's sentence names it apart, not "neural_upper is worse"
    assert "neural_upper is worse" not in text and "verdict hangs" not in text
    assert ("No other candidate differs reliably from bm25 on nDCG@10" in text
            and "No verdict for neural_upper: see the health checks." in " ".join(text.split()))
    assert "<th>Health</th>" in html.render(report)
    assert report.candidate_report(1).health is not None
    assert report.candidate_report(1).health.withheld == ""
    assert report.candidate_report(2).health.withheld.startswith("No verdict")
