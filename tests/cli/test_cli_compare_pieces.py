"""`ranklens compare` of two runs big enough to be read a piece of whole queries at a time
prints what it prints of the same runs read whole (the pieces cut to a few rows here)."""

from __future__ import annotations

import pytest

from ranklens.io import pieces
from tests.compare.test_run_pieces import _write_inputs, small_scale  # noqa: F401


@pytest.mark.parametrize("options", [
    ("--format", "json", "--metric", "ndcg@10", "--metric", "P@5"),
    ("--format", "text", "--metric", "map", "--missing", "zero"),
    ("--format", "markdown", "--order", "rank", "--drop-self-retrieval"),
])
def test_two_runs_read_by_pieces_print_what_the_whole_read_prints(
        tmp_path, small_scale, ranklens, monkeypatch, options):  # noqa: F811
    _compared_both_ways(tmp_path, ranklens, monkeypatch, small_scale, 7,
                        ("--seed", 3, "--n-resamples", 500, "--n-permutations", 500, *options),
                        segments=True)


@pytest.mark.parametrize(("seed", "metric"), [(17, "map"), (3, "mrr"), (49, "P@5")])
def test_the_tie_sentence_of_runs_read_by_pieces_is_the_whole_reads(
        tmp_path, small_scale, ranklens, monkeypatch, seed, metric):  # noqa: F811
    """Runs whose ties decide (or move) the verdict: the sentence that says so is written from
    the other tie rule's scores, taken while the pieces were read."""
    out = _compared_both_ways(tmp_path, ranklens, monkeypatch, small_scale, seed,
                              ("--n-resamples", 300, "--n-permutations", 300, "--format",
                               "json", "--metric", metric))
    assert "Score ties" in out


def _compared_both_ways(tmp_path, ranklens, monkeypatch, read, seed, options, *,
                        segments: bool = False) -> str:
    """What `ranklens compare` prints of the test's runs (made with ``seed``) read by pieces,
    checked equal to what it prints of them read whole."""
    paths = _write_inputs(tmp_path, seed)
    given = [paths["a"], paths["b"], "--qrels", paths["qrels"], *options,
             *(("--segments", paths["segments"]) if segments else ())]
    by_pieces = ranklens("compare", *given)
    assert by_pieces.code == 0, by_pieces.err
    assert len(read) > 40
    monkeypatch.setattr(pieces, "PIECE_BYTES", 1 << 30)  # nothing is cut: read whole
    whole = ranklens("compare", *given)
    assert whole.code == 0 and by_pieces.out == whole.out
    return whole.out


def test_two_big_runs_that_cannot_be_cut_are_read_whole_one_at_a_time_and_print_the_same(
        tmp_path, small_scale, ranklens, monkeypatch):  # noqa: F811
    """Shuffled runs are not cut; over ``BIG_WHOLE_BYTES`` they are scored while read, one
    after the other, and print what the runs kept whole print (the tie sentence too)."""
    import random

    from ranklens.compare import inputs

    paths = _write_inputs(tmp_path, 17)
    for name in ("a", "b"):
        lines = paths[name].read_text().splitlines()
        random.Random(1).shuffle(lines)
        paths[name].write_text("\n".join(lines) + "\n")
    given = [paths["a"], paths["b"], "--qrels", paths["qrels"], "--n-resamples", 300,
             "--n-permutations", 300, "--format", "json", "--metric", "map"]
    held: list[bool] = []
    monkeypatch.setattr(inputs, "BIG_WHOLE_BYTES", 100)
    real = inputs._read_whole_and_score

    def spy(whole, index, judgements, *rest):
        held.append(judgements.big.locked())
        return real(whole, index, judgements, *rest)

    monkeypatch.setattr(inputs, "_read_whole_and_score", spy)
    streamed = ranklens("compare", *given)
    assert streamed.code == 0, streamed.err
    assert held == [True, True] and not small_scale  # read whole, each under the lock
    monkeypatch.setattr(inputs, "BIG_WHOLE_BYTES", 1 << 40)
    kept = ranklens("compare", *given)
    assert kept.code == 0 and streamed.out == kept.out and "Score ties" in kept.out
