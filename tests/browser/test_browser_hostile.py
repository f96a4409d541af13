"""Hostile uploads in Chromium: a file over the server's upload limit, and a file name that is
HTML. Both on the Compare page, with the real browser's DOM (not the Markdown the app sends).

The upload-limit test runs its own server with ``--server.maxUploadSize 1`` (1 MB): Chromium
refuses the 2 MB run before sending it, the uploader marks it (tooltip "File must be 1.0MB or
smaller."), the page says the limit and what to do, and after removing it the same session
compares small files. Every wait is on a state (an element, the script's finished runs).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.app_server import start_app, stop_app
from tests.support.compare_page import UPLOADERS, headline, press_compare, upload_inputs
from tests.support.streamlit_page import (
    assert_no_error,
    choose_radio,
    open_app,
    upload_file,
    widget,
)

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
LIMIT_MB = 1


@pytest.fixture(scope="module")
def small_limit_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An app server of its own whose upload limit is 1 MB."""
    folder = tmp_path_factory.mktemp("limit")
    url, process = start_app(folder / "reports.sqlite3", folder / "streamlit.log",
                             extra_args=("--server.maxUploadSize", str(LIMIT_MB)))
    yield url
    stop_app(process)


def over_the_limit(source: Path, target: Path) -> Path:
    """A well-formed run a little over LIMIT_MB: ``source``'s lines repeated under new ids."""
    lines = source.read_text().splitlines()
    with target.open("w") as out:
        copy = 0
        while out.tell() <= (LIMIT_MB + 1) * 2**20:
            out.writelines(f"c{copy}_{line}\n" for line in lines)
            copy += 1
    return target


def test_a_file_over_the_upload_limit_is_refused_in_words_and_the_page_recovers(
        page: Page, small_limit_url: str, small_inputs: dict[str, Path],
        tmp_path: Path) -> None:
    big = over_the_limit(small_inputs["run_a"], tmp_path / "too_big_run.trec")
    open_app(page, small_limit_url)
    choose_radio(page, "Data", "My files")
    uploader = widget(page, "stFileUploader", UPLOADERS["run_a"])
    uploader.locator('input[type="file"]').set_input_files(str(big))
    chip = uploader.get_by_test_id("stFileChip")
    expect(chip).to_have_attribute("aria-invalid", "true")  # refused by the browser
    chip.hover()
    expect(page.get_by_role("tooltip")).to_have_text(
        re.compile(rf"^File must be {LIMIT_MB}(\.0)?MB or smaller\.$"))
    press_compare(page)  # nothing was sent: the page asks for the files and says the limit
    expect(page.get_by_text(f"Each file can be up to {LIMIT_MB} MB, this server's upload "
                            "limit")).to_be_visible()
    assert_no_error(page)
    uploader.get_by_role("button", name=f"Remove {big.name}").click()
    expect(chip).to_have_count(0)
    for role in ("qrels", "run_a", "run_b"):
        upload_file(page, UPLOADERS[role], small_inputs[role])
    press_compare(page)
    expect(page.get_by_text("60 paired queries")).to_be_visible()
    assert headline(page).endswith(" on nDCG@10.")
    assert_no_error(page)


def test_a_run_named_as_html_shows_its_name_and_adds_no_element(
        page: Page, app_url: str, small_inputs: dict[str, Path], tmp_path: Path) -> None:
    hostile = tmp_path / f"{HOSTILE_NAME}.trec"
    shutil.copyfile(small_inputs["run_b"], hostile)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_app(page, app_url)
    upload_inputs(page, {**small_inputs, "run_b": hostile})
    expect(page.get_by_text("60 paired queries")).to_be_visible()
    # the run's name is the file's stem: in the caption, the verdict, the cards, as typed
    assert HOSTILE_NAME in headline(page)
    expect(page.get_by_test_id("stMetricLabel").filter(has_text=HOSTILE_NAME).first
           ).to_be_visible()
    page.get_by_text("Inputs: 4 files read").click()  # the box rendered with HTML allowed
    expect(page.get_by_text(f"{HOSTILE_NAME}.trec").first).to_be_visible()
    images = page.evaluate("() => Array.from(document.querySelectorAll('img'), "
                           "img => img.outerHTML)")
    assert images == []
    assert page.evaluate("() => document.querySelectorAll('[onerror]').length") == 0
    assert dialogs == []
    assert_no_error(page)
