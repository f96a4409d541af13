"""Metric names as users type them map to one canonical spec and display name."""

from __future__ import annotations

import pytest

from ranklens.metrics import COMMON_METRICS, MetricSpec, parse_metric


@pytest.mark.parametrize(("typed", "canonical"), [
    ("ndcg@10", "nDCG@10"), ("nDCG@10", "nDCG@10"), ("NDCG@10", "nDCG@10"),
    ("ndcg_cut_10", "nDCG@10"), ("ndcg_cut.10", "nDCG@10"), ("ndcg", "nDCG"),
    ("P@5", "P@5"), ("p_5", "P@5"), ("P.5", "P@5"), ("P(rel=2)@5", "P(rel=2)@5"),
    ("p(rel=1)@5", "P@5"), ("map", "AP"), ("AP", "AP"), ("AP@100", "AP@100"),
    ("map_cut_100", "AP@100"), ("mrr", "RR"), ("recip_rank", "RR"), ("MRR@10", "RR@10"),
    ("R@100", "R@100"), ("recall_100", "R@100"), ("recall.100", "R@100"),
    ("Rprec", "R-Prec"), ("R-Prec", "R-Prec"), ("success_5", "Success@5"),
    ("Success@1", "Success@1"), ("judged@10", "Judged@10"), ("unj_10", "Unjudged@10"),
    ("unj.5", "Unjudged@5"),
    ("nDCG(gain=exp)@10", "nDCG(gain=exp)@10"), (" ndcg @ 10 ", "nDCG@10"),
])
def test_spellings_map_to_one_canonical_name(typed, canonical):
    spec = parse_metric(typed)
    assert spec.name == canonical
    assert parse_metric(spec.name) == spec  # the display name parses back to the same spec


def test_the_offered_metrics_are_written_as_their_display_names():
    assert [parse_metric(name).name for name in COMMON_METRICS] == list(COMMON_METRICS)
    assert len(set(COMMON_METRICS)) == len(COMMON_METRICS)


def test_spec_fields():
    assert parse_metric("P(rel=2)@5") == MetricSpec("P", 5, 2, "linear")
    assert parse_metric("ndcg@10", gain="exp") == MetricSpec("ndcg", 10, 1, "exp")
    assert parse_metric("map", relevance_level=3).name == "AP(rel=3)"
    assert parse_metric("ndcg@5", relevance_level=3).relevance_level == 1  # nDCG ignores it


@pytest.mark.parametrize("typed", [
    "bleu", "ndcg@0", "P", "recall", "ndcg_cut", "map_cut", "Rprec@5", "success",
    "ndcg(rel=2)@10", "P(gain=exp)@5", "P(rel=0)@5", "judged", "",
])
def test_unknown_or_malformed_names_list_the_valid_forms(typed):
    with pytest.raises(ValueError) as error:
        parse_metric(typed)
    message = str(error.value)
    assert repr(typed) in message or "relevance level" in message or "cutoff" in message


def test_unknown_name_error_lists_valid_forms():
    with pytest.raises(ValueError, match=r"valid forms: nDCG@k .*P\(rel=2\)@5"):
        parse_metric("f1@10")
