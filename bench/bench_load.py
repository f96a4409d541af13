"""Benchmark: one app server under concurrent sessions (issue 20's load test).

Starts ``streamlit run app.py`` on 127.0.0.1 (a free port, its own empty SQLite store) and
drives, at the same time, from one headless Chromium (a browser context per session, so each
is its own Streamlit session):

- ``--sessions`` demo sessions (default 8): open the Compare page on the demo, then
  ``--rounds`` interactions cycling through the segment column (length, intent, none) and the
  metric (AP added, nDCG@10 removed, and back);
- ``--big-sessions`` big-case sessions (default 2): "My files", upload two 247 MB runs and
  their qrels (``--big-data``, made by ``python make_data.py DIR``), press Compare, then one
  metric change that scores the 7M-row runs again.

Measured: the latency of every interaction, from the click (or the page load) to the end of the
script run it causes: the server's "script finished" message (the one the browser tests'
run counter in ``tests/support/streamlit_page.py`` counts, a ``ForwardMsg.script_finished``
other than "finished early for a rerun"), taken as the frame reaches the browser (Playwright's
WebSocket events), so a renderer that is slow to draw does not add to it. Before the next
interaction each session also waits, untimed, until its page has drawn the run (that run
counter, the app's "notRunning" state, a quiet DOM). Upload times separately; errors (a failed
wait, an exception or error element on the page after a run: must be 0); the server's peak RSS
(the process tree's, read from /proc every 0.25 s) beside ``RANKLENS_CACHE_MB``. Chromium runs
at nice 19, so that on a small machine the server's work goes first. Every wait is for a
state with a timeout; the whole run stops after ``--max-seconds`` and shuts the server down.

    .venv/bin/python bench/bench_load.py --big-data /tmp/big [--sessions 8] [--big-sessions 2]
        [--rounds 12] [--cache-mb 2048] [--max-seconds 1800] [--out bench/out/bench_load.json]

With ``--clients protocol`` the demo sessions are not browsers but
``bench/streamlit_protocol.ProtocolSession``s: the app's own WebSocket protocol, each click a
rerun with the widget's new value, timed from the request sent to the server's "script
finished" received. Ten of them cost the machine next to nothing, so they measure what the
server answers ten colleagues whose browsers run on their own machines; the Chromium clients
measure that plus ten browsers drawing on the server's cores. No big-case sessions there
(they upload through the page).

Not a timed test: it prints what it measured and exits 1 if there were errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, Page, async_playwright, expect  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from bench.streamlit_protocol import ProtocolSession  # noqa: E402
from tests.support.app_server import start_app, stop_app  # noqa: E402

# The run counter and the settle check of the browser tests (the same JavaScript): a session
# interacts again only once its page has drawn the last run, as `expect_rerun` waits.
from tests.support.streamlit_page import (  # noqa: E402
    _FINISHED,
    _FINISHED_COUNTER,
    _FINISHED_SINCE,
    _SETTLE,
    ERROR_ELEMENTS,
    IDLE,
    QUIET_FRAMES,
)

CHROMIUM = os.environ.get("RANKLENS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
BIG_FILES = {"run_a": "run_a.trec", "run_b": "run_b.trec", "qrels": "qrels.trec"}
UPLOADERS = {"run_a": "Run A (baseline)", "run_b": "Run B (candidate)",
             "qrels": "Judgements (qrels)"}
# The demo sessions' interactions, in turn: (what, widget, label, option)
DEMO_STEPS = (
    ("segment", "select", "Segment by", "length"),
    ("metric", "add", "Metrics", "AP"),
    ("metric", "remove", "Metrics", "nDCG@10"),
    ("segment", "select", "Segment by", "intent"),
    ("metric", "add", "Metrics", "nDCG@10"),
    ("metric", "remove", "Metrics", "AP"),
    ("segment", "select", "Segment by", "(none)"),
    ("segment", "select", "Segment by", "intent"),
)
SMALL_TIMEOUT_MS = 300_000  # a demo rerun, even on a very busy machine
BIG_TIMEOUT_MS = 1_500_000  # uploading, reading and scoring 2 x 7M rows under load


class RunWatch:
    """The times at which the server's "script finished" messages reached one page."""

    def __init__(self, page: Page) -> None:
        self.times: list[float] = []
        self._arrived = asyncio.Event()
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            return
        message = ForwardMsg()
        try:
            message.ParseFromString(payload)
        except Exception:  # not a ForwardMsg: nothing to count
            return
        if (message.WhichOneof("type") == "script_finished"
                and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN):
            self.times.append(time.perf_counter())
            self._arrived.set()

    async def finished_after(self, count: int, timeout: float) -> float:
        """The arrival time of the first run finished after ``count`` runs (waits for it)."""
        async def arrival() -> float:
            while len(self.times) <= count:
                self._arrived.clear()
                await self._arrived.wait()
            return self.times[count]

        return await asyncio.wait_for(arrival(), timeout / 1000)


@dataclass
class Results:
    """Everything measured, for the JSON file and the summary."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    uploads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rss_samples: list[tuple[float, int]] = field(default_factory=list)

    def add(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)


# ---- the page, as the browser tests drive it (async) --------------------------------------

async def finished_since(page: Page, before: int, timeout: float) -> None:
    """Wait for a script run finished after ``before`` runs and the app idle."""
    await page.wait_for_function(_FINISHED_SINCE, arg=[before, IDLE], timeout=timeout)


async def settle(page: Page) -> None:
    """Wait until the page has drawn the last run (no DOM change for a few frames)."""
    await page.evaluate(_SETTLE, [QUIET_FRAMES, 10_000])


async def check_page(page: Page, where: str, results: Results) -> None:
    count = await page.locator(ERROR_ELEMENTS).count()
    if count:
        text = " | ".join(await page.locator(ERROR_ELEMENTS).all_inner_texts())
        results.errors.append(f"{where}: {count} error elements: {text[:300]}")


async def timed_rerun(page: Page, watch: RunWatch, action: Any, timeout: float) -> float:
    """Run ``action`` (a coroutine function) and answer the seconds to the end of its rerun
    (the server's message); then wait, untimed, until the page has drawn it."""
    await page.wait_for_selector(IDLE, timeout=timeout)
    before = await page.evaluate(_FINISHED)
    runs = len(watch.times)
    start = time.perf_counter()
    await action()
    seconds = await watch.finished_after(runs, timeout) - start
    await finished_since(page, before, timeout)
    await settle(page)
    return float(seconds)


def widget(page: Page, test_id: str, label: str) -> Any:
    return page.get_by_test_id(test_id).filter(
        has=page.get_by_test_id("stWidgetLabel").get_by_text(label, exact=True))


async def type_into(box: Any, text: str) -> None:
    """Type ``text`` into a multiselect so that its list of options opens: scrolled to the
    middle of its pane first (at the bottom edge of a 1,000 px sidebar, below the five
    uploaders of "My files", the list did not open and the option never appeared)."""
    await box.evaluate("e => e.scrollIntoView({block: 'center'})")
    combobox = box.get_by_role("combobox")
    await combobox.click()
    await combobox.fill(text)


async def open_app(page: Page, watch: RunWatch, url: str, timeout: float) -> float:
    await page.add_init_script(_FINISHED_COUNTER)
    start = time.perf_counter()
    await page.goto(url, timeout=timeout)
    seconds = await watch.finished_after(0, timeout) - start
    await finished_since(page, 0, timeout)
    await settle(page)
    return float(seconds)


async def demo_step(page: Page, watch: RunWatch, step: tuple[str, str, str, str]) -> float:
    _, how, label, option = step
    if how == "select":
        box = widget(page, "stSelectbox", label)
        await box.get_by_role("combobox").click()
        choice = page.get_by_role("option", name=option, exact=True)
        return await timed_rerun(page, watch, choice.click, SMALL_TIMEOUT_MS)
    box = widget(page, "stMultiSelect", label)
    if how == "add":
        await type_into(box, option)
        choice = page.get_by_role("option", name=option, exact=True)
        seconds = await timed_rerun(page, watch, choice.click, SMALL_TIMEOUT_MS)
        await page.keyboard.press("Escape")
        return seconds
    remove = box.get_by_role("button", name=f"Remove {option}", exact=True)
    return await timed_rerun(page, watch, remove.click, SMALL_TIMEOUT_MS)


async def new_page(browser: Browser) -> tuple[Any, Page, RunWatch]:
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(SMALL_TIMEOUT_MS)  # a busy 2-core machine: room, not sleeps
    page = await context.new_page()
    return context, page, RunWatch(page)


# ---- sessions -------------------------------------------------------------------------------

async def demo_session(browser: Browser, url: str, index: int, rounds: int,
                       results: Results) -> None:
    context, page, watch = await new_page(browser)
    try:
        results.add("demo: open", await open_app(page, watch, url, SMALL_TIMEOUT_MS))
        await check_page(page, f"demo {index} open", results)
        for number in range(rounds):
            step = DEMO_STEPS[number % len(DEMO_STEPS)]
            results.add(f"demo: {step[0]}", await demo_step(page, watch, step))
            await check_page(page, f"demo {index} step {number} {step[1:]}", results)
    except Exception as error:  # a failed wait is an error of the run, counted, not raised
        results.errors.append(f"demo {index}: {type(error).__name__}: {str(error)[:300]}")
    finally:
        await context.close()


async def protocol_session(url: str, index: int, rounds: int, results: Results) -> None:
    """A demo session over the app's WebSocket protocol (``--clients protocol``): the same
    steps as `demo_session`, each a rerun with the widget's new value."""
    session = ProtocolSession(url)
    try:
        results.add("demo: open", await session.open(SMALL_TIMEOUT_MS / 1000))
        for number in range(rounds):
            _, how, label, option = step = DEMO_STEPS[number % len(DEMO_STEPS)]
            if how == "select":
                seconds = await session.select(label, option)
            else:
                chosen = session.chosen(label)
                seconds = await session.choose(
                    label, [*chosen, option] if how == "add" else
                    [name for name in chosen if name != option])
            results.add(f"demo: {step[0]}", seconds)
        results.errors += [f"demo {index}: {message}" for message in session.errors]
    except Exception as error:  # a failed wait is an error of the run, counted, not raised
        results.errors.append(f"demo {index}: {type(error).__name__}: {str(error)[:300]}")
    finally:
        await session.close()


async def big_session(browser: Browser, url: str, index: int, data: Path,
                      results: Results) -> None:
    context, page, watch = await new_page(browser)
    try:
        results.add("big: open", await open_app(page, watch, url, SMALL_TIMEOUT_MS))
        radio = widget(page, "stRadio", "Data").get_by_text("My files", exact=True)
        results.add("big: switch to uploads", await timed_rerun(page, watch, radio.click,
                                                                  SMALL_TIMEOUT_MS))
        for role, name in BIG_FILES.items():  # in the form: no rerun until Compare
            uploader = widget(page, "stFileUploader", UPLOADERS[role])
            start = time.perf_counter()
            await uploader.locator('input[type="file"]').set_input_files(str(data / name),
                                                                        timeout=BIG_TIMEOUT_MS)
            # uploaded: the chip reads "name, size" and has no progress bar (as upload_file)
            chip = uploader.get_by_test_id("stFileChip")
            await expect(chip).to_have_attribute(
                "aria-label", re.compile(rf"^{re.escape(name)}, \d"), timeout=BIG_TIMEOUT_MS)
            await expect(chip.get_by_role("progressbar")).to_have_count(0,
                                                                       timeout=BIG_TIMEOUT_MS)
            results.uploads.append(time.perf_counter() - start)
        submit = page.get_by_test_id("stFormSubmitButton").get_by_role("button",
                                                                      name="Compare")
        await expect(submit).to_be_enabled(timeout=BIG_TIMEOUT_MS)
        results.add("big: compare (read, score, compare)",
                    await timed_rerun(page, watch, submit.click, BIG_TIMEOUT_MS))
        await check_page(page, f"big {index} compare", results)
        await page.get_by_text("paired queries").first.wait_for(timeout=BIG_TIMEOUT_MS)
        box = widget(page, "stMultiSelect", "Metrics")
        await type_into(box, "AP")
        choice = page.get_by_role("option", name="AP", exact=True)
        results.add("big: metric (score 7M rows again)",
                    await timed_rerun(page, watch, choice.click, BIG_TIMEOUT_MS))
        await check_page(page, f"big {index} metric", results)
    except Exception as error:
        results.errors.append(f"big {index}: {type(error).__name__}: {str(error)[:300]}")
    finally:
        await context.close()


# ---- the server's memory --------------------------------------------------------------------

def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants, from /proc (0 once it is gone)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(int(line.split()[1]) * 1024 for line in status.splitlines()
                          if line.startswith("VmRSS:"))
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(child) for child in children)
        except (OSError, StopIteration, ValueError):
            continue
    return total


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its live descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for current in (pid, *descendants(pid)):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return total


def descendants(pid: int) -> list[int]:
    """``pid``'s child processes, their children, and so on (from /proc)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            found.extend(children)
            pending.extend(children)
    return found


def nice_browsers() -> int:
    """Renice this process's Chromium processes to 19 (renderers forked later inherit it);
    answers how many."""
    reniced = 0
    for pid in descendants(os.getpid()):
        try:
            if "chromium" in Path(f"/proc/{pid}/comm").read_text():
                os.setpriority(os.PRIO_PROCESS, pid, 19)
                reniced += 1
        except OSError:
            continue
    return reniced


def sample_rss(pid: int, results: Results, stop: threading.Event, started: float) -> None:
    while not stop.is_set():
        results.rss_samples.append((time.perf_counter() - started, tree_rss(pid)))
        stop.wait(0.25)  # the sampling period, not a wait for a state


# ---- run ------------------------------------------------------------------------------------

async def drive(url: str, args: argparse.Namespace, results: Results) -> None:
    if args.clients == "protocol":
        done = asyncio.gather(*(protocol_session(url, i, args.rounds, results)
                                for i in range(args.sessions)))
        try:
            await asyncio.wait_for(done, timeout=args.max_seconds)
        except TimeoutError:
            results.errors.append(f"stopped after --max-seconds {args.max_seconds}")
        return
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS)
        nice_browsers()
        try:
            sessions = [demo_session(browser, url, i, args.rounds, results)
                        for i in range(args.sessions)]
            sessions += [big_session(browser, url, j, args.big_data, results)
                         for j in range(args.big_sessions)]
            done = asyncio.gather(*sessions)
            try:
                await asyncio.wait_for(done, timeout=args.max_seconds)
            except TimeoutError:
                results.errors.append(f"stopped after --max-seconds {args.max_seconds}")
        finally:
            await browser.close()


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation (numpy's default)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(results: Results, args: argparse.Namespace, cache_mb: int,
            idle_rss: int, server_cpu: float) -> dict[str, Any]:
    demo = [s for kind, values in results.latencies.items() if kind.startswith("demo: ")
            and kind != "demo: open" for s in values]
    peak_at, peak = max(results.rss_samples, key=lambda sample: sample[1], default=(0.0, 0))
    table = {kind: {"n": len(values), "p50_s": percentile(values, 0.5),
                    "p95_s": percentile(values, 0.95), "max_s": max(values)}
             for kind, values in sorted(results.latencies.items())}
    return {
        "sessions": args.sessions, "big_sessions": args.big_sessions, "rounds": args.rounds,
        "clients": args.clients,
        "demo_interactions": {"n": len(demo),
                              "p50_s": percentile(demo, 0.5) if demo else None,
                              "p95_s": percentile(demo, 0.95) if demo else None},
        "by_kind": table,
        "uploads_s": sorted(results.uploads),
        "errors": results.errors,
        "server_rss_idle_mb": idle_rss / 1e6,
        "server_rss_peak_mb": peak / 1e6, "server_rss_peak_at_s": peak_at,
        "cache_mb": cache_mb,
        "server_cpu_s": server_cpu,
        "interactions": sum(len(values) for values in results.latencies.values()),
        "load_average_before": os.getloadavg(),
        "cpu_count": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=8, help="demo sessions")
    parser.add_argument("--big-sessions", type=int, default=2, help="big-case sessions")
    parser.add_argument("--rounds", type=int, default=12, help="interactions per demo session")
    parser.add_argument("--big-data", type=Path, default=None,
                        help="folder with run_a.trec, run_b.trec, qrels.trec (make_data.py)")
    parser.add_argument("--cache-mb", type=int, default=None,
                        help="RANKLENS_CACHE_MB for the server (default: the app's)")
    parser.add_argument("--clients", choices=("chromium", "protocol"), default="chromium",
                        help="browsers (Chromium, drawing on this machine) or the app's "
                             "WebSocket protocol (the server's time only)")
    parser.add_argument("--max-seconds", type=float, default=1800.0)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "bench_load.json")
    args = parser.parse_args()
    if args.clients == "protocol" and args.big_sessions:
        parser.error("--clients protocol drives demo sessions only: pass --big-sessions 0")
    if args.big_sessions and (args.big_data is None or not all(
            (args.big_data / name).is_file() for name in BIG_FILES.values())):
        parser.error("--big-data must hold run_a.trec, run_b.trec and qrels.trec "
                     "(python make_data.py DIR); or pass --big-sessions 0")
    load_before = os.getloadavg()
    env = {} if args.cache_mb is None else {"RANKLENS_CACHE_MB": str(args.cache_mb)}
    from ranklens.app.cache import cache_limit_bytes

    cache_mb = cache_limit_bytes({**os.environ, **env}) // 1_000_000
    results = Results()
    with tempfile.TemporaryDirectory(prefix="ranklens-load-") as folder:
        url, process = start_app(Path(folder) / "reports.sqlite3",
                                 Path(folder) / "streamlit.log", env=env)
        started = time.perf_counter()
        idle_rss = tree_rss(process.pid)
        stop = threading.Event()
        sampler = threading.Thread(target=sample_rss,
                                   args=(process.pid, results, stop, started), daemon=True)
        sampler.start()
        cpu_before = tree_cpu_seconds(process.pid)
        try:
            asyncio.run(drive(url, args, results))
        finally:
            server_cpu = tree_cpu_seconds(process.pid) - cpu_before
            stop.set()
            sampler.join()
            ended = process.poll()  # None: still serving, as it should be until stopped here
            stop_app(process)
        if ended is not None:
            results.errors.append(f"the server exited with {ended} during the run")
        log_tail = (Path(folder) / "streamlit.log").read_text(errors="replace")[-2000:]
    report = summary(results, args, cache_mb, idle_rss, server_cpu)
    report["load_average_before"] = load_before
    report["wall_s"] = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({**report, "raw": asdict(results)}, indent=2))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)} "
          f"on {os.cpu_count()} cores")
    print(f"{args.sessions} demo sessions x {args.rounds} interactions + "
          f"{args.big_sessions} big-case sessions ({args.clients} clients), "
          f"{report['wall_s']:.0f} s wall")
    for kind, row in report["by_kind"].items():
        print(f"  {kind:<40} n={row['n']:<4} p50 {row['p50_s']:7.2f} s  "
              f"p95 {row['p95_s']:7.2f} s  max {row['max_s']:7.2f} s")
    demo = report["demo_interactions"]
    if demo["n"]:
        print(f"demo interactions: n={demo['n']} p50 {demo['p50_s']:.2f} s, "
              f"p95 {demo['p95_s']:.2f} s")
    if results.uploads:
        print("uploads (s): " + ", ".join(f"{s:.1f}" for s in sorted(results.uploads)))
    print(f"server RSS (MB = 10^6 bytes): idle {report['server_rss_idle_mb']:.0f} MB, peak "
          f"{report['server_rss_peak_mb']:.0f} MB at {report['server_rss_peak_at_s']:.0f} s "
          f"(RANKLENS_CACHE_MB {cache_mb})")
    print(f"server CPU: {server_cpu:.0f} s for {report['interactions']} timed interactions "
          f"(the time the server computed, whatever the machine's other load)")
    print(f"errors: {len(results.errors)}")
    for error in results.errors:
        print(f"  {error}")
    if results.errors:
        print("server log (tail):\n" + log_tail)
    print(f"written: {args.out}")
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())
