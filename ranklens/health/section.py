"""The Health section of a report, as ``ranklens.document`` blocks.

Answers "what did the health checks find", for every face at once: the counts as the
section's lead, one `Callout` per check that did not pass (what it found, what to do, a few
examples), and the passed checks `Folded` (each one, and all of them in one line). None for a
report without health checks (written before them). The words are ``ranklens.health.check_words``'s.
"""

from __future__ import annotations

from ranklens.document.blocks import Block, Callout, Folded, Section
from ranklens.health.check_words import TITLE, counts, heading, passed_line
from ranklens.health.result import HealthCheck, HealthReport


def health_section(health: HealthReport | None) -> Section | None:
    """The health checks of a report as a section (see the module docstring)."""
    if health is None or not health.checks:
        return None
    blocks: list[Block] = [_callout(check) for check in (*health.failed, *health.warnings)]
    if health.passed:
        blocks.append(Folded("passed", f"{len(health.passed)} passed",
                             tuple(_callout(check) for check in health.passed),
                             passed_line(health)))
    return Section("health", TITLE, tuple(blocks), lead=counts(health))


def _callout(check: HealthCheck) -> Callout:
    return Callout(check.status, heading(check), check.message, check.action,
                   tuple(check.examples))
