"""Notes: what a statistics function has to say about its input, returned as a value.

A note is the text of a warning and its category (``UserWarning`` for dropped queries,
`SmallSampleWarning` for too few). The feature layer (``ranklens.compare``, ``plan``, ``ppi``)
reads them from the results it gets back and shows them in its report; the public functions
of ``ranklens.stats`` that the seeds specify as warning still warn, with `emit`. No caller has
to catch warnings to learn what happened.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from ranklens.stats.errors import SmallSampleWarning

__all__ = ["Note", "emit", "emitted"]

T = TypeVar("T")


@dataclass(frozen=True)
class Note:
    """One thing the caller should know about the numbers: ``text`` in words, and the warning
    ``category`` it is emitted as (``small_sample`` says it is a `SmallSampleWarning`)."""

    text: str
    category: type[Warning] = UserWarning

    @property
    def small_sample(self) -> bool:
        return issubclass(self.category, SmallSampleWarning)


def emit(notes: Iterable[Note], stacklevel: int = 2) -> None:
    """Warn each note, as seen from ``stacklevel`` frames above the caller of `emit`."""
    for note in notes:
        warnings.warn(note.text, note.category, stacklevel=stacklevel + 1)


def emitted(result_and_notes: tuple[T, tuple[Note, ...]], stacklevel: int = 2) -> T:
    """The result of a ``*_with_notes`` call, its notes warned (`emit`) as seen from
    ``stacklevel`` frames above the caller: how a public function that warns returns."""
    result, notes = result_and_notes
    emit(notes, stacklevel + 1)
    return result
