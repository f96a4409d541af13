"""The health section of the HTML export: failed and warning checks open with what to do, the
passed ones folded in one ``<details>``. Escapes every text (run and file names come from
inputs); computes nothing."""

from __future__ import annotations

from ranklens.health.result import SYMBOLS, HealthCheck, HealthReport
from ranklens.health.words import TITLE, counts, heading
from ranklens.html import text

_COLOURS = {"failed": ("#ffebe9", "#cf222e"), "warning": ("#fff8c5", "#d4a72c"),
            "passed": ("#f6f8fa", "#d0d7de")}


def section(health: HealthReport | None) -> str:
    """``<section id="health">`` for the export ("" for a report without health checks)."""
    if health is None or not health.checks:
        return ""
    items = [_check(check) for check in (*health.failed, *health.warnings)]
    if health.passed:
        inner = "".join(f"<li>{SYMBOLS['passed']} {text(heading(c))}: {text(c.message)}</li>"
                        for c in health.passed)
        items.append(f'<details class="health-passed"><summary>{len(health.passed)} passed'
                     f"</summary><ul>{inner}</ul></details>")
    return (f'<section id="health"><h2>{TITLE}</h2><p>{text(counts(health))}.</p>'
            + "".join(items) + "</section>")


def _check(check: HealthCheck) -> str:
    background, border = _COLOURS[check.status]
    action = (f"<p><strong>What to do:</strong> {text(check.action)}</p>" if check.action
              else "")
    examples = (f"<p class=\"note\">{text('; '.join(check.examples))}</p>" if check.examples
                else "")
    return (f'<div class="health-{check.status}" style="background: {background}; border: 1px '
            f'solid {border}; border-radius: 6px; padding: 0.5rem 1rem; margin: 0.5rem 0">'
            f"<p><strong>{SYMBOLS[check.status]} {check.status}: {text(heading(check))}"
            f"</strong>. {text(check.message)}</p>{action}{examples}</div>")
