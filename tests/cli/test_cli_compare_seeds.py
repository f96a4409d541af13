"""``ranklens compare`` with systems given as several runs (issue 31): NAME=FILE,FILE syntax,
per-query tables with a seed column, both answers in every format, dropped queries said."""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from ranklens import compare_runs, demo
from ranklens.compare.report import Report
from ranklens.compare.seed_section import NEW_RUN, THESE_RUNS
from ranklens.compare.text import render
from ranklens.data import MetricResult
from ranklens.formats import format_interval
from ranklens.stats import compare_seeds
from tests.support.cli_helpers import Runner

FAST = ("--n-resamples", "1000", "--n-permutations", "1000")


def _tables(tmp_path: Path, *, drop: str | None = None) -> tuple[Path, Path, dict]:
    """A baseline table and a candidate table with a seed column (3 seeds, 60 queries)."""
    rng = np.random.default_rng(31)
    queries = [f"q{i:02d}" for i in range(60)]
    base = rng.normal(0.5, 0.1, size=60)
    a = tmp_path / "bm25.tsv"
    a.write_text("query_id\tndcg\n" + "".join(f"{q}\t{float(v)!r}\n"
                                              for q, v in zip(queries, base, strict=True)))
    values = {}
    lines = ["query_id\tseed\tndcg"]
    for seed in (1, 2, 3):
        shift = rng.normal(0.0, 0.01)
        values[seed] = base + 0.02 + shift + rng.normal(0.0, 0.03, size=60)
        lines += [f"{q}\t{seed}\t{float(v)!r}" for q, v in zip(queries, values[seed], strict=True)
                  if not (seed == 2 and q == drop)]
    b = tmp_path / "neural.tsv"
    b.write_text("\n".join(lines) + "\n")
    return a, b, {"queries": queries, "base": base, "values": values}


def test_seed_column_gives_both_answers_with_the_library_numbers(
        ranklens: Runner, tmp_path: Path) -> None:
    a, b, made = _tables(tmp_path)
    out = ranklens("compare", a, b, *FAST, "--format", "json")
    assert out.code == 0, out.err
    report = Report.from_json(out.out)
    assert report.seeds is not None and report.run_names == ("bm25", "neural")
    assert report.seeds.runs[1] == ("neural_seed1", "neural_seed2", "neural_seed3")
    answer = report.seeds.answer("ndcg")
    # the statistics' own function on the same numbers
    queries = made["queries"]
    direct = compare_seeds(
        [MetricResult("ndcg", dict(zip(queries, made["base"], strict=True)))],
        [MetricResult("ndcg", dict(zip(queries, made["values"][s], strict=True)))
         for s in (1, 2, 3)],
        n_resamples=1000, n_permutations=1000)
    assert answer.comparison.new_run == direct.new_run
    assert answer.comparison.components == direct.components
    assert answer.comparison.these_runs.delta == pytest.approx(direct.these_runs.delta)
    # these runs: the report's comparison is that of the per-query seed means
    overall = report.comparisons[0].overall
    assert overall.delta == pytest.approx(direct.these_runs.delta)
    assert (overall.interval.low, overall.interval.high) == pytest.approx(
        (direct.these_runs.interval.low, direct.these_runs.interval.high))
    assert json.loads(out.out)["params"]["seed_runs"] == [1, 3]


def test_text_markdown_csv_html_carry_both_answers(ranklens: Runner, tmp_path: Path) -> None:
    a, b, _ = _tables(tmp_path)
    report = Report.from_json(ranklens("compare", a, b, *FAST, "-f", "json").out)
    new_run = report.seeds.answer("ndcg").comparison.new_run
    shown = format_interval(new_run.low, new_run.high)
    for fmt in ("text", "markdown"):
        out = ranklens("compare", a, b, *FAST, "--format", fmt)
        assert out.code == 0, out.err
        assert THESE_RUNS in out.out and NEW_RUN in out.out and shown in out.out
        assert "Variance components" in out.out and "neural_seed2" in out.out
    rows = list(csv.DictReader(io.StringIO(ranklens("compare", a, b, *FAST, "-f", "csv").out)))
    overall = rows[0]
    assert overall["answer"] == "these runs"
    assert float(overall["new_run_low"]) == new_run.low
    assert float(overall["new_run_p"]) == new_run.p_value
    assert [r["answer"] for r in rows[1:]] == [f"seed run: neural_seed{k}" for k in (1, 2, 3)]
    html_path = tmp_path / "r.html"
    assert ranklens("compare", a, b, *FAST, "-f", "html", "-o", html_path).code == 0
    html = html_path.read_text()
    assert THESE_RUNS in html and NEW_RUN in html and shown in html
    assert '<h3 id="seeds-ndcg">' in html and "<svg" in html


def test_dropped_queries_are_named_with_the_run_that_lacks_them(
        ranklens: Runner, tmp_path: Path) -> None:
    a, b, _ = _tables(tmp_path, drop="q07")
    out = ranklens("compare", a, b, *FAST)
    assert out.code == 0, out.err
    assert "1 queries left out of ndcg because not every run of it scored them" in \
        " ".join(out.out.split())
    assert "q07 is not scored by neural_seed2" in " ".join(out.out.split())
    report = Report.from_json(ranklens("compare", a, b, *FAST, "-f", "json").out)
    assert report.comparisons[0].overall.n_queries == 59


def test_name_equals_files_syntax_on_the_demo_seeds(ranklens: Runner) -> None:
    paths = demo.paths()
    seeds = ",".join(str(p) for p in demo.seed_paths())
    out = ranklens("compare", f"bm25={paths['run_a']}", f"neural={seeds}", "--qrels",
                   paths["qrels"], *FAST, "-f", "json")
    assert out.code == 0, out.err
    report = Report.from_json(out.out)
    assert report.run_names == ("bm25", "neural")
    assert report.seeds.runs == (("bm25_baseline",), (
        "neural_reranker", "neural_reranker_seed2", "neural_reranker_seed3"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        library = compare_runs(
            {"bm25": paths["run_a"], "neural": list(demo.seed_paths())}, paths["qrels"],
            n_resamples=1000, n_permutations=1000)
    assert library.seeds.answer("nDCG@10").comparison.new_run == \
        report.seeds.answer("nDCG@10").comparison.new_run
    # the demo's story: these runs differ, a new training run may not beat BM25
    text = " ".join(ranklens("compare", f"bm25={paths['run_a']}", f"neural={seeds}",
                             "--qrels", paths["qrels"], *FAST).out.split())
    assert "These runs differ; a new training run of neural may not beat bm25" in text


def test_one_run_per_system_says_the_seed_variance_cannot_be_measured() -> None:
    paths = demo.paths()
    report = compare_runs({"bm25": [paths["run_a"]], "neural": [paths["run_b"]]},
                                   paths["qrels"], n_resamples=1000, n_permutations=1000)
    answer = report.seeds.answer("nDCG@10")
    assert answer.comparison.new_run is None
    text = render(report, "text")
    assert "the seed variance cannot be measured" in " ".join(text.split())
    assert "not measurable: one run per system" in text


def test_syntax_errors_and_help(ranklens: Runner, tmp_path: Path) -> None:
    a, _, _ = _tables(tmp_path)
    out = ranklens("compare", a, "neural=")
    assert out.code != 0 and "NAME=FILE[,FILE...]" in out.err
    out = ranklens("compare", f"bm25={a}", f"neural={a}", "--name", "x", "--name", "y")
    assert out.code != 0 and "named twice" in out.err


def test_help_documents_the_syntax(ranklens: Runner) -> None:
    out = ranklens("compare", "--help")
    text = " ".join(out.out.split())
    assert "NAME=FILE[,FILE...] (neural=n1.trec,n2.trec,n3.trec" in text
