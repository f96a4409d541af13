"""One rule for "unjudged documents could change the verdict" (issue 51): the coverage table
says what the banner and the flagged segments say, on the demo where a 2.1-point gap once
ticked "could change" beside a card that said both runs are judged alike."""

from __future__ import annotations

from ranklens import compare_runs, demo
from ranklens.compare.report_tables import coverage_table


def test_the_table_says_what_the_banner_and_the_segments_say():
    paths = demo.paths()
    for candidate in ("run_b", "run_dense"):
        report = compare_runs([paths["run_a"], paths[candidate]], paths["qrels"],
                              segments=paths["segments"], segment_column="length",
                              n_resamples=500, n_permutations=500)
        coverage = report.coverage.metric("nDCG@10")
        table = coverage_table(report, "nDCG@10")
        assert bool(table["could_change"].iloc[0]) == coverage.alert
        flagged = {row.segment for row in coverage.flagged_segments}
        assert {s for s, c in zip(table["segment"][1:], table["could_change"][1:],
                                  strict=True) if c} == flagged
        for row, said in zip(coverage.rows, table["could_change"], strict=True):
            if abs(row.gap) < coverage.min_gap:
                assert not said  # under the gap rule, never "could change"
