"""What the health checks found: one `HealthCheck` per check (and run), gathered in a
`HealthReport` that a comparison Report carries and every face shows before the verdict.

These types hold results and read them back from JSON; they compute nothing (the checks are
``ranklens.health.documents``, ``self_retrieval``, ``identical`` and ``judgements``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from ranklens.document.blocks import SYMBOLS as _SYMBOLS
from ranklens.errors import RanklensError

Status = Literal["passed", "warning", "failed"]
STATUSES: tuple[Status, ...] = ("failed", "warning", "passed")
"""Worst first: the order checks are listed in."""
SYMBOLS = _SYMBOLS  # the document's marks (ranklens.document.blocks.SYMBOLS)


class HealthCheckFailed(RanklensError, ValueError):
    """A comparison asked to be strict (``strict=True``, ``ranklens compare --strict``) whose
    inputs failed a health check: the numbers exist but cannot mean what they seem to.

    ``report`` is the comparison with its health section, for whoever wants to show it.
    """

    def __init__(self, failed: Sequence[HealthCheck], report: Any = None) -> None:
        self.failed = tuple(failed)
        self.report = report
        listed = "; ".join(f"{c.title}" + (f" ({c.subject})" if c.subject else "")
                           + f": {c.message}" for c in self.failed)
        super().__init__(f"{len(self.failed)} health check(s) failed: {listed}")


@dataclass(frozen=True)
class HealthCheck:
    """One check's verdict on the inputs.

    ``key`` names the check (``documents``, ``self-retrieval``, ``identical-runs``,
    ``relevant-documents``, ``grades``, ``collection``); ``subject`` the run it is about
    ("" for the judgements or the whole comparison) and ``runs`` its index among the report's
    runs (0 the baseline; empty when it is about no single run, two for a pair). ``numbers``
    are what was counted, ``examples`` a few ids or lines that show it, ``action`` what to do
    ("" when it passed).
    """

    key: str
    title: str
    status: Status
    message: str
    action: str = ""
    subject: str = ""
    runs: tuple[int, ...] = ()
    numbers: Mapping[str, float] = field(default_factory=dict)
    examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown health status {self.status!r}; one of {STATUSES}")
        object.__setattr__(self, "numbers", MappingProxyType(dict(self.numbers)))

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "status": self.status,
                "subject": self.subject, "runs": list(self.runs), "message": self.message,
                "action": self.action, "numbers": dict(self.numbers),
                "examples": list(self.examples)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HealthCheck:
        return cls(key=data["key"], title=data["title"], status=data["status"],
                   message=data["message"], action=data.get("action", ""),
                   subject=data.get("subject", ""), runs=tuple(data.get("runs", ())),
                   numbers=data.get("numbers", {}), examples=tuple(data.get("examples", ())))


@dataclass(frozen=True)
class HealthReport:
    """Every check of one comparison, failed ones first; ``withheld`` says why no verdict is
    drawn ("" when one is: the checks leave the comparison readable)."""

    checks: tuple[HealthCheck, ...] = ()
    withheld: str = ""

    def __post_init__(self) -> None:
        ordered = sorted(self.checks, key=lambda c: STATUSES.index(c.status))
        object.__setattr__(self, "checks", tuple(ordered))

    @property
    def status(self) -> Status:
        """The worst status of any check ("passed" when there is none)."""
        return self.checks[0].status if self.checks else "passed"

    @property
    def failed(self) -> tuple[HealthCheck, ...]:
        return tuple(c for c in self.checks if c.status == "failed")

    @property
    def warnings(self) -> tuple[HealthCheck, ...]:
        return tuple(c for c in self.checks if c.status == "warning")

    @property
    def passed(self) -> tuple[HealthCheck, ...]:
        return tuple(c for c in self.checks if c.status == "passed")

    def of_run(self, index: int) -> tuple[HealthCheck, ...]:
        """The checks about run ``index`` (alone or in a pair)."""
        return tuple(c for c in self.checks if index in c.runs)

    def for_pair(self, candidate: int) -> HealthReport:
        """The checks that concern the baseline and run ``candidate`` (and the inputs as a
        whole), their run indices renumbered as in a two-run report (candidate -> 1)."""
        keep = {0, candidate}
        renumber = {0: 0, candidate: 1}
        checks = [_renumbered(c, renumber) for c in self.checks
                  if not c.runs or set(c.runs) <= keep]
        return HealthReport(tuple(checks), self.withheld_for(candidate))

    def withheld_for(self, candidate: int) -> str:
        """Why no verdict is drawn about ``candidate`` against the baseline ("" if one is)."""
        failing = [c for c in self.failed if c.key == "documents" and c.runs
                   and set(c.runs) <= {0, candidate}]
        if not failing:
            return ""
        return withheld_sentence(failing)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "withheld": self.withheld,
                "checks": [c.to_dict() for c in self.checks]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HealthReport:
        return cls(tuple(HealthCheck.from_dict(c) for c in data.get("checks", ())),
                   data.get("withheld", ""))


def withheld_sentence(failing: Sequence[HealthCheck]) -> str:
    """Why there is no verdict when a run's documents match (almost) no judgement."""
    shares = ", ".join(f"{c.subject} {_share(c.numbers.get('judged_share', 0.0))}"
                       for c in failing)
    depth = int(failing[0].numbers.get("depth", 10))
    if len(failing) > 1:
        who = "the documents of neither run match the judgements"
        scored = "every metric scores unjudged documents, not the rankings"
    else:
        who = f"the documents of {failing[0].subject} do not match the judgements"
        scored = f"the metrics of {failing[0].subject} score unjudged documents, not its ranking"
    return (f"No verdict: {who} (judged share of the top {depth}: {shares}), so {scored}. "
            "A difference, or none, says nothing here about which run ranks better: fix the "
            "ids (see the health checks), then compare again.")


def _share(share: float) -> str:
    return "under 1%" if 0 < share < 0.01 else f"{share:.0%}"


def _renumbered(check: HealthCheck, renumber: Mapping[int, int]) -> HealthCheck:
    if not check.runs:
        return check
    return HealthCheck(check.key, check.title, check.status, check.message, check.action,
                       check.subject, tuple(renumber[i] for i in check.runs), check.numbers,
                       check.examples)
