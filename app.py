"""ranklens dashboard from a checkout: `streamlit run app.py` (or `make app`) serves this file.

The app itself is ``ranklens/app/main.py``, the script `ranklens app` serves from the installed
package; here it navigates over the thin entries in ``pages/``, each of which runs the packaged
page of its name (one copy of each page).
"""

from pathlib import Path

from ranklens.app.main import main

main(Path(__file__).resolve().parent / "pages")
