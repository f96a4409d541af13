"""Methods page: what the other pages compute, the formulas, assumptions and choices.

A thin entry: the page is ``ranklens/app/pages/methods.py``, in the package that `ranklens app`
serves; this file lets `streamlit run app.py` and its tests find it here (see
``ranklens.app.entrypoint``).
"""

from ranklens.app.entrypoint import run_packaged_page

run_packaged_page(__file__)
