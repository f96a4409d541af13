"""What differs between two page results in their plain-JSON form (the MDE and PPI pages'
payloads): a share link's stored numbers and the same inputs and settings recomputed.

``payload_changes(stored, recomputed)`` answers "which settings, headline numbers and other
values are not the same", in words: a headline card by its label ("MDE with 400 queries was
0.0217, now 0.0220"), then how many other values differ with the first few by their path in
the payload. An empty answer means every compared value is the same. The Compare page's
``Report`` has its own, more specific answer (``ranklens.compare.changes``). It computes
nothing and does not say which result is right.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

NOT_COMPARED = frozenset({"kind", "schema", "ranklens_version", "inputs", "settings",
                          "headline", "non_finite"})
"""Payload keys that are not results (or are compared on their own: settings, headline)."""
MAX_PATHS = 3
"""Other differing values named by their path; the rest are counted."""


def payload_changes(stored: Mapping[str, Any], recomputed: Mapping[str, Any], *,
                    viewer_choices: Sequence[str] = ()) -> tuple[str, ...]:
    """Every difference between two payloads of one page, in words (empty: none).

    ``viewer_choices`` are payload keys and setting names that the viewer of the page sets
    (the PPI page's gold-budget planner): differences there are not the version's and are left
    out.
    """
    skipped = set(viewer_choices)
    settings_before = {k: v for k, v in dict(stored.get("settings") or {}).items()
                       if k not in skipped}
    settings_after = {k: v for k, v in dict(recomputed.get("settings") or {}).items()
                      if k not in skipped}
    lines = [f"setting {key}: was {settings_before.get(key)!r}, now "
             f"{settings_after.get(key)!r}"
             for key in dict.fromkeys((*settings_before, *settings_after))
             if not _same(settings_before.get(key), settings_after.get(key))]
    lines.extend(_card_changes(stored.get("headline") or [], recomputed.get("headline") or []))
    paths = [path for key in dict.fromkeys((*stored, *recomputed))
             if key not in NOT_COMPARED and key not in skipped
             for path in _differing(stored.get(key), recomputed.get(key), key)]
    if paths:
        named = "; ".join(paths[:MAX_PATHS])
        more = f" and {len(paths) - MAX_PATHS} more" if len(paths) > MAX_PATHS else ""
        lines.append(f"{len(paths)} stored values differ beyond the headline: {named}{more}")
    return tuple(lines)


def _card_changes(before: Sequence[Mapping[str, Any]],
                  after: Sequence[Mapping[str, Any]]) -> list[str]:
    cards_before = {str(card.get("label")): card for card in before}
    cards_after = {str(card.get("label")): card for card in after}
    lines = []
    for label in dict.fromkeys((*cards_before, *cards_after)):
        was, now = cards_before.get(label), cards_after.get(label)
        if was is None or now is None:
            side, card = ("recomputed", now) if was is None else ("stored", was)
            lines.append(f"{label}: only in the {side} result ({(card or {}).get('shown')})")
        elif was.get("shown") != now.get("shown"):
            lines.append(f"{label} was {was['shown']}, now {now['shown']}")
        elif not _same(was.get("value"), now.get("value")):
            lines.append(f"{label} {now['shown']}, differs beyond the digits shown")
    return lines


def _differing(before: Any, after: Any, path: str) -> Iterator[str]:
    """Paths of the leaves that differ (a leaf on one side only differs too)."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in dict.fromkeys((*before, *after)):
            yield from _differing(before.get(key), after.get(key), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (a, b) in enumerate(zip(before, after, strict=True)):
            yield from _differing(a, b, f"{path}[{index}]")
    elif not _same(before, after):
        yield f"{path} was {_short(before)}, now {_short(after)}"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
