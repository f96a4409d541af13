"""The Methods page (issue 51): about 16,000 px long, so it opens and every section ends with a
way back to the Compare page (a page link, the session kept) and up to the list of sections."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from ranklens import methods
from tests.support.page_testing import ROOT, TIMEOUT

MAINS = (ROOT / "app.py", ROOT / "ranklens" / "app" / "main.py")


@pytest.mark.parametrize("main", MAINS, ids=("checkout", "package"))
def test_every_section_leads_back_to_compare(main: Path) -> None:
    at = AppTest.from_file(str(main), default_timeout=TIMEOUT)
    at.switch_page("pages/methods.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    sections = methods.sections()
    links = [link.proto for link in at.get("page_link")]
    assert len(links) == 1 + len(sections)  # the top and after each section
    assert {link.label for link in links} == {"Back to Compare runs"}
    # the link names the Compare page: Streamlit keys a page by its URL path, "" for Compare
    # (the default page, served at /; ranklens.app.main.pages)
    assert {link.page_script_hash for link in links} == {calc_hash("")}
    ups = [m.value for m in at.markdown if m.value == "[\u2191 All sections](#contents)"]
    assert len(ups) == len(sections)
    assert any(s.proto.anchor == "contents" for s in at.subheader)
