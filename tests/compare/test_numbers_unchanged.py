"""The demo's numbers do not move: every number of the JSON that ``ranklens compare`` (two runs
with segments; three runs), ``ranklens mde --runs`` and ``ranklens ppi`` write today equals the
golden JSON saved from main before issue 26's refactoring (tests/golden/demo/), to 1e-12.

0.3 (issue 45) changed the default interval to the sign-flip interval (the permutation test
inverted): the ``ci_low``/``ci_high`` of every default interval in compare_two.json and
compare_three.json (and their ``interval`` name) were updated to the new numbers then; no other
number moved (p-values, q-values, t-tests, FCR levels are as before). Then the segments' test
became the skew-guarded one (`ranklens.stats.skew_guard`): in compare_two.json the segments'
``ci_low``/``ci_high`` that Hall's interval widens, and one AP segment's p-value (.4987 to
.5065), were updated; nothing else moved.
Then (issue 45's grid) the overall comparison's default became the skew-guarded test too:
the overall ``ci_low`` of nDCG@10 (.014601 to .014583) and AP (.007921 to .007857) in
compare_two.json, and in compare_three.json the nDCG@10 ``ci_low`` of neural_reranker and one
robustness row's ``ci_high`` (.055126 to .055249) were updated (and the ``interval`` names);
no p-value moved.
Then (issue 45, tie-heavy FCR) the guard gained Hall's test on all the differences, the
adjusted skewness G1 and a floor where most queries tie: in compare_two.json the overall
``ci_low`` of nDCG@10 (.0145831 to .0145824) and AP, ten segments' interval ends (at most
.0015: navigational nDCG@10 ``ci_low`` -.14984 to -.15128) and one AP segment's p-value (.50653
to .50678), and in compare_three.json the same overall ``ci_low`` and one robustness row's
``ci_high`` (.055249 to .055261) were updated; no finding moved.
Then (issue 50) the random sign patterns were drawn over the distinct differences (a group
of 64 or more equal ones as one binomial count; the same distribution, other draws): 40
numbers of compare_two.json and 13 of compare_three.json moved within Monte Carlo error (the
sign-flip parts of intervals and p/q-values: overall nDCG@10 ``ci_high`` .045370 to .045214,
AP overall p .0018 to .0017, one nDCG@10 segment's p .0053 to .0045 and q .0079 to .0067,
one AP segment's p .0435 to .0427 and q .0652 to .0640) and were updated; no boolean moved.

Only numbers (and booleans) are compared, by their path in the JSON; strings (paths, digests,
words) and the version are left out. A number present in the golden but missing now fails, so a
change of shape has to be met here on purpose, not by accident.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ranklens import demo
from ranklens.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "demo"
IGNORED = {"version"}
# Shapes that changed on purpose, numbers kept: since issue 26 the CLI's MDE/PPI JSON is the
# payload the pages store (``plan``/``spread`` and ``analysis`` nested). New path prefix -> the
# golden's.
MOVED = {"mde": (("plan.", ""), ("spread.pilot", "pilot"), ("spread.", "")),
         "ppi": (("analysis.", ""),)}


def _numbers(value: Any, path: str = "") -> dict[str, float | bool | None]:
    """Every number of a JSON document by its path (``a.b[3].c``)."""
    found: dict[str, float | bool | None] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in IGNORED:
                found.update(_numbers(item, f"{path}.{key}" if path else key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(_numbers(item, f"{path}[{index}]"))
    elif isinstance(value, int | float):  # bool is an int
        found[path] = value
    return found


def _moved(name: str, numbers: dict[str, float | bool | None]) -> dict[str, float | bool | None]:
    """``numbers`` under the golden's paths: the first matching prefix of ``MOVED`` replaced."""
    renamed: dict[str, float | bool | None] = {}
    for path, value in numbers.items():
        for new, old in MOVED.get(name, ()):
            if path.startswith(new):
                path = old + path[len(new):]
                break
        renamed.setdefault(path, value)
    return renamed


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def _demo_args() -> dict[str, list[str]]:
    d = demo.data_dir()
    runs = [str(d / "bm25_baseline.trec"), str(d / "neural_reranker.trec")]
    qrels = ["--qrels", str(d / "qrels.trec")]
    return {
        "compare_two": ["compare", *runs, *qrels, "--metric", "ndcg@10", "--metric", "map",
                        "--segments", f"{d / 'segments.tsv'}:intent", "--format", "json"],
        "compare_three": ["compare", *runs, str(d / "dense_retriever.trec"), *qrels,
                          "--format", "json"],
        "mde": ["mde", "--runs", *runs, *qrels, "--metric", "ndcg@10", "--format", "json"],
        "ppi": ["ppi", *runs, "--proxy-qrels", str(d / "qrels_proxy.trec"),
                "--gold-qrels", str(d / "qrels_gold.trec"), "--metric", "ndcg@10",
                "--format", "json"],
    }


@pytest.mark.parametrize("name", sorted(_demo_args()))
def test_demo_numbers_equal_the_goldens_from_main(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    golden = _numbers(json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8")))
    now = _moved(name, _numbers(_run(_demo_args()[name], capsys)))
    assert len(golden) > 10
    missing = sorted(set(golden) - set(now))
    assert not missing, f"{len(missing)} numbers gone, e.g. {missing[:5]}"
    differ = []
    for path, expected in golden.items():
        actual = now[path]
        if isinstance(expected, bool) or expected is None:
            same = actual == expected
        else:
            same = (not isinstance(actual, bool) and isinstance(actual, int | float)
                    and math.isclose(actual, expected, rel_tol=0, abs_tol=1e-12))
        if not same:
            differ.append((path, expected, actual))
    assert not differ, f"{len(differ)} numbers differ, e.g. {differ[:5]}"
