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

from typing import Any, Self

__all__ = ["MetricError", "OptionError", "RanklensError", "RanklensWarning"]


class RanklensError(Exception):
    """Base of every exception the ranklens package defines.

    Every one pickles (is copied, crosses to a worker process) by the arguments it was built
    with, here, so that no class has to say how. An error that carries its facts as fields
    (``InsufficientSampleError``'s counts) may be a ``@dataclass(eq=False, repr=False)``
    subclass whose ``__str__`` writes the message from them: compared by identity, shown and
    given ``args`` like any exception built from its message.
    """

    _arguments: tuple[tuple[Any, ...], dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        error = super().__new__(cls, *args, **kwargs)
        error._arguments = (args, kwargs)
        return error

    def __post_init__(self) -> None:  # a dataclass error's args: its message
        self.args = (str(self),)

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self._arguments
        return (_rebuild, (type(self), args, kwargs), self.__dict__)


def _rebuild(cls: type[RanklensError], args: tuple[Any, ...], kwargs: dict[str, Any]
             ) -> RanklensError:
    return cls(*args, **kwargs)


class RanklensWarning(UserWarning):
    """Base of every warning the ranklens package defines."""


class OptionError(RanklensError, ValueError):
    """An option outside its choices or range (``alpha=2``, ``missing='skip'``); the message
    names the option, the value given and what is allowed."""


class MetricError(RanklensError, ValueError):
    """A metric name or parameter ranklens cannot compute (``ndcg@0``, an unknown measure)."""
