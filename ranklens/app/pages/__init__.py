"""The dashboard's pages, one Streamlit script each: ``compare``, ``mde``, ``ppi``, ``methods``.

Scripts, not modules to import: ``ranklens/app/main.py`` runs them through ``st.navigation``.
The checkout's ``pages/`` holds a thin entry of each name (``ranklens.app.entrypoint``).
"""
