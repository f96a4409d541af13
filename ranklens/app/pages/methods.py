"""Methods page: what the other pages compute, the formulas, assumptions and choices.

The text is the library's (``ranklens.methods``); this page only shows it, one section per
heading with the anchor the other pages link to (``/methods#mde``, ``/methods#ppi`` ...). The
page is long (about 16,000 px at 1400 px): it opens and each section ends with a way back, to
the list of sections and to the Compare page (a page link: the session and its inputs stay).
"""

from __future__ import annotations

import streamlit as st

from ranklens import methods
from ranklens.app.entrypoint import run_through_app

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py


COMPARE_PAGE = "pages/compare.py"  # beside the main script (app.py or ranklens/app/main.py)
CONTENTS_ANCHOR = "contents"


def back_links(top: bool = True) -> None:
    """A link back to the Compare page and, with ``top``, one up to the list of sections."""
    left, right, _ = st.columns([1, 1, 4])
    left.page_link(COMPARE_PAGE, label="Back to Compare runs", icon=":material/arrow_back:")
    if top:
        right.markdown(f"[↑ All sections](#{CONTENTS_ANCHOR})")


def main() -> None:
    st.title(methods.TITLE)
    back_links(top=False)
    st.markdown(methods.introduction())
    parts = methods.sections()
    st.subheader("Sections", anchor=CONTENTS_ANCHOR)
    st.markdown(" · ".join(f"[{part.title}](#{part.anchor})" for part in parts))
    for part in parts:
        st.header(part.title, anchor=part.anchor)
        st.markdown(part.body)
        back_links()


main()
