"""What the MDE pilot and the PPI analysis were read from, carried and shown as Compare does.

A Compare report lists its inputs (`ranklens.compare.report.InputRecord`: rows, queries, rows
set aside and why); the MDE pilot (`Pilot.inputs`) and the PPI analysis (`PPIAnalysis.inputs`)
carry the same records, and the CLI text, the HTML files and the pages show them with
Compare's renderers (issue 26).
"""

from __future__ import annotations

import dataclasses
import html

from ranklens.compare.analysis import demo_files, load_inputs
from ranklens.compare.sections.inputs import input_lines, set_aside_lines
from ranklens.io import InputFile
from ranklens.plan import payload as plan_payload
from ranklens.plan.analysis import pilot_from_files, plan_queries
from ranklens.plan.html import render as render_plan_html
from ranklens.plan.settings import PlanSettings, SpreadSource
from ranklens.plan.text import render_plan
from ranklens.plan.views import other_method_mde
from ranklens.ppi import payload as ppi_payload
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.html import render as render_ppi_html
from ranklens.ppi.settings import PPISettings
from ranklens.ppi.text import render_ppi


def _table(name: str, offset: float) -> InputFile:
    """A ``trec_eval -q`` table of 30 queries with its two summary rows (query 'all')."""
    lines = [f"ndcg_cut_10\tq{i:02d}\t{0.3 + offset + 0.01 * (i % 7):.4f}" for i in range(30)]
    lines += ["ndcg_cut_10\tall\t0.5000", "num_q\tall\t30"]
    return InputFile(name, f"{name}.txt", ("\n".join(lines) + "\n").encode())


def _export(pilot, files):  # type: ignore[no-untyped-def]
    plan = plan_queries(pilot.sd, n_queries=100, deltas=(0.01,))
    settings = PlanSettings(SpreadSource("pilot", metric=pilot.metric, order="score"), 100,
                            0.05, 0.8, "z", 0.01, (0.01,))
    return plan_payload.MdeExport(plan, 0.01, other_method_mde(plan), pilot, settings,
                                  tuple(files))


def test_the_pilot_carries_the_records_compare_lists_and_every_face_shows_them() -> None:
    files = demo_files()
    chosen = (files["run_a"], files["run_b"], files["qrels"])
    pilot = pilot_from_files(*chosen, "nDCG@10")
    records = load_inputs(chosen[0], chosen[1], qrels=chosen[2]).records
    assert pilot.inputs == records
    assert [(r.role, r.summary["rows"], r.summary["queries"]) for r in pilot.inputs] == [
        ("run_a", 40_000, 400), ("run_b", 40_000, 400), ("qrels", 24_071, 400)]
    export = _export(pilot, chosen)
    text = render_plan(dataclasses.replace(export.plan, pilot=pilot))
    assert "Inputs:\n" + "".join(f"  {line}\n" for line in input_lines(records)) in text
    assert "  bm25_baseline.trec (trec-run): 40,000 rows, 400 queries." in text
    page = render_plan_html(export)  # the Read-as column of Compare's HTML inputs section
    assert "<th>Read as</th>" in page
    assert f"<td>{html.escape(records[2].summary['description'])}</td>" in page
    # the payload (the page's stored plan, the CLI's JSON) keeps them and reads them back
    back = plan_payload.export_from_payload(plan_payload.payload(export), chosen)
    assert back.pilot == pilot


def test_rows_a_reader_set_aside_reach_the_warnings_of_the_plan() -> None:
    tables = (_table("table_a", 0.0), _table("table_b", 0.02))
    pilot = pilot_from_files(tables[0], tables[1], None, "ndcg_cut_10")
    assert [r.summary["set_aside"][0]["rows"] for r in pilot.inputs] == [2, 2]
    lines = set_aside_lines(pilot.inputs)
    assert lines == ["table_a.txt: 2 rows set aside: trec_eval summary rows (query 'all')",
                     "table_b.txt: 2 rows set aside: trec_eval summary rows (query 'all')"]
    text = render_plan(dataclasses.replace(plan_queries(pilot.sd, n_queries=100),
                                           pilot=pilot))
    assert "2 rows set aside: trec_eval summary rows (query 'all')" in text
    page = render_plan_html(_export(pilot, tables))
    assert all(f"<li>{html.escape(line)}</li>" in page for line in lines)


def test_a_pilot_from_values_in_memory_has_no_inputs_and_its_json_is_as_before() -> None:
    from ranklens import codec
    from ranklens.data import MetricResult
    from ranklens.plan.analysis import pilot

    measured = pilot(MetricResult("m", {"q1": 0.1, "q2": 0.4, "q3": 0.3}),
                     MetricResult("m", {"q1": 0.2, "q2": 0.4, "q3": 0.6}))
    assert measured.inputs == () and "inputs" not in codec.plain(measured)
    assert "Inputs:" not in render_plan(plan_queries(measured.sd, n_queries=10,
                                                     pilot=measured))


def test_the_ppi_analysis_carries_its_five_files() -> None:
    files = demo_files()
    segments = InputFile("segments", "segments.tsv",
                         files["segments"].data + b"q9999\t\t\n")  # no segment: set aside
    chosen = (files["run_a"], files["run_b"], files["qrels_proxy"], files["qrels_gold"])
    analysis = analyse_ppi(*chosen, "nDCG@10", segments=segments)
    assert [(r.role, r.name) for r in analysis.inputs] == [
        ("run_a", "bm25_baseline.trec"), ("run_b", "neural_reranker.trec"),
        ("qrels_proxy", "qrels_proxy.trec"), ("qrels_gold", "qrels_gold.trec"),
        ("segments", "segments.tsv")]
    gold = analysis.inputs[3].summary
    assert (gold["rows"], gold["queries"]) == (3_515, 60)
    assert set_aside_lines(analysis.inputs) == [
        "segments.tsv: 1 rows set aside: no segment in column 'intent'"]
    text = render_ppi(analysis, width=200)
    assert "Inputs:\n" + "".join(f"  {line}\n" for line in input_lines(analysis.inputs)) in text
    # the text's warnings name the rows set aside, as the page and the HTML file do
    assert "Warnings:\n" in text and \
        "  - segments.tsv: 1 rows set aside: no segment in column 'intent'\n" in text
    export = ppi_payload.PPIExport(analysis, PPISettings(metric="nDCG@10", alpha=0.05,
                                                         order="score"), (*chosen, segments))
    page = render_ppi_html(export)
    assert "<td>qrels_gold.trec (trec-qrels): 3,515 rows, 60 queries, 3,446 documents.</td>" \
        in page
    assert "<li>segments.tsv: 1 rows set aside: no segment in column &#x27;intent&#x27;</li>" \
        in page
    assert ppi_payload.analysis_from_payload(ppi_payload.payload(export)) == analysis
