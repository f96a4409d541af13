"""`pip install ranklens` gives the whole product: the built wheel in a fresh virtual
environment outside the checkout runs `ranklens compare` on its packaged demo and serves every
page with `ranklens app`, as a new user would meet them.

The wheel is built once per session from a copy of the working tree (the checkout itself stays
untouched) and installed with its declared dependencies only (pip's cache serves them), so a
file missing from the package data or a dependency missing from pyproject fails here. The app
runs from an empty folder, so its settings can only come from the package.

Both tests share one xdist group ("wheel"): under ``--dist loadgroup`` they run on one worker,
so the session's build and install happen once, not once per worker (41 s each on 2 cores).
The fresh environment is made without pip (``venv --without-pip``) and this pip installs into
it (``pip --python``): ensurepip's own install of pip is not what the test is about, and the
environment still gets the wheel and every declared dependency, resolved by pip as a user's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ranklens import __version__, demo
from ranklens.formats import format_delta, format_value
from tests.support.app_server import ROOT, _free_port, _wait_healthy, stop_app
from tests.support.streamlit_page import (
    assert_no_error,
    card,
    choose_radio,
    grid_rows,
    metric_values,
    open_app,
)

pytestmark = [pytest.mark.slow,  # a wheel build and a fresh environment: minutes, not seconds
              pytest.mark.xdist_group("wheel")]  # one worker: the build and install once

_NOT_SHIPPED = shutil.ignore_patterns(".git", ".venv", "artifacts", "build", "dist",
                                      "*.egg-info", "__pycache__", ".pytest_cache",
                                      ".mypy_cache", ".ruff_cache")
NAVIGATION = ("Compare runs", "How many queries (MDE)", "Cheap labels (PPI++)", "Leaderboard",
              "Methods")


class Installed:
    """The fresh environment with the wheel installed, and a folder outside the checkout."""

    def __init__(self, venv: Path, outside: Path) -> None:
        self.venv, self.outside = venv, outside
        # PYTHONDONTWRITEBYTECODE off as on a user's machine: the environment is installed
        # without bytecode (--no-compile), so each of the ~12 processes below would compile
        # streamlit, pandas and numpy from source again; the first one now writes it
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("PYTHONPATH", "VIRTUAL_ENV", "RANKLENS_STORE",
                                   "PYTHONDONTWRITEBYTECODE")}

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``args[0]`` from the environment's bin/, in the outside folder; must succeed."""
        done = subprocess.run([str(self.venv / "bin" / args[0]), *args[1:]], cwd=self.outside,
                              env=self.env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done

    def python(self, code: str) -> str:
        return self.run("python", "-c", code).stdout.strip()


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    source, wheels, outside = base / "source", base / "wheels", base / "elsewhere"
    shutil.copytree(ROOT, source, ignore=_NOT_SHIPPED, symlinks=True)
    outside.mkdir()
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, capture_output=True, timeout=900)
    [wheel] = wheels.glob("ranklens-*.whl")
    assert wheel.name == f"ranklens-{__version__}-py3-none-any.whl"
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=300)
    subprocess.run([*pip, "--python", str(venv / "bin" / "python"), "install", "-q",
                    "--no-compile", str(wheel)], check=True, capture_output=True, timeout=1800)
    return Installed(venv, outside)


def cli_json(installed: Installed, command: str, *args: str) -> dict[str, object]:
    data_dir = installed.python("from ranklens import demo; print(demo.data_dir())")
    files = [arg.format(demo=data_dir) for arg in args]
    result: dict[str, object] = json.loads(installed.run("ranklens", command, *files,
                                                         "--format", "json").stdout)
    return result


def test_the_wheel_holds_the_library_the_cli_and_the_demo(installed: Installed) -> None:
    where = installed.python("import ranklens, ranklens.app.main as app; "
                             "print(ranklens.__file__, app.__file__, ranklens.__version__)")
    package, app, version = where.split()
    assert Path(package).is_relative_to(installed.venv) and Path(app).is_relative_to(
        installed.venv)  # not the checkout
    assert version == __version__
    assert installed.run("ranklens", "--version").stdout.strip() == f"ranklens {__version__}"
    assert installed.python("import ranklens, pathlib; print(pathlib.Path(ranklens.__file__)"
                            ".with_name('py.typed').is_file())") == "True"
    report = cli_json(installed, "compare", "{demo}/bm25_baseline.trec",
                      "{demo}/neural_reranker.trec", "--qrels", "{demo}/qrels.trec",
                      "--metric", "ndcg@10", "--segments", "{demo}/segments.tsv:intent")
    # the same numbers as this checkout computes from its own copy of the demo
    out = installed.outside / "checkout.json"
    from ranklens.cli import main

    files = demo.paths()
    assert main(["compare", str(files["run_a"]), str(files["run_b"]), "--qrels",
                 str(files["qrels"]), "--metric", "ndcg@10", "--segments",
                 f"{files['segments']}:intent", "--format", "json", "--output", str(out)]) == 0
    expected = json.loads(out.read_text())
    assert report["comparisons"] == expected["comparisons"]
    assert report["coverage"] == expected["coverage"]
    assert [r["sha256"] for r in report["inputs"]] == [  # type: ignore[union-attr]
        r["sha256"] for r in expected["inputs"]]


@pytest.fixture(scope="session")
def served(installed: Installed) -> Iterator[str]:
    """`ranklens app` from the wheel on a free port, started in a folder with no settings."""
    assert not (installed.outside / ".streamlit").exists()
    port = _free_port()
    log = (installed.outside / "app.log").open("wb")
    process = subprocess.Popen(
        [str(installed.venv / "bin" / "ranklens"), "app", "--port", str(port), "--host",
         "127.0.0.1", "--store", str(installed.outside / "links.sqlite3"), "--cache-mb", "512"],
        cwd=installed.outside, env=installed.env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, timeout=120)
        yield url
    finally:
        stop_app(process)
        log.close()


def assert_in_the_app(page: Page) -> None:
    """The app's own navigation, not Streamlit's list of a pages/ folder; no error shown."""
    for entry in NAVIGATION:
        assert page.get_by_role("link", name=entry, exact=True).count() == 1, entry
    assert page.get_by_test_id("stSidebarNav").count() == 0
    assert_no_error(page)


def test_ranklens_app_serves_every_page_from_the_wheel(page: Page, installed: Installed,
                                                      served: str) -> None:
    # /mde first: a bookmarked page on a server no session has visited yet
    plan: dict[str, Any] = cli_json(installed, "mde", "--runs", "{demo}/bm25_baseline.trec",
                                    "{demo}/neural_reranker.trec", "--qrels",
                                    "{demo}/qrels.trec")["plan"]  # type: ignore[assignment]
    open_app(page, f"{served}/mde")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Minimum detectable effect")
    assert_in_the_app(page)
    shown = metric_values(page)
    assert card(shown, f"MDE with {plan['n_queries']:,} queries") == format_value(plan["mde"])
    assert card(shown, "sd of differences") == format_value(plan["sd"])

    ppi: dict[str, Any] = cli_json(installed, "ppi", "{demo}/bm25_baseline.trec",
                                   "{demo}/neural_reranker.trec", "--proxy-qrels",
                                   "{demo}/qrels_proxy.trec", "--gold-qrels",
                                   "{demo}/qrels_gold.trec")["analysis"]  # type: ignore[assignment]
    estimate = next(e["result"] for e in ppi["estimates"] if e["key"] == "ppi++")
    open_app(page, f"{served}/ppi")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Cheap labels, corrected")
    assert_in_the_app(page)
    rows = grid_rows(page.get_by_test_id("stDataFrame").first)
    ppi_row = next(row for row in rows if row["estimate"].startswith("PPI++"))
    assert ppi_row["B \u2212 A"] == format_delta(estimate["delta"])
    assert "Payload parts" not in page.inner_text("body")  # magic is off, and the page clean

    compare = cli_json(installed, "compare", "{demo}/bm25_baseline.trec",
                       "{demo}/neural_reranker.trec", "--qrels", "{demo}/qrels.trec")
    overall = compare["comparisons"][0]["overall"]  # type: ignore[index]
    open_app(page, f"{served}/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_in_the_app(page)
    # the demo report's means (elements reach the DOM a moment after the run: wait for them)
    for mean in (overall["mean_a"], overall["mean_b"]):
        expect(page.get_by_test_id("stMetricValue").get_by_text(format_value(mean),
                                                                exact=True).first).to_be_visible()
    assert "bm25_baseline" in page.inner_text("body")
    assert page.get_by_role("button", name="Deploy").count() == 0  # toolbarMode = viewer
    choose_radio(page, "Data", "My files")
    expect(page.get_by_text("Each file can be up to 300 MB")).to_be_visible()  # packaged limit

    open_app(page, f"{served}/methods")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Methods")
    assert_in_the_app(page)
    expect(page.get_by_text("Do the intervals cover and do the tests hold their level?")
           ).to_be_visible()  # docs/validity.md, shipped in the wheel
