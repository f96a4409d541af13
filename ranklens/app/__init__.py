"""Everything that imports Streamlit: the dashboard `ranklens app` serves.

- ``main``: the main script (navigation, shared sidebar, share links) and ``pages/``: the
  pages, one Streamlit script each (the checkout's ``app.py`` and ``pages/`` are thin entries)
- ``state``: the app's caches of parsed inputs, reports and RBO, keyed by content digest
- ``widgets``: the inputs every page shares (metric lists, alpha, format help, demo switch) and
  an input that follows its default until the user types a value
- ``cards``: a metric card drawn with the true direction of its change
- ``markup``: user strings as text in Markdown (``ranklens.formats.literal``)
- ``share_widget``: opening ``?report=<token>`` links and the Share action
- ``report_store``: the share store this server uses (one per process)
- ``downloads``: the "Report (HTML)" buttons of the three pages
- ``entrypoint``: pages that run on their own hand the run to the main script
- ``compare_tables``, ``compare_queries``: the Compare page's sections (leaderboard, segment
  table, coverage guardrail and robustness view; per-query table and rankings side by side)
- ``auth``: sign-in (``st.login``) and the allow list, before any page runs

The library modules they call (``ranklens.compare``, ``ranklens.plan``, ``ranklens.ppi``,
``ranklens.share.links``) know nothing of Streamlit.
"""
