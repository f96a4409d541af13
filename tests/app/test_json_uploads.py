"""The Compare page reads ranx / BEIR JSON uploads as the TREC files they stand for."""

from __future__ import annotations

import json

from ranklens import demo
from tests.io.test_io_nested_json import trec_as_dict
from tests.support.page_testing import ROOT, metric_cards, run_page

DEMO = demo.paths()


def test_json_uploads_give_the_cards_of_the_trec_files() -> None:
    at = run_page(ROOT / "app.py")
    at.radio(key="data_source").set_value("My files").run()
    shown = []
    for form in ("trec", "json"):
        for role, field in (("run_a", 4), ("run_b", 4), ("qrels", 3)):
            path = DEMO[role]
            data = path.read_bytes() if form == "trec" else \
                json.dumps(trec_as_dict(path, field)).encode()
            at.file_uploader(key=f"upload_{role}").upload(f"{path.stem}.{form}", data)
        next(b for b in at.button if b.label == "Compare").click().run()
        assert not at.exception and not at.error, [e.value for e in at.error]
        shown.append(metric_cards(at))
    trec_cards, json_cards = shown
    assert len(trec_cards) >= 5
    assert json_cards == trec_cards
