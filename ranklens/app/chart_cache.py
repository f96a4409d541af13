"""The page's charts, built once per content: a chart drawn again from the same data costs the
server a dictionary lookup instead of Altair's build and validation.

Why: on the demo, building the Compare page's Altair charts and turning them into Vega-Lite
(``Chart.to_dict``, which validates the whole spec against Vega-Lite's JSON schema) was about
half of the server's CPU per rerun, and most reruns draw charts whose data did not change (the
leaderboard when the segment column changes, the histogram when the candidate does, any chart
when a user switches back to what they saw a moment ago).

``show_altair(build, data, params)`` answers "this chart, drawn": the Vega-Lite spec of
``build()`` (its datasets as Arrow bytes, exactly what ``st.altair_chart`` sends) is kept in
the app's one cache (``ranklens.app.state.once``, shared by every session, bounded in bytes)
under a digest of ``data`` (the frames the chart is built from) and ``params`` (everything
else it depends on), and handed to ``st.vega_lite_chart``. A document's ``Chart`` block
(``ranklens.app.blocks.show_chart``) whose ``draw`` is a ``functools.partial`` is named by its
function and arguments the same way. The digest is of the pickled
frames: equal digests mean equal contents, so a hit is always the same chart. It does not
decide what a chart shows: the builders in ``ranklens.compare.charts`` and friends do.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ranklens.app import state as app_state
from ranklens.document.html_shell import COMPOUND_CHARTS

try:  # Streamlit's own Altair -> Vega-Lite step (the one st.altair_chart calls)
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec as _to_spec
except ImportError:  # pragma: no cover - another Streamlit: draw without the cache
    _to_spec = None  # type: ignore[assignment]


PANELS = frozenset({"hconcat", "vconcat", "concat"})
"""A Vega-Lite spec of several panels has one of these at its top (Altair's HConcatChart,
VConcatChart, ConcatChart: ``ranklens.document.html_shell.COMPOUND_CHARTS``)."""


def digest(frames: Iterable[Any], params: Hashable) -> str:
    """A digest of ``frames`` (DataFrames or any picklable values) and ``params``: equal
    digests, equal contents."""
    sha = hashlib.sha256()
    for frame in frames:
        sha.update(pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL))
    sha.update(repr(params).encode())
    return sha.hexdigest()


def show_altair(build: Callable[[], Any], data: Iterable[Any], params: Hashable, *,
                key: str | None, width: Literal["stretch", "content"] = "stretch",
                place: DeltaGenerator | None = None, panels_keep_widths: bool = False) -> None:
    """Draw ``build()`` (an Altair chart made from ``data`` and ``params`` only) in ``place``
    (default: where the page is), its Vega-Lite spec computed once per content.
    ``panels_keep_widths``: a chart of several panels (concatenated) keeps its panels' widths,
    any other is as wide as its container (``width`` is then not used)."""
    where = st if place is None else place
    if _to_spec is None:
        _draw_uncached(where, build(), width, key, panels_keep_widths)
        return
    try:
        name = digest(data, params)
    except (pickle.PicklingError, TypeError, AttributeError):  # data that does not pickle
        _draw_uncached(where, build(), width, key, panels_keep_widths)
        return
    spec: dict[str, Any] = app_state.once(("chart", name), lambda: _to_spec(build()))
    if panels_keep_widths:
        width = "content" if PANELS.intersection(spec) else "stretch"
    # Streamlit takes the datasets out of the dict it is given: hand it a copy
    copied = {**spec, "datasets": dict(spec["datasets"])} if "datasets" in spec else dict(spec)
    where.vega_lite_chart(spec=copied, width=width, key=key)


def _draw_uncached(where: Any, chart: Any, width: Literal["stretch", "content"],
                   key: str | None, panels_keep_widths: bool) -> None:
    if panels_keep_widths:
        width = "content" if type(chart).__name__ in COMPOUND_CHARTS else "stretch"
    where.altair_chart(chart, width=width, key=key)
