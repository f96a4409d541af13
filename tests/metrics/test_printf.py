"""ranklens.metrics.printf against C's printf as Python's ``%`` gives it (the same exact,
half-to-even rounding of the binary value), and NaN with its sign as C prints it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.metrics.printf import c_nan, fixed_point, whole_numbers

# exact ties at 4 decimals (k/2^m with a 5 in the fifth decimal), values next to them, the
# signs C keeps (-0.0, a negative that rounds to zero), carries into a new digit, large ones
EDGES = [0.03125, 0.09375, 0.00005, 0.5, 2.5e-5, 1.5e-4, -0.0, 0.0, -1e-7, 0.99995, 9.99995,
         99999.99995, 0.999949999, 123.45675, 1e11, 1e12, -3.75, 2.0**-10, 1e-300, 7e15,
         np.nextafter(0.03125, 1.0), np.nextafter(0.03125, 0.0), 1 / 3, 2 / 3, -2 / 3]


def _c(values: list[float], digits: int, width: int) -> list[str]:
    form = f"%{width or ''}.{digits}f"
    return [c_nan(v, width) if math.isnan(v) else form % v for v in values]


@pytest.mark.parametrize(("digits", "width"), [(4, 6), (4, 0), (2, 6), (0, 0), (0, 3),
                                               (6, 0), (3, 12), (9, 0), (12, 0)])
def test_the_edges_print_as_c_prints_them(digits, width):
    values = [*EDGES, math.inf, -math.inf, math.nan, -math.nan]
    assert fixed_point(np.array(values), digits, width).to_pylist() == \
        _c(values, digits, width)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.floats(-10, 10), st.floats(0, 1),
                          st.integers(-10**6, 10**6).map(lambda k: k / 2**5),
                          st.integers(-10**9, 10**9).map(lambda k: k / 10**5)),
                min_size=1, max_size=60),
       st.integers(0, 10), st.sampled_from([0, 6, 9]))
def test_any_double_prints_as_c_prints_it(values, digits, width):
    assert fixed_point(np.array(values, dtype=np.float64), digits, width).to_pylist() == \
        _c(values, digits, width)


def test_a_nan_keeps_its_sign_as_in_c():
    assert c_nan(-math.nan, 6) == "  -nan" and c_nan(math.nan) == "nan"


def test_many_values_at_once_as_one_at_a_time():
    rng = np.random.default_rng(11)
    values = np.concatenate([rng.random(50_000), rng.normal(0, 50, 5_000),
                             rng.integers(0, 2**12, 5_000) / 2**12])
    assert fixed_point(values, 4, 6).to_pylist() == _c(values.tolist(), 4, 6)


@given(st.lists(st.integers(-2**62, 2**62), min_size=1, max_size=40), st.booleans())
def test_whole_numbers_print_as_percent_d(numbers, as_floats):
    values = np.array(numbers, dtype=np.float64 if as_floats else np.int64)
    # the % operator on purpose: %d is what C prints
    assert whole_numbers(values).to_pylist() == ["%d" % v for v in values.tolist()]  # noqa: UP031
