"""Work on many rows split between two threads: numpy lets go of the GIL in its loops, so two
halves of a long array are sorted, copied or hashed at once on a machine with two CPUs.

It answers where to cut and runs the two calls; it does not know what the work is (the keys
of `ranklens.data.id_keys`, the readers' copies in `ranklens.io.build`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
# below this many items one thread is faster than two
PARALLEL_FROM = 1 << 20


def in_two(n: int, work: Callable[[int, int], T]) -> list[T]:
    """``work(start, stop)`` over ``range(n)``: in two halves at once when ``n`` is large and
    there are two CPUs, else in one call."""
    if not _two_threads(n):
        return [work(0, n)]
    middle = n // 2
    return _at_once([lambda: work(0, middle), lambda: work(middle, n)])


def in_two_parts(bounds: np.ndarray, work: Callable[[int, int], T]) -> list[T]:
    """``work(first, last)`` over parts ``first..last-1`` of rows, part ``k`` being rows
    ``bounds[k]..bounds[k + 1]-1`` (``bounds`` starts at 0 and ends at the row count): in two
    calls at once, split at the part bound nearest half the rows, when the rows are many and
    there are two CPUs, else in one call. For work that must not cut a part (a query, a
    reader block)."""
    parts, rows = len(bounds) - 1, int(bounds[-1])
    middle = int(np.searchsorted(bounds, rows // 2))
    if not _two_threads(rows) or not 0 < middle < parts:
        return [work(0, parts)]
    return _at_once([lambda: work(0, middle), lambda: work(middle, parts)])


def _two_threads(n: int) -> bool:
    return n >= PARALLEL_FROM and (os.cpu_count() or 1) >= 2


def _at_once(tasks: list[Callable[[], T]]) -> list[T]:
    """The tasks' results, the first ones run on threads of their own and the last on this
    one (numpy lets go of the GIL in its loops); an exception is raised here."""
    out: list[Any] = [None] * len(tasks)

    def run(k: int) -> None:
        try:
            out[k] = tasks[k]()
        except BaseException as error:  # raised again on the calling thread
            out[k] = error

    threads = [threading.Thread(target=run, args=(k,), daemon=True)
               for k in range(len(tasks) - 1)]
    for thread in threads:
        thread.start()
    try:
        run(len(tasks) - 1)
    finally:
        for thread in threads:
            thread.join()
    for result in out:
        if isinstance(result, BaseException):
            raise result
    return out


__all__ = ["PARALLEL_FROM", "in_two", "in_two_parts"]
