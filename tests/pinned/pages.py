"""The text of the Streamlit pages on the demo, under AppTest, as pins.

Every element of the main area and the sidebar, in order, one line (or a CSV block for a
table) each: its kind, its label and what it shows. Charts are pinned by their data (the rows
the browser receives), not by their Vega-Lite spec. Widget ids and element ids are left out:
they are Streamlit's, not what a user sees; so are empty placeholders (``st.empty``), which show
nothing and of which a different number is left whether or not the app's caches are warm.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180


def _app(page: str | None = None) -> Any:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    if page is not None:
        at.switch_page(page)
    at.run()
    _check(at)
    return at


def _check(at: Any) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _value_text(value: Any) -> str:
    if isinstance(value, pd.DataFrame):
        return "\n" + value.to_csv()
    if isinstance(value, pd.Series):
        return "\n" + value.to_csv()
    return repr(value)


def _chart_text(node: Any) -> str:
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    frames = [convert_arrow_bytes_to_pandas_df(d.data.data) for d in node.proto.datasets]
    return "".join("\n" + frame.to_csv() for frame in frames)


def _lines(node: Any, depth: int = 0) -> list[str]:
    kind = getattr(node, "type", type(node).__name__)
    pad = "  " * depth
    children = getattr(node, "children", None)
    if children is not None and not hasattr(node, "value"):
        label = getattr(node, "label", None)
        out = [f"{pad}[{kind}]" + ("" if label is None else f" {label}")]
        for child in children.values():
            out += _lines(child, depth + 1)
        return out
    if kind == "empty":  # a placeholder shows nothing; whether one is left varies with caching
        return []
    if kind in ("arrow_vega_lite_chart", "vega_lite_chart"):
        return [f"{pad}{kind}:{_chart_text(node)}"]
    if kind == "html" and "<table" in node.value:  # a plain table: its cells, as a CSV
        from tests.support.html_tables import table_frames

        return [f"{pad}html table:" + "".join("\n" + frame.to_csv(index=False)
                                              for frame in table_frames(node.value))]
    parts = [f"{pad}{kind}"]
    for attribute in ("label", "value", "body", "delta", "options"):
        try:
            got = getattr(node, attribute)
        except Exception:
            continue
        if got is None or callable(got) or (attribute == "body" and "value=" in parts[-1]):
            continue
        parts.append(f"{attribute}={_value_text(got)}")
    if len(parts) == 1 and hasattr(node, "proto"):
        proto = node.proto
        for field in ("body", "label", "text"):
            if hasattr(proto, field) and getattr(proto, field):
                parts.append(f"{field}={getattr(proto, field)!r}")
    return [" ".join(parts)]


def page_text(at: Any) -> str:
    """Every element of the page's sidebar and main area, one per line, in order."""
    lines = ["# sidebar", *_lines(at.sidebar), "# main", *_lines(at.main)]
    return "\n".join(lines) + "\n"


def _opened(at: Any) -> Any:
    """``at`` with every section drawn only when opened (``ranklens.app.lazy``) opened, as a
    reader clicking each: the pin holds every number the page can show."""
    from tests.support.page_testing import open_sections

    return open_sections(at)


def compare_page() -> str:
    return page_text(_opened(_app()))


def compare_seeds_page() -> str:
    at = _app()
    at.toggle(key="demo_seeds").set_value(True).run()
    _check(at)
    return page_text(_opened(at))


def compare_macro_page() -> str:
    at = _app()
    next(s for s in at.selectbox if s.label == "Collections").set_value("length").run()
    _check(at)
    return page_text(_opened(at))


def mde_page() -> str:
    return page_text(_app("pages/mde.py"))


def ppi_page() -> str:
    return page_text(_app("pages/ppi.py"))
