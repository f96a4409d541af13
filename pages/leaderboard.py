"""Leaderboard page: many runs ranked with rank intervals and tiers.

A thin entry: the page is ``ranklens/app/pages/leaderboard.py``, in the package that
`ranklens app` serves; this file lets `streamlit run app.py` and its tests find it here (see
``ranklens.app.entrypoint``).
"""

from ranklens.app.entrypoint import run_packaged_page

run_packaged_page(__file__)
