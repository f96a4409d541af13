"""Names a package exports but imports only on first use (PEP 562 ``__getattr__``).

    __getattr__, __dir__ = lazy_names(__name__, globals(), {"Run": ".tables", ...})

Each name is looked up in its home module the first time it is read and then kept in the
package's namespace, so the second read costs nothing and ``import ranklens`` (or
``ranklens.io``, ``ranklens.metrics``) does not import numpy, pandas or pyarrow until a name
that needs them is used. It answers where a name lives; it does not choose which names a
package exports (its ``__all__`` does). `installed_version` is the one reading of the
package's version (``ranklens.__version__`` and every result's ``version``), made on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(
    package: str,
    namespace: dict[str, Any],
    homes: Mapping[str, str],
    computed: Mapping[str, Callable[[], Any]] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` whose names load on first use.

    ``homes`` maps each name to its module, absolute (``"ranklens.api"``) or relative to
    ``package`` (``".runs"``); ``computed`` maps names to functions that produce the value
    (``__version__``). A name in neither is an ``AttributeError``, as for any module.
    """
    extra = dict(computed or {})

    def __getattr__(name: str) -> Any:
        if name in extra:
            value = extra[name]()
        elif name in homes:
            value = getattr(import_module(homes[name], package), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *homes, *extra})

    return __getattr__, __dir__


def imported(target: str) -> Callable[..., Any]:
    """The function ``target`` (``"package.module:function"``), imported when asked for.

    A result type keeps its convenience methods (``Report.to_frame``, ``to_latex``,
    ``_repr_html_``) without importing a renderer, and an input type (``LoadedInputs.report``)
    without importing the steps that take it: the method names the function here and calls
    it, so the lower module depends on nothing above it, and the function's module alone
    imports it. It answers where a function lives; the work is the function's.
    """
    module, _, name = target.partition(":")
    function: Callable[..., Any] = getattr(import_module(module), name)
    return function


@functools.cache
def installed_version() -> str:
    """The installed ranklens version (pyproject.toml's, through the package metadata), read
    once; ``0.0.0+unknown`` in a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ranklens")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0+unknown"
