"""The demo's Compare report prepared ahead: the first view of the demo without computing it.

`prepared_report(key)` answers "is the report under this cache key the one shipped with
ranklens?": the demo's Compare page at its defaults (three runs, nDCG@10, segments by intent)
is computed once when the package is made and kept as JSON beside the demo's files
(``ranklens/demo/data/prepared_compare.json``), under the app's cache key of that report and
the version that computed it. A key or a version that differs gets None, and the page
computes the report as for any input. Nothing here computes a report; the file is written by
``python -m tests.support.prepared_demo --write``, and a test checks that it is what the page
computes today (``tests/app/test_prepared_demo.py``), so a change of numbers or defaults that
forgets it fails there, not on the page.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ranklens import codec
from ranklens._lazy import installed_version
from ranklens.compare.report import Report
from ranklens.demo import data_dir

PREPARED_FILE = "prepared_compare.json"


def prepared_report(key: str) -> Report | None:
    """The shipped report under the cache ``key`` (the `repr` of the app's key), or None:
    another key, another version, or no file."""
    stored = _stored()
    if stored is None or stored.get("key") != key or stored.get("version") != installed_version():
        return None
    return Report.from_dict(stored["report"])


def prepared_text(key: str, report: Report) -> str:
    """What the file holds for ``report`` under ``key``: the key, the version and the report's
    JSON (`Report.to_json`), one object."""
    return json.dumps({"key": key, "version": report.version,
                       "report": codec.encode(report.to_dict())},
                      ensure_ascii=False, allow_nan=False, sort_keys=True) + "\n"


@cache
def _stored() -> dict[str, Any] | None:
    path = data_dir() / PREPARED_FILE
    if not path.is_file():
        return None
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
