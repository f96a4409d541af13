"""C's ``printf("%W.Df")`` and ``printf("%ld")`` of many numbers at once, as Arrow strings.

trec_eval prints every value with ``%6.4f``: the exact binary value rounded to 4 decimals,
half to even, a ``-`` for any negative value (``-0.0000`` too). Python's ``%`` gives the same
text, one value at a time; for the 670,000 values of ``-q -m all_trec`` on a 7,000-query run
that loop is most of the time the lines take. Here the rounding is one numpy pass and the
digits are written into a byte matrix, so no Python string is made per value. A value whose
rounding float arithmetic cannot settle (within a few units in the last place of half a unit,
an exact tie such as 0.03125, a NaN or an infinity, or a value too large to scale) is
formatted by Python's ``%`` (a NaN with its sign, as C prints it), so every string is the one
C prints. Nothing here knows what the numbers mean.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from ranklens.metrics.arrow import arrow_indices, texts

# above this many units of the last decimal, the scaled value's integer part leaves too few
# bits for its fraction: such values go to Python's formatting
_LARGEST_SCALED = float(2**50)
# decimals done here (10**digits is exact and the scaled values stay in range)
_MOST_DIGITS = 9
_ZERO, _DOT, _MINUS, _SPACE = ord("0"), ord("."), ord("-"), ord(" ")


def fixed_point(values: np.ndarray, digits: int, width: int = 0) -> pa.Array:
    """``"%{width}.{digits}f" % v`` for each of ``values`` (float64), as a large_string
    array."""
    values = np.asarray(values, dtype=np.float64)
    if digits > _MOST_DIGITS or digits < 0 or not len(values):
        return _by_python(values, digits, width)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN, inf and huge: Python's turn
        scaled = np.abs(values) * 10.0 ** digits
        # the exact |v| * 10^digits is within scaled * 2^-52 of ``scaled``: a fraction that far
        # from one half rounds the same way for both
        unsure = ~(scaled < _LARGEST_SCALED) | (
            np.abs(scaled - np.floor(scaled) - 0.5) <= scaled * 2.0**-50)
    units = np.rint(np.where(unsure, 0.0, scaled)).astype(np.int64)
    text = _write(units, np.signbit(values) & ~unsure, digits, width)
    slow = np.flatnonzero(unsure)
    if not len(slow):
        return text
    exact = _by_python(values[slow], digits, width)
    index = np.arange(len(values), dtype=np.int64)
    index[slow] = len(values) + np.arange(len(slow))
    return pa.concat_arrays([text, exact]).take(arrow_indices(index))


def whole_numbers(values: np.ndarray) -> pa.Array:
    """``"%ld" % v`` for each of ``values`` (integers, or floats holding them: truncated), as
    a large_string array."""
    numbers = np.asarray(values).astype(np.int64)
    negative = numbers < 0
    return _write(np.abs(numbers), negative, 0, 0)


def _write(units: np.ndarray, negative: np.ndarray, digits: int, width: int) -> pa.Array:
    """The text of ``units / 10**digits`` (``units`` >= 0, a point before the last ``digits``
    digits, at least one digit before it), ``-`` before the negative ones, padded on the left
    with spaces to ``width``: every number written right-aligned into one row of a byte
    matrix, then each row's used bytes kept."""
    n = len(units)
    places = max(int(units.max(initial=0)), 1)
    count = len(str(places))  # decimal digits of the largest value
    integer_digits = max(count - digits, 1)
    size = max(integer_digits + (digits + 1 if digits else 0) + 1, width)
    matrix = np.full((n, size), _SPACE, dtype=np.uint8)
    rest = units.copy()
    column = size - 1
    for k in range(digits + integer_digits):  # from the last digit to the first
        if digits and k == digits:
            matrix[:, column] = _DOT
            column -= 1
        np.add(rest % 10, _ZERO, out=matrix[:, column], casting="unsafe")
        rest //= 10
        column -= 1
    # digits of the integer part: 1 for a value below 10, 2 below 100, ...
    whole = units // 10 ** digits
    used = np.ones(n, dtype=np.int64)
    bound = 10
    for _ in range(integer_digits - 1):
        used += whole >= bound
        bound *= 10
    length = used + (digits + 1 if digits else 0) + negative
    start = size - length
    columns = np.arange(size)[None, :]
    matrix[columns < start[:, None]] = _SPACE  # the integer part's leading zeros
    signed = np.flatnonzero(negative)
    matrix[signed, start[signed]] = _MINUS
    length = np.maximum(length, width)
    keep = columns >= (size - length)[:, None]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(length, out=offsets[1:])
    data = matrix[keep]
    return pa.Array.from_buffers(pa.large_string(), n,
                                 [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def _by_python(values: np.ndarray, digits: int, width: int) -> pa.Array:
    form = f"%{width or ''}.{digits}f"
    return texts([form % v if v == v else c_nan(v, width) for v in values.tolist()])


def c_nan(value: float, width: int = 0) -> str:
    """What C prints for a NaN: its sign too (0/0 gives -nan on x86), where Python prints
    ``nan``."""
    return f"{'-' if math.copysign(1.0, value) < 0 else ''}nan".rjust(width)


__all__ = ["c_nan", "fixed_point", "whole_numbers"]
