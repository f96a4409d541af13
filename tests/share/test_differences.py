"""ranklens.share.differences, the one "what differs" engine: reports as objects or in their
serialised form (as a share link stores them), and the MDE/PPI payloads, with the same words
for settings."""

from __future__ import annotations

import json
from pathlib import Path

from ranklens.compare.report import Report
from ranklens.share.differences import payload_changes, report_changes

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "demo"


def _stored() -> dict:
    return json.loads((GOLDEN / "compare_two.json").read_text(encoding="utf-8"))


def test_a_report_and_its_serialised_form_do_not_differ() -> None:
    stored = _stored()
    assert report_changes(stored, Report.from_dict(stored)) == ()


def test_a_changed_number_of_the_serialised_form_is_named_in_words() -> None:
    stored = _stored()
    recomputed = json.loads(json.dumps(stored))
    recomputed["comparisons"][0]["overall"]["p_value"] = 0.5
    recomputed["params"]["alpha"] = 0.1
    lines = report_changes(stored, recomputed)
    assert lines[0] == "setting alpha: was 0.05, now 0.1"
    assert "nDCG@10: p was < 0.001, now 0.500" in lines


def test_settings_of_a_payload_and_of_a_report_are_said_the_same_way() -> None:
    before = {"settings": {"alpha": 0.05}}
    after = {"settings": {"alpha": 0.05, "planner": "gold"}}
    assert payload_changes(before, after) == (
        "setting planner: not in the stored settings (a newer setting), recomputed with "
        "'gold'",)
    assert payload_changes(after, before) == (
        "setting planner: 'gold' in the stored settings, unknown to this version",)
