"""What the AppTest page tests share: run the app on one of its pages, read its metric cards."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds per run: generous, the machine may be shared


def run_page(script: Path) -> AppTest:
    """The app after its first run on ``script`` (app.py: the default page, or a file in
    pages/), which raised nothing. A page always runs inside app.py, as in the browser."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    if script.resolve() != (ROOT / "app.py").resolve():
        at.switch_page(str(script.resolve().relative_to(ROOT)))  # the page's own URL path
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric_cards(at: AppTest) -> dict[str, str]:
    """Label -> shown value of every st.metric on the page."""
    return {metric.label: metric.value for metric in at.metric}


def open_sections(at: AppTest) -> AppTest:
    """Open every section the page draws only when opened (``ranklens.app.lazy``), as a
    reader clicking each one, then the ones that appear inside them; answers ``at`` after the
    last run, which raised nothing."""
    from ranklens.app.lazy import PREFIX

    for _ in range(5):  # sections inside sections: a few levels at most
        shut = [key for key in at.session_state.to_dict()
                if str(key).startswith(PREFIX) and not at.session_state[key]]
        if not shut:
            break
        for key in shut:
            at.session_state[key] = True
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    return at
