"""What differs between two reports' health sections (a shared link's stored report and the
same inputs recomputed): for `ranklens.share.differences.report_changes`, in words."""

from __future__ import annotations

from ranklens.health.check_words import counts, heading
from ranklens.health.result import HealthReport


def health_changes(stored: HealthReport | None, recomputed: HealthReport | None) -> list[str]:
    """One sentence per check whose status or message differs; one for a section only one
    report has (a link stored before health checks existed)."""
    if stored is None and recomputed is None:
        return []
    if stored is None or recomputed is None:
        there = recomputed if stored is None else stored
        where = "recomputed" if stored is None else "stored"
        assert there is not None
        return [f"health checks: only in the {where} report ({counts(there)})"]
    before = {(c.key, c.subject): c for c in stored.checks}
    after = {(c.key, c.subject): c for c in recomputed.checks}
    lines = []
    for key in dict.fromkeys((*before, *after)):
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            shown = old if new is None else new
            assert shown is not None
            lines.append(f"health check {heading(shown)}: only in the "
                         f"{'stored' if new is None else 'recomputed'} report")
        elif old.status != new.status:
            lines.append(f"health check {heading(new)}: {old.status} \u2192 {new.status}")
        elif old.message != new.message:
            lines.append(f"health check {heading(new)}: {new.message}")
    return lines
