"""Everything that imports Streamlit, apart from ``app.py`` and the pages in ``pages/``.

- ``state``: the app's caches of parsed inputs, reports and RBO, keyed by content digest
- ``widgets``: the inputs every page shares (metric lists, alpha, format help, demo switch) and
  an input that follows its default until the user types a value
- ``cards``: a metric card drawn with the true direction of its change
- ``markup``: user strings as text in Markdown (``ranklens.formats.literal``)
- ``share_widget``: opening ``?report=<token>`` links and the Share action
- ``report_store``: the share store this server uses (one per process)
- ``downloads``: the "Report (HTML)" buttons of the three pages
- ``compare_tables``, ``compare_queries``: the Compare page's sections (leaderboard, segment
  table, coverage guardrail and robustness view; per-query table and rankings side by side)
- ``entrypoint``: pages that run on their own hand the run to ``app.py``
- ``auth``: sign-in (``st.login``) and the allow list, before any page runs

The library modules they call (``ranklens.compare``, ``ranklens.plan``, ``ranklens.ppi``,
``ranklens.share``) know nothing of Streamlit.
"""
