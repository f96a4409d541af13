"""`ranklens compare` and the health checks: the section first, --strict exits 3, the id
column options."""

from __future__ import annotations

import json
from pathlib import Path

from ranklens.cli.health import STRICT_STATUS
from tests.support.cli_helpers import Runner

DATA = Path(__file__).parent.parent / "health" / "data"
FAST = ["--n-resamples", "200", "--n-permutations", "200"]


def test_strict_exits_3_and_still_writes_the_report(ranklens: Runner, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = ranklens("compare", DATA / "bm25.trec", DATA / "neural_upper.trec", "--qrels",
                    DATA / "qrels.trec", *FAST, "--strict", "-f", "json", "-o", out)
    assert done.code == STRICT_STATUS == 3
    assert "1 health check(s) failed: Documents that match the judgements (neural_upper)" \
        in done.err
    health = json.loads(out.read_text())["health"]
    assert health["status"] == "failed" and health["withheld"].startswith("No verdict")
    without = ranklens("compare", DATA / "bm25.trec", DATA / "neural_upper.trec", "--qrels",
                       DATA / "qrels.trec", *FAST)
    assert without.code == 0  # not strict: the report shows everything, failed checks first
    assert without.out.startswith("Health checks: 1 failed, 7 passed\n  \u2717 FAILED")
    assert "the run writes 'DOC028936', the qrels 'doc028936'" in without.out
    assert "No reliable difference" not in without.out


def test_strict_passes_clean_inputs(ranklens: Runner) -> None:
    done = ranklens("compare", DATA / "bm25.trec", DATA / "neural.trec", "--qrels",
                    DATA / "qrels.trec", *FAST, "--strict")
    assert done.code == 0, done.err
    assert done.out.startswith("Health checks: 8 passed")


def test_pyterrier_columns_chosen_and_named(ranklens: Runner) -> None:
    runs = [DATA / "pyterrier_bm25.csv", DATA / "pyterrier_neural.csv", "--qrels",
            DATA / "qrels.trec", *FAST]
    chosen = ranklens("compare", *runs)
    assert chosen.code == 0, chosen.err
    assert "document ids from column 'docno', not 'docid'" in chosen.out
    assert "0.7211" in chosen.out
    forced = ranklens("compare", *runs, "--doc-column", "docid", "--strict")
    assert forced.code == 3
    assert "None of pyterrier_bm25's 598 document ids occurs in the judgements" in \
        " ".join(forced.out.split())


def test_drop_self_retrieval_is_recorded(ranklens: Runner, tmp_path: Path) -> None:
    done = ranklens("compare", DATA / "bm25.trec", DATA / "neural.trec", "--qrels",
                    DATA / "qrels.trec", *FAST, "--drop-self-retrieval", "-f", "json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["params"]["drop_self_retrieval"] is True
    plain = ranklens("compare", DATA / "bm25.trec", DATA / "neural.trec", "--qrels",
                     DATA / "qrels.trec", *FAST, "-f", "json")
    assert "drop_self_retrieval" not in json.loads(plain.out)["params"]


def test_id_columns_need_rankings(ranklens: Runner) -> None:
    done = ranklens("compare", DATA / "bm25.trec", DATA / "neural.trec", "--doc-column", "docno")
    assert done.code == 2
    assert "--doc-column and --query-column name the columns of rankings" in done.err
