"""The one base of every error (and warning) ranklens raises.

``except RanklensError`` catches anything the package raises on purpose: bad input, bad usage,
too few queries, an unreadable share link, a store that is down. Each class keeps the built-in
base it had before (``InputError`` is still a ``ValueError``, ``ReportNotFound`` a
``LookupError``), so code that catches those keeps working.

Warnings have their own base, ``RanklensWarning`` (a ``UserWarning``): a warning says the numbers
are computable but shaky, which is not an error, and ``except RanklensError`` should not start
catching warnings that a user escalated with ``-W error``.

This module imports nothing of ranklens, so every layer can import it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["MetricError", "OptionError", "RanklensError", "RanklensWarning"]


class RanklensError(Exception):
    """Base of every exception the ranklens package defines.

    An error that carries its facts as fields (``InputError``'s source and line,
    ``InsufficientSampleError``'s counts) is a ``@dataclass(eq=False, repr=False)`` subclass
    whose ``__str__`` writes the message from them: compared by identity and shown like any
    exception, and pickled (copied, sent to a worker process) by those fields, here, so that
    each class need not say how.
    """

    def __post_init__(self) -> None:  # a dataclass error's args: its message, as for any other
        self.args = (str(self),)

    def __reduce__(self) -> str | tuple[Any, ...]:
        if not dataclasses.is_dataclass(self):
            return super().__reduce__()
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        return (_rebuild, (type(self), fields), self.__dict__ or None)


def _rebuild(cls: type[RanklensError], fields: dict[str, Any]) -> RanklensError:
    return cls(**fields)


class RanklensWarning(UserWarning):
    """Base of every warning the ranklens package defines."""


class OptionError(RanklensError, ValueError):
    """An option outside its choices or range (``alpha=2``, ``missing='skip'``); the message
    names the option, the value given and what is allowed."""


class MetricError(RanklensError, ValueError):
    """A metric name or parameter ranklens cannot compute (``ndcg@0``, an unknown measure)."""
