"""What the AppTest page tests share: run a page script, read the metric cards it shows."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds per run: generous, the machine may be shared


def run_page(script: Path) -> AppTest:
    """``script`` (app.py or a page file) after its first run, which raised nothing."""
    at = AppTest.from_file(str(script), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric_cards(at: AppTest) -> dict[str, str]:
    """Label -> shown value of every st.metric on the page."""
    return {metric.label: metric.value for metric in at.metric}
