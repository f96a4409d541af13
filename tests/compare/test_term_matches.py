"""Query terms marked in documents' titles and texts (issue 51): which words are looked for,
spans that rebuild the text, whole words in any case, and the page's marking of them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ranklens.app.compare_drill import marked
from ranklens.compare.term_matches import matched_terms, query_terms, term_spans


def test_the_query_words_worth_looking_for():
    assert query_terms("How to run a Marathon in Berlin? Berlin!") == ("run", "marathon", "berlin")
    assert query_terms("the of a") == ()


def test_whole_words_in_any_case_and_no_stemming():
    terms = query_terms("run berlin marathon")
    spans = term_spans("Running the BERLIN marathon: run!", terms)
    assert [s.text for s in spans if s.match] == ["BERLIN", "marathon", "run"]
    assert matched_terms("Berlin marathon", terms) == ("berlin", "marathon")
    assert matched_terms("rerun", terms) == ()


@given(st.text(max_size=80), st.lists(st.sampled_from(["ab", "cd", "a1", "x"]), max_size=3))
def test_the_spans_rebuild_the_text(text, terms):
    spans = term_spans(text, terms)
    assert "".join(s.text for s in spans) == text
    assert all(s.text.lower() in terms for s in spans if s.match)


def test_the_page_marks_terms_and_escapes_the_rest():
    shown = marked("Berlin *marathon* [link](http://x)", ("berlin", "marathon"))
    assert shown.startswith(":orange-background[Berlin]")
    assert ":orange-background[marathon]" in shown and "\\*" in shown and "\\[link\\]" in shown


def test_queries_most_reordered_first():
    from ranklens.compare.rankings import most_reordered

    deltas = {"q1": -0.2, "q2": 0.1, "q3": 0.0, "q4": -0.5}
    rbo = {"q1": 0.9, "q2": 0.3, "q3": 0.3}
    # lowest RBO first; equal RBO: the bigger loss first (q3's 0.0 before q2's +0.1); no RBO last
    assert most_reordered(deltas, rbo) == ["q3", "q2", "q1", "q4"]
