"""Streamlit pieces that several pages share: share links and report exports.

``share_widget`` opens ``?report=<token>`` links and offers the Share action; ``html_download``
is the HTML-report download button. The library modules they call (``ranklens.share``,
``ranklens.html_report``) know nothing of Streamlit.
"""
