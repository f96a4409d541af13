"""Helpers of the share-link tests: demo inputs, AppTest runs of the app, what a page shows."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from streamlit.testing.v1 import AppTest

from ranklens.compare.analysis import CompareSettings, demo_files
from ranklens.io import InputFile
from ranklens.ppi import html as html_ppi
from ranklens.ppi.analysis import analyse_ppi
from ranklens.ppi.settings import PPISettings

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
COMPARE_ROLES = ("run_a", "run_b", "qrels", "segments")
PPI_ROLES = ("run_a", "run_b", "qrels_proxy", "qrels_gold")
APP_TIMEOUT = 180  # the first compare run scores 2 x 40,000 rows on a loaded machine

# The settings the tests share: two metrics (so q-values across metrics) and a segment column.
SETTINGS = CompareSettings(metrics=("nDCG@10", "AP"), segment_column="intent",
                           n_resamples=2_000, n_permutations=2_000, seed=7)


def compare_files() -> tuple[InputFile, ...]:
    files = demo_files()
    return tuple(files[role] for role in COMPARE_ROLES)


def dense_files() -> tuple[InputFile, ...]:
    """The Compare page's second demo pair, as the page reads it: BM25 against the dense
    retriever (many unjudged documents: the coverage banner is raised), with the qrels, the
    segment map and the proxy judgements of every run's top 20 (role ``qrels_proxy``)."""
    files = demo_files()
    dense, proxy = files["run_dense"], files["qrels_proxy_full"]
    return (files["run_a"], InputFile.with_digest("run_b", dense.name, dense.data, dense.sha256),
            files["qrels"], files["segments"],
            InputFile.with_digest("qrels_proxy", proxy.name, proxy.data, proxy.sha256))


def ppi_files() -> tuple[InputFile, ...]:
    files = demo_files()
    return tuple(files[role] for role in PPI_ROLES)


def ppi_result(metric: str = "AP", alpha: float = 0.05) -> dict[str, Any]:
    """The PPI page's result payload for the demo files (what a PPI link stores)."""
    files = ppi_files()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyse_ppi(*files, metric, alpha=alpha)
    settings = PPISettings(metric=metric, alpha=alpha, order="score")
    return html_ppi.payload(html_ppi.PPIExport(analysis, settings, files))


def app(**query: str) -> AppTest:
    """A fresh session of the app (nothing run yet), with ``query`` as the URL's query."""
    at = AppTest.from_file(APP, default_timeout=APP_TIMEOUT)
    for key, value in query.items():
        at.query_params[key] = value
    return at


def run_clean(at: AppTest) -> AppTest:
    """Run ``at`` and fail on any exception element (a traceback on the page)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_link(at: AppTest) -> str:
    """The share link in the page's code block (relative without a browser: ``?report=...``)."""
    links = [c.value for c in at.code if "?report=" in c.value]
    assert len(links) == 1, [c.value for c in at.code]
    return links[0]


def token_of(link: str) -> str:
    return link.split("?report=", 1)[1]


def shown_numbers(at: AppTest) -> dict[str, Any]:
    """Everything numeric the page shows: metric cards and the data of every table."""
    frames = {}
    for index, frame in enumerate(at.dataframe):
        value = frame.value
        frames[f"table {index}"] = (value.data if hasattr(value, "data") else value)
    return {
        "metrics": [(m.label, m.value) for m in at.metric],
        "tables": {name: pd.DataFrame(frame).to_json(orient="split", double_precision=15)
                   for name, frame in frames.items()},
    }


def titles(at: AppTest) -> list[str]:
    return [t.value for t in at.title]


def shared_compare_page() -> tuple[AppTest, str]:
    """The Compare page with two metrics and seed 7, shared into the app's store (the
    ``RANKLENS_STORE`` of the environment); (that session, its token)."""
    at = run_clean(app())
    at.multiselect(key="metrics:runs").set_value(["nDCG@10", "AP"])
    at.number_input(key="seed").set_value(7)
    run_clean(at)
    at.button(key="share:compare").click()
    run_clean(at)
    return at, token_of(shown_link(at))


@dataclass(frozen=True)
class SharedCompare:
    """A store holding one shared Compare page (`shared_compare_page`): the store's path,
    the link's token and the numbers the sharing session showed (`shown_numbers`)."""

    path: Path
    token: str
    numbers: dict[str, Any]
