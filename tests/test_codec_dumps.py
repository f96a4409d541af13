"""`codec.dumps` with an indent writes `json.dumps`'s text to the byte (its own writer is there
for speed: json's indenting encoder is pure Python)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranklens import codec

_leaves = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


@given(st.dictionaries(st.text(max_size=6), _values, max_size=5), st.sampled_from([1, 2, 4]))
def test_indented_text_is_json_dumps_text(data, indent):
    assert codec.dumps(data, indent=indent) == json.dumps(data, indent=indent,
                                                          ensure_ascii=False, allow_nan=False)


def test_non_finite_numbers_are_named_and_the_text_reads_back():
    data = {"per_query": {"q1": 0.5, "q/2": math.nan, "q~3": -math.inf}, "empty": {}, "l": []}
    text = codec.dumps(data, indent=2)
    assert text == json.dumps(codec.encode(data), indent=2, ensure_ascii=False)
    assert json.loads(text)["non_finite"] == {"/per_query/q~12": "not a number",
                                              "/per_query/q~03": "minus infinite"}
    back = codec.loads(text)
    assert back["per_query"]["q1"] == 0.5 and math.isnan(back["per_query"]["q/2"])


def test_a_key_that_is_not_text_is_refused_by_the_writer():
    with pytest.raises(TypeError, match="keys must be str"):
        codec._indented({1: 2.0}, 0, 2)
