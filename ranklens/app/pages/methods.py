"""Methods page: what the other pages compute, the formulas, assumptions and choices.

The text is the library's (``ranklens.methods``); this page only shows it, one section per
heading with the anchor the other pages link to (``/methods#mde``, ``/methods#ppi`` ...).
"""

from __future__ import annotations

import streamlit as st

from ranklens import methods
from ranklens.app.entrypoint import run_through_app

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py


def main() -> None:
    st.title(methods.TITLE)
    st.markdown(methods.introduction())
    parts = methods.sections()
    st.markdown(" · ".join(f"[{part.title}](#{part.anchor})" for part in parts))
    for part in parts:
        st.header(part.title, anchor=part.anchor)
        st.markdown(part.body)


main()
