"""User strings are text, never markup: hostile file and run names reach the page escaped.

Streamlit renders captions, subheaders, metric labels, alerts and ``st.markdown`` as Markdown
(the inputs box as HTML too); every user string in them goes through ``ranklens.app.markup``.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ranklens import demo
from ranklens.app.markup import text
from tests.support.page_testing import run_page

ROOT = Path(__file__).resolve().parents[2]
DEMO = {role: path.read_bytes() for role, path in demo.paths().items()}
HOSTILE = "<img src=x onerror=alert(1)>"
LINK = "![seen](http://tracker.example.invalid/pixel.png)"


def every_markdown_source(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [s.value for s in at.subheader] + [e.value for e in at.error]
    parts += [w.value for w in at.warning] + [m.label for m in at.metric]
    return "\n".join(parts)


def test_markup_text_escapes_html_links_and_images() -> None:
    assert text(HOSTILE) == "&lt;img src=x onerror=alert\\(1\\)&gt;"
    assert text(LINK) == "\\!\\[seen\\]\\(http://tracker.example.invalid/pixel.png\\)"
    assert text("bm25_tuned v1.2") == "bm25_tuned v1.2"  # ordinary names unchanged
    assert text("a\n# b") == "a # b"  # no new block


def test_hostile_file_and_run_names_reach_the_page_escaped() -> None:
    at = run_page(ROOT / "app.py")
    at.radio(key="data_source").set_value("My files").run()
    files = {"run_a": (f"{LINK}.trec", DEMO["run_a"]),
             "run_b": (f"{HOSTILE}.trec", DEMO["run_b"]),
             "qrels": ("qrels.trec", DEMO["qrels"]),
             "segments": ("segments.tsv", DEMO["segments"])}
    for role, (name, data) in files.items():
        at.file_uploader(key=f"upload_{role}").upload(name, data)
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception and not at.error
    shown = every_markdown_source(at)
    assert "<img" not in shown and "](http" not in shown
    assert text(HOSTILE) in shown  # the name is there, as text
    assert text(LINK) in shown
    assert len(at.metric) >= 5
