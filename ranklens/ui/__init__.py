"""Streamlit pieces that several pages share: share links and report exports.

``share_widget`` opens ``?report=<token>`` links and offers the Share action; ``html_download``
holds the "Report (HTML)" buttons of the three pages. The library modules they call
(``ranklens.share``, ``ranklens.html_report``, ``ranklens.html_plan``, ``ranklens.html_ppi``)
know nothing of Streamlit.
"""
