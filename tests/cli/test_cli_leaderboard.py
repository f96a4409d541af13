"""``ranklens compare RUN... --leaderboard`` (issue 49): 30 per-query tables, three groups of
equal true means far apart; the JSON's ranks, and the text, Markdown and HTML faces saying the
same ranks and tiers."""

from __future__ import annotations

import json

import numpy as np

from tests.support.cli_helpers import Runner


def _tables(folder):
    rng = np.random.default_rng(49)
    query = rng.normal(0.5, 0.15, 200)
    paths = []
    for run in range(30):
        level = (0.0, 0.1, 0.2)[run // 10]
        values = np.clip(query + level + rng.normal(0, 0.05, 200), 0, 2)
        path = folder / f"sys{run:02d}.tsv"
        path.write_text("query_id\tnDCG@10\n" + "".join(
            f"q{i}\t{v:.6f}\n" for i, v in enumerate(values)), encoding="utf-8")
        paths.append(path)
    return paths


def test_three_groups_get_three_tiers_and_rank_intervals_inside_their_group(ranklens: Runner,
                                                                           tmp_path):
    paths = _tables(tmp_path)
    done = ranklens("compare", *paths, "--leaderboard", "--format", "json",
                    "--n-permutations", 1000)
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert report["kind"] == "leaderboard"
    assert report["params"]["family"] == "all-pairs" and report["params"]["method"] == "max-t"
    rows = report["ranks"]["nDCG@10"]
    assert len(rows) == 30 and set(rows[0]) == {"run", "mean", "rank_low", "rank_high", "tier"}
    for row in rows:
        group = 2 - int(row["run"][3:]) // 10  # the best group ranks 1-10
        assert group * 10 + 1 <= row["rank_low"] <= row["rank_high"] <= group * 10 + 10
        assert row["tier"] == "abc"[group]
    text = ranklens("compare", *paths, "--leaderboard", "--n-permutations", 1000).out
    markdown = ranklens("compare", *paths, "--leaderboard", "--n-permutations", 1000,
                        "--format", "markdown").out
    html_path = tmp_path / "board.html"
    ranklens("compare", *paths, "--leaderboard", "--n-permutations", 1000, "--format", "html",
             "--output", html_path)
    html = html_path.read_text(encoding="utf-8")
    assert html.count("<svg") == 1 and 'aria-label="Rank interval and mean of each of 30 ' in html
    assert f'"run":"{rows[0]["run"]}"' in html.replace(" ", "")
    latex = ranklens("compare", *paths, "--leaderboard", "--n-permutations", 1000,
                     "--format", "latex").out
    assert latex.count(r"\toprule") == 1 and r"\caption{nDCG@10: 30 runs on 200 queries" in latex
    for face in (text, markdown, html, latex):
        first = rows[0]
        assert f"{first['rank_low']}-{first['rank_high']}" in face
        assert f"{first['mean']:.4f}" in face and first["run"] in face
        assert "all 435 pairs tested at once" in face or "every pair tested at once" in face


def test_a_board_of_per_query_tables_left_out_queries_are_said(ranklens: Runner, tmp_path):
    paths = _tables(tmp_path)
    short = paths[0].read_text(encoding="utf-8").splitlines()[:-5]
    paths[0].write_text("\n".join(short) + "\n", encoding="utf-8")
    done = ranklens("compare", *paths[:5], "--leaderboard", "--n-permutations", 500)
    assert done.code == 0, done.err
    assert "5 queries not scored by every run are left out (195 kept)" in done.out


def test_two_baselines_one_family_in_every_face(ranklens: Runner, tmp_path):
    """sys00 (group 0) and sys15 (group 1) as baselines: group 2 is above both, group 1 above
    sys00 and level with sys15, group 0 level with sys00 and below sys15."""
    paths = _tables(tmp_path)[::3]  # sys00, sys03, ..., sys27: ten runs, groups of 4, 3, 3
    args = ("compare", *paths, "--leaderboard", "--n-permutations", 2000,
            "--baseline", "sys00", "--baseline", "sys15")
    done = ranklens(*args, "--format", "json")
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert report["params"]["baselines"] == ["sys00", "sys15"]
    rows = report["against"]["nDCG@10"]
    assert len(rows) == 8 * 2 and {r["baseline"] for r in rows} == {"sys00", "sys15"}
    for row in rows:
        group = int(row["run"][3:]) // 10
        base_group = int(row["baseline"][3:]) // 10
        if group == base_group:
            assert row["p_adjusted"] > 0.05, row
        else:
            assert row["p_adjusted"] <= 0.05 and (row["delta"] > 0) == (group > base_group)
    text = ranklens(*args).out
    assert "8 candidates against 2 baselines (sys00, sys15): all 16 differences" in text
    first = next(r for r in rows if r["run"] == "sys27" and r["baseline"] == "sys00")
    line = next(line for line in text.splitlines() if line.strip().startswith("sys27 "))
    assert f"▲ +{first['delta']:.4f} (p < 0.001)" in line
    latex = ranklens(*args, "--format", "latex").out
    assert r"vs sys00 & vs sys15" in latex and r"$\blacktriangle$" in latex


def test_a_baseline_must_be_a_run_and_goes_with_the_leaderboard(ranklens: Runner, tmp_path):
    paths = _tables(tmp_path)[:3]
    done = ranklens("compare", *paths, "--leaderboard", "--baseline", "nope")
    assert done.code == 2 and "baselines must be distinct names of the runs" in done.err
    done = ranklens("compare", *paths, "--baseline", "sys00")
    assert done.code == 2 and "--baseline goes with --leaderboard" in done.err
    done = ranklens("compare", *paths, paths[0], "--leaderboard")
    assert done.code == 2 and "sys00 is named twice" in done.err
