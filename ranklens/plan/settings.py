"""Every setting of the MDE page, resolved, and its plain-JSON form (share links, HTML files).

``PlanSettings`` answers "which plan did the page make": where the spread of per-query
differences came from (``SpreadSource``: the demo or pilot runs with a metric and document
order, per-query tables, or a typed-in sd), the number of queries, alpha, power, the z or t
method, the target difference and the target differences of the table. ``to_dict`` writes the
form share links and the HTML file store; ``from_dict`` reads it back, old links included.

It does not plan (``ranklens.plan.analysis``) or read files: the spread's files travel beside
the settings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ranklens import page_settings as check
from ranklens.metrics import ordering as metric_orders
from ranklens.plan.analysis import DEFAULT_DELTAS
from ranklens.stats import POWER_METHODS

PAGE = "MDE"
SOURCES = ("demo", "pilot", "tables", "typed")
"""Where the spread comes from: the bundled demo pilot runs, the user's pilot runs and
judgements, the user's per-query table(s), or an sd typed in."""
ORDERS = metric_orders.ORDERS
"""How pilot runs order their documents: by score (ties by doc id, as trec_eval) or by the
rank column."""
METHODS = ("auto", *POWER_METHODS)
OLD_ORDER = "score"
"""The document order of links written before the page stored it (the only order then)."""


def default_deltas(target: float) -> tuple[float, ...]:
    """The table's target differences a first visit uses: the defaults and ``target``."""
    return tuple(dict.fromkeys((*DEFAULT_DELTAS, target)))


@dataclass(frozen=True)
class SpreadSource:
    """Where the spread of per-query differences was measured, and on what.

    ``source`` is one of `SOURCES`; the other fields are those of that source and None for
    the rest: ``sd`` (typed), ``metric`` and ``order`` (demo, pilot), ``metric`` (tables: one
    table per run), ``column_a`` and ``column_b`` (tables: one table with both runs;
    ``column_a`` may be the page's "differences only" choice). Raises ``ValueError`` for any
    other combination.
    """

    source: str
    sd: float | None = None
    metric: str | None = None
    order: str | None = None
    column_a: str | None = None
    column_b: str | None = None

    def __post_init__(self) -> None:
        check.one_of(PAGE, "source", self.source, SOURCES)
        given = {f.name for f in dataclasses.fields(self)
                 if f.name != "source" and getattr(self, f.name) is not None}
        allowed = _SOURCE_FIELDS[self.source]
        if given not in allowed:
            expected = " or ".join(", ".join(sorted(fields)) for fields in allowed)
            raise ValueError(f"the {PAGE} spread from {self.source!r} takes {expected}; got "
                             f"{', '.join(sorted(given)) or 'none of them'}")
        if self.sd is not None:
            check.number(PAGE, "sd", self.sd, above=0.0)
        if self.order is not None:
            check.one_of(PAGE, "order", self.order, ORDERS)
        for name in ("metric", "column_a", "column_b"):
            if getattr(self, name) is not None:
                check.text(PAGE, name, getattr(self, name))


_SOURCE_FIELDS: dict[str, tuple[frozenset[str], ...]] = {
    "typed": (frozenset({"sd"}),),
    "demo": (frozenset({"metric", "order"}),),
    "pilot": (frozenset({"metric", "order"}),),
    "tables": (frozenset({"metric"}), frozenset({"column_a", "column_b"})),
}
_SPREAD_KEYS = tuple(f.name for f in dataclasses.fields(SpreadSource))  # to_dict's order
_TEST_KEYS = ("n_queries", "alpha", "power", "method", "target", "deltas")
_ALWAYS_STORED = ("source", "n_queries", "alpha", "power", "method", "target")


@dataclass(frozen=True)
class PlanSettings:
    """Every setting of an MDE plan, written out (no default left implicit).

    ``deltas`` are the target differences of the queries-needed table; they include
    ``target`` (the page's headline reads its row). Raises ``ValueError`` for a value the page
    cannot plan with, naming the setting.
    """

    spread: SpreadSource
    n_queries: int
    alpha: float
    power: float
    method: str
    target: float
    deltas: tuple[float, ...]

    def __post_init__(self) -> None:
        check.number(PAGE, "n_queries", self.n_queries, above=1, integer=True)
        check.number(PAGE, "alpha", self.alpha, above=0.0, below=1.0)
        check.number(PAGE, "power", self.power, above=0.0, below=1.0)
        check.one_of(PAGE, "method", self.method, METHODS)
        check.number(PAGE, "target", self.target, above=0.0)
        if not isinstance(self.deltas, tuple) or not self.deltas:
            raise ValueError(f"the {PAGE} setting deltas must be a non-empty list of "
                             f"differences, not {self.deltas!r}")
        for delta in self.deltas:
            check.number(PAGE, "deltas", delta, above=0.0)
        if self.target not in self.deltas:
            raise ValueError(f"the {PAGE} setting deltas must include the target "
                             f"{self.target:g}; got {list(self.deltas)}")

    def to_dict(self) -> dict[str, Any]:
        """Every setting as plain JSON, flat: the spread's source and its fields (those of
        other sources left out), then the test's (``deltas`` a list). What links and the HTML
        file store; the key order is the page's since share links began."""
        spread = {key: getattr(self.spread, key) for key in _SPREAD_KEYS
                  if getattr(self.spread, key) is not None}
        test = {key: getattr(self, key) for key in _TEST_KEYS}
        return {**spread, **test, "deltas": list(self.deltas)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, written_by: str = "this") -> PlanSettings:
        """Settings back from `to_dict`'s form, and from links written before it.

        Links written before the page stored them get the settings the page then used: the
        document order ``"score"`` for pilot runs (`OLD_ORDER`) and the table's default
        target differences (`default_deltas`, links before format 2). Raises ``ValueError``
        naming the settings this version does not know (``written_by`` says which ranklens
        wrote them: applying only the known ones would give other numbers than the writer
        saw), the settings missing, or a value the page cannot plan with.
        """
        check.refuse_unknown(data, (*_SPREAD_KEYS, *_TEST_KEYS), written_by=written_by)
        check.require(data, _ALWAYS_STORED, page=PAGE, written_by=written_by)
        spread = {key: data[key] for key in _SPREAD_KEYS if key in data}
        if data["source"] in ("demo", "pilot"):
            spread.setdefault("order", OLD_ORDER)
        test = {key: data[key] for key in _ALWAYS_STORED[1:]}
        deltas = data.get("deltas")
        if isinstance(deltas, list):
            deltas = tuple(deltas)
        return cls(spread=SpreadSource(**spread), **test,
                   deltas=default_deltas(test["target"]) if deltas is None else deltas)
