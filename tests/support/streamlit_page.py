"""Small helpers to drive a Streamlit page the way a person does, waiting on the app's state.

Every interaction that makes Streamlit rerun the script goes through `expect_rerun`: it counts
the "script finished" messages the server sends over the page's WebSocket (installed by
`open_app`, so a quick rerun is never missed) and waits for one more, for Streamlit's
"notRunning" state, then until the page has drawn it (`settle`: no DOM change for a few
frames; a run's elements reach the DOM up to a few hundred ms after "notRunning"). Nothing
sleeps.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

# Headless Chromium's switches for the browser tests and the benchmarks: raster and composite on
# the CPU. Without them it emulates a GPU in software (SwiftShader), which cost a quarter of a
# browser test's CPU time (measured with the demo report: 7.4 s of 39 s; 2.0 s with these
# switches) and is no part of what a user's browser, with its GPU, spends on the page.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-gpu-compositing",
                 "--disable-gpu-rasterization", "--disable-accelerated-2d-canvas",
                 "--disable-software-rasterizer", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
ERROR_ELEMENTS = '[data-testid="stException"], [data-testid="stAlertContentError"]'
# A ceiling on a state wait, not a delay: on a busy 2-core machine running the suites in
# parallel, the first run of the demo report was seen to take over a minute.
RERUN_TIMEOUT = 180_000

# Installed before the app's own scripts (page.add_init_script): wraps WebSocket to count the
# server's "script finished" messages (ForwardMsg field 6, a varint status), except "finished
# early for a rerun" (status 2: another run follows). React may batch "running" and
# "notRunning" into one render, so the DOM's script state alone can miss a quick rerun.
_FINISHED_COUNTER = """(() => {
  if (window.__ranklensFinished !== undefined) return;
  window.__ranklensFinished = 0;
  const SCRIPT_FINISHED = 6, FINISHED_EARLY_FOR_RERUN = 2;
  const varint = (bytes, at) => {
    let value = 0, shift = 0, byte;
    do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; }
    while (byte & 0x80 && at < bytes.length);
    return [value, at];
  };
  const finishedStatus = bytes => {  // the status of a ForwardMsg's script_finished, or null
    let at = 0;
    while (at < bytes.length) {
      let tag, value;
      [tag, at] = varint(bytes, at);
      const field = Math.floor(tag / 8), wire = tag % 8;
      if (wire === 0) {
        [value, at] = varint(bytes, at);
        if (field === SCRIPT_FINISHED) return value;
      } else if (wire === 2) { [value, at] = varint(bytes, at); at += value; }
      else if (wire === 1) at += 8;
      else if (wire === 5) at += 4;
      else return null;
    }
    return null;
  };
  const count = async data => {
    const buffer = data instanceof Blob ? await data.arrayBuffer() : data;
    if (!(buffer instanceof ArrayBuffer)) return;
    const status = finishedStatus(new Uint8Array(buffer));
    if (status !== null && status !== FINISHED_EARLY_FOR_RERUN) window.__ranklensFinished += 1;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', event => { count(event.data); });
    }
  };
})()"""

_FINISHED = "() => window.__ranklensFinished"

_STATE = """() => ({finished: window.__ranklensFinished, state: document.querySelector(
  '[data-testid="stApp"]')?.getAttribute('data-test-script-state')})"""

_FINISHED_SINCE = """([before, idle]) =>
  window.__ranklensFinished > before && document.querySelector(idle) !== null"""


# Resolves once the app's DOM has not changed for QUIET_FRAMES animation frames in a row (or
# after `limit` ms: a page that never stops changing is then read as it is). The elements of a
# finished run reach the DOM up to a few hundred ms after the script state says "notRunning".
QUIET_FRAMES = 20
_SETTLE = """async ([quietFrames, limit]) => {
  const root = document.querySelector('[data-testid="stApp"]') ?? document.body;
  let changes = 0;
  const observer = new MutationObserver(records => { changes += records.length; });
  observer.observe(root, {childList: true, subtree: true, attributes: true,
                          characterData: true});
  const nextFrame = () => new Promise(resolve => requestAnimationFrame(resolve));
  const start = performance.now();
  let quiet = 0;
  while (quiet < quietFrames && performance.now() - start < limit) {
    const before = changes;
    await nextFrame();
    quiet = changes === before ? quiet + 1 : 0;
  }
  observer.disconnect();
  return quiet >= quietFrames;
}"""


def settle(page: Page, limit: float = 10_000) -> None:
    """Wait until the page has drawn what the last run sent: no DOM change for a while."""
    page.evaluate(_SETTLE, [QUIET_FRAMES, limit])


def wait_idle(page: Page, timeout: float = 30_000) -> None:
    """Wait until Streamlit reports that the script is not running (a rerun has finished)."""
    page.wait_for_selector(IDLE, timeout=timeout)


def open_app(page: Page, url: str) -> None:
    """Load ``url`` (the app, one of its pages, a share link); wait until its run is drawn,
    and check that Streamlit did not answer it with its "Page not found" modal."""
    page.add_init_script(_FINISHED_COUNTER)
    page.goto(url)
    _wait_finished(page, before=0, timeout=RERUN_TIMEOUT)
    # Streamlit's answer to a URL it does not route: a modal over the default page
    assert page.get_by_text("Page not found").count() == 0, f"{url}: 'Page not found'"


@contextmanager
def expect_rerun(page: Page, timeout: float = RERUN_TIMEOUT) -> Iterator[None]:
    """Around an interaction that reruns the script: afterwards, that rerun has finished and
    the page has drawn it. Only for pages loaded with `open_app` (it counts the runs)."""
    wait_idle(page, timeout=timeout)
    before = page.evaluate(_FINISHED)
    assert before is not None, "open the page with open_app: it installs the run counter"
    yield
    _wait_finished(page, before, timeout)


def _wait_finished(page: Page, before: int, timeout: float) -> None:
    """Wait for a script run finished after ``before`` runs, the page idle and drawn."""
    try:
        page.wait_for_function(_FINISHED_SINCE, arg=[before, IDLE], timeout=timeout)
    except PlaywrightTimeoutError as error:
        state = page.evaluate(_STATE)
        raise AssertionError(f"no finished script run within {timeout / 1000:.0f} s: "
                             f"{before} before, now {state}") from error
    settle(page)


def assert_no_error(page: Page) -> None:
    """No exception or error element, and no Python traceback text, anywhere on the page."""
    expect(page.locator(ERROR_ELEMENTS)).to_have_count(0)
    assert "Traceback (most recent call last)" not in page.inner_text("body")


# ---- finding widgets by their label --------------------------------------------------------

def widget(page: Page, test_id: str, label: str) -> Locator:
    """The one Streamlit widget of kind ``test_id`` (e.g. ``stSelectbox``) labelled ``label``."""
    labelled = page.get_by_test_id(test_id).filter(
        has=page.get_by_test_id("stWidgetLabel").get_by_text(label, exact=True))
    expect(labelled).to_have_count(1)
    return labelled


def upload_file(page: Page, label: str, path: Path) -> None:
    """Put ``path`` into the file uploader labelled ``label``; wait until it is uploaded and,
    outside a form, until the rerun it causes has finished (inside a form, `submit_form`)."""
    uploader = widget(page, "stFileUploader", label)
    in_form = uploader.locator("xpath=ancestor::*[@data-testid='stForm']").count() > 0
    if in_form:
        uploader.locator('input[type="file"]').set_input_files(str(path))
    else:
        with expect_rerun(page):
            uploader.locator('input[type="file"]').set_input_files(str(path))
    chip = uploader.get_by_test_id("stFileChip")  # "name, size" once the upload has finished
    expect(chip).to_have_attribute("aria-label", re.compile(rf"^{re.escape(path.name)}, \d"))
    expect(chip.get_by_role("progressbar")).to_have_count(0)


def remove_file(page: Page, label: str, name: str) -> None:
    """Remove the file ``name`` from the uploader labelled ``label`` (its chip's × button), as
    a user replacing a file in a slot that takes several does."""
    uploader = widget(page, "stFileUploader", label)
    chip = uploader.get_by_test_id("stFileChip").filter(
        has=page.get_by_test_id("stFileChipName").get_by_text(name, exact=True))
    expect(chip).to_have_count(1)
    chip.get_by_test_id("stFileChipDeleteBtn").click()
    expect(chip).to_have_count(0)


def submit_form(page: Page, button: str) -> None:
    """Click the form's submit button ``button`` once it is enabled; wait for the rerun."""
    submit = page.get_by_test_id("stFormSubmitButton").get_by_role("button", name=button)
    expect(submit).to_be_enabled()
    with expect_rerun(page):
        submit.click()


def choose_radio(page: Page, label: str, option: str) -> None:
    """Click ``option`` of the radio group labelled ``label`` and wait for the rerun."""
    group = widget(page, "stRadio", label)
    with expect_rerun(page):
        group.get_by_text(option, exact=True).click()


# A section drawn only when opened (``ranklens.app.lazy``): its expander's key, a CSS class
# on its container, starts with "open:"; opening it reruns the script.
_LAZY = "el => !!el.closest('[class*=\"st-key-open:\"]')"


def open_section(page: Page, label: str) -> None:
    """Open the expander titled ``label`` (the innermost one, when sections nest) if it is
    closed; a section drawn only when opened: wait for the rerun that draws it."""
    expander = page.get_by_test_id("stExpander").filter(
        has=page.locator("summary", has_text=label)).last
    expect(expander).to_be_visible()
    open_expander(page, expander)


def open_expander(page: Page, expander: Locator) -> None:
    """Open ``expander`` if closed; when it is a section drawn only once opened, wait for the
    rerun that draws its contents."""
    if expander.locator("details").first.get_attribute("open") is not None:
        return
    summary = expander.locator("summary").first
    if expander.evaluate(_LAZY):
        with expect_rerun(page):
            summary.click()
    else:
        summary.click()


def _dropdown_option(page: Page, option: str) -> Locator:
    """The entry ``option`` of the open dropdown list (rendered at the page's root)."""
    return page.get_by_role("option", name=option, exact=True)


def choose_option(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` and wait for the rerun."""
    box = widget(page, "stSelectbox", label)
    with expect_rerun(page):
        box.get_by_role("combobox").click()
        _dropdown_option(page, option).click()
    expect(box.get_by_role("combobox")).to_have_value(option)


def set_multiselect(page: Page, label: str, options: list[str]) -> None:
    """Make the multiselect labelled ``label`` hold exactly ``options`` (one rerun per change)."""
    box = widget(page, "stMultiSelect", label)
    chosen = box.get_by_test_id("stMultiSelectTagsContainer").locator("[data-tag]")
    for option in options:
        if chosen.and_(box.get_by_label(option, exact=True)).count() == 0:
            with expect_rerun(page):
                box.get_by_role("combobox").fill(option)
                _dropdown_option(page, option).click()
            page.keyboard.press("Escape")
    for tag in [chosen.nth(i).get_attribute("aria-label") for i in range(chosen.count())]:
        if tag not in options:
            with expect_rerun(page):
                box.get_by_role("button", name=f"Remove {tag}", exact=True).click()
    expect(chosen).to_have_count(len(options))


def set_number(page: Page, label: str, value: float) -> None:
    """Type ``value`` into the number input labelled ``label``; wait for the rerun (none when
    the input already holds that value)."""
    field = widget(page, "stNumberInput", label).locator("input")
    if parse_number(field.input_value()) == value:
        return
    with expect_rerun(page):
        field.fill(str(value))
        field.press("Enter")
    expect(field).not_to_have_value("")
    assert parse_number(field.input_value()) == value


def go_to_page(page: Page, title: str) -> None:
    """Click the navigation entry ``title`` (e.g. 'Compare runs') and wait for that page's run."""
    with expect_rerun(page):
        page.get_by_role("link", name=title).click()


def click_button(page: Page, name: str) -> None:
    """Click the one button named ``name`` and wait for the rerun it causes."""
    button = page.get_by_role("button", name=name, exact=True)
    expect(button).to_have_count(1)
    with expect_rerun(page):
        button.click()


# ---- reading what the page shows -----------------------------------------------------------

def metric_values(scope: Page | Locator) -> dict[str, str]:
    """Label -> displayed value of every ``st.metric`` in ``scope``."""
    shown = {}
    for tile in scope.get_by_test_id("stMetric").all():
        label = tile.get_by_test_id("stMetricLabel").inner_text().strip()
        shown[label] = tile.get_by_test_id("stMetricValue").inner_text().strip()
    return shown


def expect_metric_values(scope: Page | Locator, shown: dict[str, str]) -> None:
    """Wait until ``scope`` shows exactly the metric cards ``shown`` (label -> value), in order.

    The state to wait for, not a snapshot: a page that has finished its run may still be
    drawing its cards (seen on a busy machine), and Playwright's ``expect`` retries until the
    labels and values match or the wait times out.
    """
    tiles = scope.get_by_test_id("stMetric")
    expect(tiles).to_have_count(len(shown))
    expect(tiles.get_by_test_id("stMetricLabel")).to_have_text(list(shown))
    expect(tiles.get_by_test_id("stMetricValue")).to_have_text(list(shown.values()))


def grid_rows(frame: Locator) -> list[dict[str, str]]:
    """The rows of an ``st.dataframe`` as dicts (column label -> cell text, unformatted).

    The grid draws on a canvas but keeps a ``role="grid"`` table for screen readers, holding
    only the cells in view: scroll the grid sideways and merge what each view shows, until every
    column (``aria-colcount``) has been seen. All rows must fit in view (checked).
    """
    frame.scroll_into_view_if_needed()  # the grid draws (and fills its table) when in view
    expect(frame.locator('table[role="grid"]')).to_have_count(1)
    seen = frame.evaluate(_READ_GRID)
    columns = sorted(seen["header"], key=int)
    assert len(columns) == seen["colCount"], f"saw columns {columns} of {seen['colCount']}"
    rows = [seen["rows"][index] for index in sorted(seen["rows"], key=int)]
    assert len(rows) == seen["rowCount"] - 1, "rows out of view: enlarge the data frame"
    return [{seen["header"][c]: row.get(c, "") for c in columns} for row in rows]


_READ_GRID = """async frame => {
  const scroller = frame.querySelector('.dvn-scroller');
  const table = () => frame.querySelector('table[role="grid"]');
  const header = {}, rows = {};
  const visible = () => [...table().querySelectorAll('thead th')]
      .map(th => th.getAttribute('aria-colindex')).join(',');
  const read = () => {
    for (const th of table().querySelectorAll('thead th')) {
      header[th.getAttribute('aria-colindex')] = th.innerText.trim();
    }
    for (const tr of table().querySelectorAll('tbody tr')) {
      const row = rows[tr.getAttribute('aria-rowindex')] ??= {};
      for (const td of tr.querySelectorAll('td')) {
        row[td.getAttribute('aria-colindex')] = td.innerText.trim();
      }
    }
  };
  const nextFrame = () => new Promise(resolve => requestAnimationFrame(resolve));
  const scrollTo = async left => {  // scroll, then wait until the grid shows other columns
    const before = visible();
    scroller.scrollLeft = left;
    for (let frames = 0; frames < 120 && visible() === before; frames += 1) await nextFrame();
  };
  const colCount = Number(table().getAttribute('aria-colcount'));
  const rowCount = Number(table().getAttribute('aria-rowcount'));
  read();
  while (Object.keys(header).length < colCount
         && scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1) {
    await scrollTo(scroller.scrollLeft + scroller.clientWidth / 2);
    read();
  }
  if (scroller.scrollLeft > 0) await scrollTo(0);
  return {colCount, rowCount, header, rows};
}"""


def axis_labels(chart: Locator) -> list[str]:
    """Tick labels of all the Vega chart's axes (SVG text), in drawing order."""
    labels = chart.locator("g.role-axis g.role-axis-label text")
    return [text.strip() for text in labels.all_text_contents()]


def expect_chart_text(chart: Locator, pattern: str | re.Pattern[str]) -> None:
    """Wait until the Vega chart draws a text equal to ``pattern`` (a string, or a regex to
    search). Vega renders a few frames after the script run: wait for the new drawing."""
    if isinstance(pattern, str):
        pattern = re.compile(rf"^\s*{re.escape(pattern)}\s*$")
    expect(chart.locator("svg text").filter(has_text=pattern).first).to_be_attached()


def mark_texts(chart: Locator) -> list[str]:
    """The texts a Vega chart draws as marks (labels on points and rules), in drawing order."""
    marks = chart.locator("g.mark-text.role-mark text")  # not the axes' labels
    return [text.strip() for text in marks.all_text_contents()]


def chart_titles(chart: Locator) -> list[str]:
    """Title and axis-title texts of a Vega chart."""
    titles = chart.locator("g.role-title-text text, g.role-axis-title text")
    return [text.strip() for text in titles.all_text_contents()]


def card(values: dict[str, str], label_part: str) -> str:
    """The value of the one metric card whose label contains ``label_part``."""
    found = [value for label, value in values.items() if label_part in label]
    assert len(found) == 1, f"{label_part!r} in {sorted(values)}"
    return found[0]


def assert_rounds_to(shown: str, value: float) -> None:
    """``shown`` is ``value`` printed to the decimals it has (or '< 0.001' for tiny p)."""
    if shown.startswith("<"):
        assert value < numbers_in(shown)[0], (shown, value)
        return
    number = numbers_in(shown)
    assert len(number) == 1, shown
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    assert math.isclose(number[0], value, abs_tol=0.5 * 10 ** -decimals + 1e-12), (shown, value)


def parse_number(text: str) -> float:
    """A number as the app prints it: real minus signs, thousands commas, leading '+'."""
    cleaned = text.replace("\u2212", "-").replace(",", "").replace("+", "").strip()
    return float(cleaned)


def numbers_in(text: str) -> list[float]:
    """Every number in ``text``, in order (signed, with real minus signs)."""
    pattern = r"[+\-\u2212]?\d[\d,]*(?:\.\d+)?(?:[eE][+\-]?\d+)?"
    return [parse_number(match) for match in re.findall(pattern, text)]


# The content's height once the layout has settled: unchanged over 10 animation frames (charts
# and data frames size themselves a few frames after the script run has finished).
_CONTENT_HEIGHT = """async () => {
  const measure = () => Math.max(...[...document.querySelectorAll(
    '[data-testid="stMain"], [data-testid="stMain"] *, [data-testid="stSidebarContent"]')]
    .map(element => element.scrollHeight));
  const nextFrame = () => new Promise(resolve => requestAnimationFrame(resolve));
  let height = measure(), stable = 0;
  for (let frames = 0; frames < 600 && stable < 10; frames += 1) {
    await nextFrame();
    const now = measure();
    stable = now === height ? stable + 1 : 0;
    height = now;
  }
  return height;
}"""


def full_page_screenshot(page: Page, path: Path) -> None:
    """Screenshot the whole page at the viewport's width.

    Streamlit scrolls inside its main section, not the document, so Playwright's ``full_page``
    sees one screen: grow the viewport to the content's height (again while the taller
    viewport lets more content lay out), shoot, and restore the viewport.
    """
    viewport = page.viewport_size or {"width": 1400, "height": 1000}
    height = viewport["height"]
    for _ in range(5):
        content = max(viewport["height"], int(page.evaluate(_CONTENT_HEIGHT)))
        if content <= height:
            break
        height = content
        page.set_viewport_size({"width": viewport["width"], "height": height})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(viewport)
