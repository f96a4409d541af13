"""`ranklens evaluate` against the pytrec_eval (trec_eval 9.x) golden files, where 9.x and 10.0
agree.

tests/golden/make_trec_eval_golden.py writes these golden files from pytrec_eval (trec_eval
9.0.8) formatted as trec_eval prints; ``test_golden_files_are_current`` checks they still are
what the script produces. ranklens follows trec_eval 10.0 (tests/cli/test_cli_trec_eval10_golden.py
checks it against the 10.0 binary); the 9.x files are kept for what they show of 9.x:

- a judged query missing from the run: 9.0.8 (and pytrec_eval) evaluate the queries both have;
  10.0 stops with exit status 4. ``--missing drop`` asks ranklens for 9.0.8's rule;
- with ``-c``, 9.0.8 prints no per-query lines for the missing queries; 10.0 prints them (the
  placeholder ranking's values): compared here without those lines;
- the per-query ``gm_map`` lines come from pytrec_eval, not from any trec_eval (both print
  gm_map in the summary only); ``num_rel all`` under ``-c`` is pytrec_eval's sum over the
  evaluated queries, where trec_eval (9.0.8 and 10.0) counts every qrels line with grade > 0.
  Both are left out of the comparison.

Every hostile copy of the inputs (padding, tabs, comments, CRLF) must give the same lines.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.support.cli_helpers import Runner

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INPUTS = GOLDEN / "trec_eval" / "inputs"
EXPECTED = GOLDEN / "trec_eval" / "expected"
VARIANTS = ["", "_padded", "_tab_padded_score", "_comments", "_crlf"]
SETTINGS = [(level, complete, judged_only) for level in (1, 2, 3) for complete in (False, True)
            for judged_only in (False, True)]


def _generator():
    spec = importlib.util.spec_from_file_location(
        "make_trec_eval_golden", GOLDEN / "make_trec_eval_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _flags(level: int, complete: bool, judged_only: bool) -> list[str]:
    return ["-q", *(["-c"] if complete else ["--missing", "drop"]),
            *(["-J"] if judged_only else []), f"-l{level}"]


MISSING_QUERY = "qrels_only"  # judged, not in the run


def _shared_with_9x(lines: list[str], names: set[str]) -> list[str]:
    """The lines 9.x and 10.0 both print (see the module docstring)."""
    kept = []
    for line in lines:
        name, query = line.split("\t")[0].strip(), line.split("\t")[1]
        if name not in names or query == MISSING_QUERY:
            continue
        if (name == "gm_map" and query != "all") or (name == "num_rel" and query == "all"):
            continue
        kept.append(line)
    return kept


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("level", "complete", "judged_only"), SETTINGS)
def test_all_trec_output_is_byte_identical(ranklens: Runner, variant, level, complete,
                                           judged_only):
    generator = _generator()
    expected = (EXPECTED / generator.golden_name(level, complete, judged_only)).read_text()
    done = ranklens("evaluate", *_flags(level, complete, judged_only), "-m", "all_trec",
                    INPUTS / f"qrels{variant}.trec", INPUTS / f"run{variant}.trec")
    assert done.code == 0, done.err
    names = {line.split("\t")[0].strip() for line in expected.splitlines()}
    ours = _shared_with_9x(done.out.splitlines(), names)
    theirs = _shared_with_9x(expected.splitlines(), names)
    assert ours == theirs and len(ours) > 500


def test_the_issue_command_gives_trec_eval_lines(ranklens: Runner):
    """`trec_eval -q -c -m ndcg_cut.10 -m map qrels run`: the same lines, byte for byte."""
    wanted = ("map", "ndcg_cut_10")
    golden = [line for line in (EXPECTED / "q_c_l1.txt").read_text().splitlines()
              if line.split("\t")[0].strip() in wanted]
    done = ranklens("evaluate", "-q", "-c", "-m", "ndcg_cut.10", "-m", "map",
                    INPUTS / "qrels.trec", INPUTS / "run.trec")
    assert [line for line in done.out.splitlines()
            if line.split("\t")[1] != MISSING_QUERY] == golden
    assert done.out.splitlines()[-2:] == [line for line in golden if "\tall\t" in line]


def test_golden_files_are_current():
    generator = _generator()
    run, qrels = generator.make_data()
    run_text, qrels_text = generator.clean_texts(run, qrels)
    assert (INPUTS / "run.trec").read_text() == run_text
    assert (INPUTS / "qrels.trec").read_text() == qrels_text
    for level, complete, judged_only in SETTINGS:
        lines = generator.expected_lines(run, qrels, level=level, complete=complete,
                                         judged_only=judged_only)
        path = EXPECTED / generator.golden_name(level, complete, judged_only)
        assert path.read_text() == "".join(line + "\n" for line in lines)


def test_official_is_the_default_and_names_what_it_leaves_out(ranklens: Runner):
    done = ranklens("evaluate", "--missing", "drop", INPUTS / "qrels.trec", INPUTS / "run.trec")
    names = [line.split("\t")[0].strip() for line in done.out.splitlines()]
    assert names[:9] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                         "Rprec", "bpref"]
    assert names[9] == "recip_rank"
    assert names[10:21] == [f"iprec_at_recall_{x / 10:3.2f}" for x in range(11)]
    assert names[21:] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert done.out.splitlines()[0] == f"{'runid':<22}\tall\tgolden_run"
    assert "not computed" not in done.err


def test_cutoffs_come_from_the_first_measure_argument(ranklens: Runner):
    done = ranklens("evaluate", "-c", "-m", "P.10,5", "-m", "P.20", INPUTS / "qrels.trec",
                    INPUTS / "run.trec")
    assert [line.split("\t")[0].strip() for line in done.out.splitlines()] == ["P_5", "P_10"]
    assert "-m P.20 ignored" in done.err
    done = ranklens("evaluate", "-c", "-m", "P_5", "-m", "P_20", INPUTS / "qrels.trec",
                    INPUTS / "run.trec")  # ranklens' own P_k form: each adds its cutoff
    assert [line.split("\t")[0].strip() for line in done.out.splitlines()] == ["P_5", "P_20"]


def test_ranklens_spellings_and_the_qrels_option_still_work(ranklens: Runner):
    done = ranklens("evaluate", INPUTS / "run.trec", "--qrels", INPUTS / "qrels.trec",
                    "--missing", "drop", "-m", "nDCG@10", "-m", "Judged@10")
    golden = {line.split("\t")[0].strip(): line.split("\t")[2]
              for line in (EXPECTED / "q_l1.txt").read_text().splitlines()
              if line.split("\t")[1] == "all"}
    lines = done.out.splitlines()
    assert lines[0] == f"{'nDCG@10':<22}\tall\t{golden['ndcg_cut_10']}"
    judged = 1 - float(golden["unj_10"])
    assert lines[1].startswith(f"{'Judged@10':<22}\tall\t")
    assert float(lines[1].split("\t")[2]) == pytest.approx(judged, abs=1e-4)


@pytest.mark.parametrize(("args", "words"), [
    (["-m", "prefs_simp"], "not computed by ranklens"),
    (["-m", "ndcg.1=3.5"], "gain pairs"),
    (["-m", "utility.1,2"], "four coefficients"),
    (["-m", "P.0"], "cutoffs must be positive"),
    (["-m", "P.5,5"], "given twice"),
    (["-m", "map.3"], "no parameters"),
    (["-m", "bleu"], "valid forms"),
])
def test_bad_measures_are_usage_errors(ranklens: Runner, args, words):
    done = ranklens("evaluate", *args, INPUTS / "qrels.trec", INPUTS / "run.trec")
    assert done.code == 2 and words in done.err and not done.out


def test_an_ms_marco_run_is_evaluated_in_rank_order(ranklens: Runner, tmp_path):
    run = tmp_path / "run.tsv"
    run.write_text("1\t10\t1\n1\t11\t2\n1\t12\t3\n2\t20\t1\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 12 1\n1 0 10 0\n2 0 20 1\n")
    done = ranklens("evaluate", "-q", "-m", "recip_rank", qrels, run)
    assert done.out.splitlines() == [f"{'recip_rank':<22}\t1\t0.3333",
                                     f"{'recip_rank':<22}\t2\t1.0000",
                                     f"{'recip_rank':<22}\tall\t0.6667"]
