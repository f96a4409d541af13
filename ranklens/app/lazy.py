"""Sections drawn only while open: an expander whose contents the page computes and sends
only when the reader has opened it.

Why (issue 51): Streamlit computes and sends a collapsed expander's contents like any other
element, and the browser lays out its data grids and charts all the same; on the Compare page
the per-query view and the drill-down were most of what a click cost the browser. An expander
with ``on_change="rerun"`` reports whether it is open, so what it holds can be skipped while
it is shut. Opening one reruns the script (inside a fragment: that fragment only); its state is
``st.session_state[section_key(name)]`` (True when open), which a page or a test may set to
open it (every such key starts with `PREFIX`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

PREFIX = "open:"


def section_key(name: str) -> str:
    """The session-state key of the section named ``name`` (True: open)."""
    return PREFIX + name


@contextmanager
def opened(label: str, name: str, place: DeltaGenerator | None = None,
           **options: Any) -> Iterator[bool]:
    """An expander titled ``label`` (its state under `section_key` of ``name``) in ``place``
    (default: where the page is); inside the ``with``, answers whether it is open, so the
    caller draws its contents only then. It decides nothing about what the contents are."""
    where = st if place is None else place
    box = where.expander(label, key=section_key(name), on_change="rerun", **options)
    with box:
        yield bool(box.open)


def open_section(name: str) -> None:
    """Open the section named ``name`` on the next run (a callback's way to show what it just
    picked)."""
    st.session_state[section_key(name)] = True


__all__ = ["PREFIX", "open_section", "opened", "section_key"]
