"""The one-call API of ``import ranklens``: the CLI's numbers from Python objects.

``compare_runs`` must give the Report ``ranklens compare`` gives for the same inputs and
settings, whatever shape the inputs come in (paths, PyTerrier-style pandas frames, pyarrow
tables, ranx dicts, per-query tables); bad objects are ``InputError``s naming them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ranklens
from ranklens import demo
from ranklens.cli import main
from ranklens.compare.report import Report
from ranklens.io import InputError, read_qrels, read_run
from ranklens.metrics import evaluate as evaluate_metrics
from tests.io.test_io_nested_json import trec_as_dict

ROOT = Path(__file__).resolve().parents[1]
DEMO = demo.paths()
SETTINGS = {"n_resamples": 2_000, "n_permutations": 2_000, "seed": 7}


def cli_report(tmp_path: Path, *args: str) -> Report:
    out = tmp_path / "cli.json"
    assert main(["compare", *args, "--n-resamples", "2000", "--n-permutations", "2000",
                 "--seed", "7", "--format", "json", "--output", str(out)]) == 0
    return Report.from_json(out.read_text())


def numbers(report: Report) -> dict[str, object]:
    """What a report says (its JSON without the inputs' names and digests)."""
    data = json.loads(report.to_json())
    return {key: data.get(key) for key in ("comparisons", "coverage", "families", "params",
                                           "run_names", "per_query")}


def pyterrier_frame(path: Path) -> pd.DataFrame:
    """A run as PyTerrier's transformers return it: qid, docid (Terrier's internal number),
    docno, rank (from 0), score, query."""
    run = pd.read_csv(path, sep=" ", header=None,
                      names=["qid", "q0", "docno", "rank", "score", "tag"], dtype={0: str})
    return pd.DataFrame({"qid": run.qid.astype(str), "docid": np.arange(len(run)),
                         "docno": run.docno, "rank": run["rank"] - 1, "score": run.score,
                         "query": "some query text"})


@pytest.fixture(scope="module")
def cli_demo_report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return cli_report(tmp_path_factory.mktemp("cli"), str(DEMO["run_a"]), str(DEMO["run_b"]),
                      "--qrels", str(DEMO["qrels"]), "--metric", "ndcg@10", "--metric", "AP",
                      "--segments", f"{DEMO['segments']}:intent",
                      "--name", "bm25", "--name", "neural")


def test_compare_runs_on_paths_is_the_cli_report(cli_demo_report: Report) -> None:
    report = ranklens.compare_runs({"bm25": DEMO["run_a"], "neural": DEMO["run_b"]},
                                   DEMO["qrels"], metrics=["ndcg@10", "AP"],
                                   segments=DEMO["segments"], segment_column="intent",
                                   **SETTINGS)
    assert report.run_names == ("bm25", "neural") == cli_demo_report.run_names
    assert numbers(report) == numbers(cli_demo_report)
    assert report.to_json() == cli_demo_report.to_json()  # the same bytes, inputs included


def test_pyterrier_frames_dicts_and_arrow_tables_give_the_same_numbers(
        cli_demo_report: Report) -> None:
    qrels_frame = pd.DataFrame(
        [(q, d, g) for q, docs in trec_as_dict(DEMO["qrels"], 3).items()
         for d, g in docs.items()], columns=["qid", "docno", "label"])
    shapes = {
        "pandas (PyTerrier)": ({"bm25": pyterrier_frame(DEMO["run_a"]),
                                "neural": pyterrier_frame(DEMO["run_b"])}, qrels_frame),
        "dict (ranx)": ({"bm25": trec_as_dict(DEMO["run_a"], 4),
                         "neural": trec_as_dict(DEMO["run_b"], 4)},
                        trec_as_dict(DEMO["qrels"], 3)),
        "pyarrow": ({"bm25": pa.Table.from_pandas(pyterrier_frame(DEMO["run_a"])),
                     "neural": pa.Table.from_pandas(pyterrier_frame(DEMO["run_b"]))},
                    pa.Table.from_pandas(qrels_frame)),
    }
    segments = pd.read_csv(DEMO["segments"], sep="\t", dtype=str)
    for shape, (runs, qrels) in shapes.items():
        report = ranklens.compare_runs(runs, qrels, metrics=("ndcg@10", "AP"),
                                       segments=segments, segment_column="intent", **SETTINGS)
        assert numbers(report) == numbers(cli_demo_report), shape
        assert report.run_names == ("bm25", "neural"), shape


def test_polars_frames_when_installed(cli_demo_report: Report) -> None:
    polars = pytest.importorskip("polars")
    runs = {name: polars.from_pandas(pyterrier_frame(DEMO[role]))
            for name, role in (("bm25", "run_a"), ("neural", "run_b"))}
    report = ranklens.compare_runs(runs, DEMO["qrels"], metrics=["ndcg@10", "AP"],
                                   segments=DEMO["segments"], segment_column="intent",
                                   **SETTINGS)
    assert numbers(report) == numbers(cli_demo_report)


def test_per_query_tables_without_qrels_are_the_cli_report(tmp_path: Path) -> None:
    qrels = read_qrels(DEMO["qrels"])[0]
    tables = {name: evaluate_metrics(read_run(DEMO[role])[0], qrels, ["nDCG@10", "P@5"]
                                     ).to_frame()
              for name, role in (("bm25", "run_a"), ("neural", "run_b"))}
    paths = []
    for name, table in tables.items():
        paths.append(tmp_path / f"{name}.csv")
        table.to_csv(paths[-1], index=False)
    report = ranklens.compare_runs(tables, **SETTINGS)
    assert report.metrics == ("nDCG@10", "P@5")
    assert numbers(report) == numbers(cli_report(tmp_path, *map(str, paths),
                                                 "--name", "bm25", "--name", "neural"))


def test_evaluate_is_a_frame_of_the_per_query_values() -> None:
    frame = ranklens.evaluate(DEMO["run_b"], DEMO["qrels"], ["nDCG@10", "P@5"])
    expected = evaluate_metrics(read_run(DEMO["run_b"])[0], read_qrels(DEMO["qrels"])[0],
                                ["nDCG@10", "P@5"])
    assert list(frame.columns) == ["query_id", "nDCG@10", "P@5"]
    assert list(frame.query_id) == list(expected["nDCG@10"].query_ids)
    np.testing.assert_array_equal(frame["nDCG@10"].to_numpy(), expected["nDCG@10"].values)
    small = ranklens.evaluate({"q1": {"d1": 2.0, "d2": 1.0}}, {"q1": {"d2": 1}}, "RR")
    assert small.to_dict("list") == {"query_id": ["q1"], "RR": [0.5]}


@pytest.mark.parametrize(("call", "error", "said"), [
    (lambda: ranklens.compare_runs({"bm25": pd.DataFrame({"qid": ["q1"], "docno": ["d1"]}),
                                    "neural": DEMO["run_b"]}, DEMO["qrels"]),
     InputError, "bm25: has no score column for a run (its columns are 'qid', 'docno')"),
    (lambda: ranklens.compare_runs({"bm25": 42, "neural": DEMO["run_b"]}, DEMO["qrels"]),
     InputError, "bm25: is a builtins.int, which ranklens cannot read"),
    (lambda: ranklens.compare_runs([DEMO["run_a"]], DEMO["qrels"]),
     InputError, "runs: holds 1 run(s); a comparison needs a baseline"),
    (lambda: ranklens.compare_runs([DEMO["run_a"], DEMO["run_b"]], DEMO["qrels"], alpah=0.1),
     TypeError, "unknown setting(s) alpah"),
    (lambda: ranklens.compare_runs([DEMO["run_a"], Path("nowhere.trec")], DEMO["qrels"]),
     InputError, "nowhere.trec: file not found"),
    (lambda: ranklens.compare_runs({"a": {"q1": {"d1": "x"}}, "b": {"q1": {"d1": 1.0}}},
                                   {"q1": {"d1": 1}}),
     InputError, "a: query 'q1', document 'd1': the score is a string ('x')"),
    (lambda: ranklens.compare_runs([DEMO["run_a"], DEMO["run_b"]], DEMO["qrels"],
                                   segments=DEMO["segments"], segment_column="colour"),
     ValueError, "has no segment column 'colour'"),
    (lambda: ranklens.evaluate(pd.DataFrame({"qid": ["q1"], "doc": ["d1"], "score": [None]}),
                               DEMO["qrels"]),
     InputError, "run, row 1: score is missing"),
])
def test_bad_input_is_an_error_of_the_package_naming_the_object(call, error, said) -> None:
    with pytest.raises(error) as raised:
        call()
    assert not isinstance(raised.value, KeyError)
    assert said in str(raised.value)


def test_import_ranklens_is_cheap_and_exports_its_api() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, ranklens; print(sorted(m for m in ('numpy', "
         "'pandas', 'pyarrow', 'streamlit') if m in sys.modules))"],
        capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
    for name in ranklens.__all__:
        assert getattr(ranklens, name) is not None, name
    assert ranklens.mde is ranklens.minimum_detectable_effect
    assert round(ranklens.mde(sd=0.1, n_queries=200), 4) == 0.0198  # the seeds' example
    assert ranklens.required_queries(0.01, sd=0.1) == 785
    with pytest.raises(AttributeError):
        ranklens.no_such_name  # noqa: B018


def test_the_readme_example_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## The library in one call"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)
    report = namespace["report"]
    assert isinstance(report, Report) and report.run_names == ("bm25", "neural")
    assert json.loads(report.to_json())["params"]["segment_column"] == "intent"
    assert list(namespace["frame"].columns)[:3] == ["baseline", "candidate", "metric"]
    assert "\\toprule" in namespace["latex"]


def test_rank_runs_is_the_clis_leaderboard():
    """The same board as `ranklens compare RUN... --leaderboard --format json`, run names from
    the mapping; the baselines' family and a notebook's HTML come with it."""
    from ranklens.compare.leaderboard import leaderboard_report, score_runs

    paths = demo.paths()
    runs = {"bm25": paths["run_a"], "neural": paths["run_b"], "dense": paths["run_dense"]}
    got = ranklens.rank_runs(runs, paths["qrels"], metrics=["nDCG@10", "AP"],
                             baselines=["bm25"], n_permutations=2000)
    expected = leaderboard_report(score_runs(list(runs.values()), paths["qrels"],
                                             ["nDCG@10", "AP"]), list(runs),
                                  ["nDCG@10", "AP"], n_permutations=2000,
                                  baselines=("bm25",))
    assert got.ranks == expected.ranks and got.against == expected.against
    assert [r.run for r in got.ranks["AP"]] == ["neural", "bm25", "dense"]
    assert "<svg" in got._repr_html_() and "Against the baselines: AP" in got._repr_html_()
    with pytest.raises(ValueError, match="baselines must be distinct names"):
        ranklens.rank_runs(runs, paths["qrels"], baselines=["BM25"], n_permutations=100)


def test_rank_runs_takes_objects_named_by_their_role():
    board = ranklens.rank_runs(
        [{"q1": {"d1": 1.0, "d2": 0.5}, "q2": {"d1": 1.0}},
         {"q1": {"d2": 1.0, "d1": 0.5}, "q2": {"d1": 1.0}}],
        {"q1": {"d2": 1}, "q2": {"d1": 1}}, metrics="P@1", n_permutations=100)
    assert board.run_names == ("run_a", "run_b")
    assert [(r.run, r.mean) for r in board.ranks["P@1"]] == [("run_b", 1.0), ("run_a", 0.5)]
