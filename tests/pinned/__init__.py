"""Pinned outputs: the demo's reports in every format, stored byte for byte.

What a user sees must not change when the rendering side moves (issue 46). Each case below
turns the bundled demo data into one output — the CLI's text, Markdown, CSV, JSON and HTML
export, the library's LaTeX, frame and notebook HTML, the MDE and PPI exports, and the text of
the Streamlit pages under AppTest — and ``tests/pinned/test_pinned.py`` compares it with the
file of the same name in ``tests/golden/pinned/``.

Regenerate every pin (after a deliberate change of numbers or words, e.g. new default
interval numbers in ``ranklens.stats``) with ONE command::

    .venv/bin/python -m tests.pinned --write          # all pins
    .venv/bin/python -m tests.pinned --write compare  # only the pins whose name has "compare"

and review the diff (``git diff tests/golden/pinned``) before committing it.

What truly varies between runs is stripped, and only that (`normalise`): the installed
version of ranklens (``<version>``), the demo folder's absolute path (``<demo>``), and the
HTML exports' creation time. Everything else is compared as produced. Resample counts are the
smallest the CLI allows (100) in most cases so that the pins stay fast; the two-runs case with
segments is also pinned once at the demo defaults (``compare-defaults``).
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ranklens import __version__, demo

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pinned"
FAST = ("--n-resamples", "100", "--n-permutations", "100")

Producer = Callable[[], str]


def normalise(text: str) -> str:
    """``text`` with what varies between runs and machines replaced by a fixed mark: the
    version, the demo folder, the HTML exports' creation time. Nothing else."""
    folder = str(demo.data_dir())
    text = text.replace(folder, "<demo>")
    text = text.replace(__version__, "<version>")
    text = re.sub(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| UTC)?",
                  "<time>", text)
    return text


def cli(*args: object) -> str:
    """What ``ranklens ARGS`` prints on stdout, run in this process (exit status 0 checked)."""
    from ranklens.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main([str(a) for a in args])
    assert code == 0, (args, code, err.getvalue())
    return out.getvalue()


def _paths() -> dict[str, Path]:
    return demo.paths()


def _two(*extra: object) -> tuple[object, ...]:
    p = _paths()
    texts = demo.text_paths()
    return ("compare", p["run_a"], p["run_b"], "--qrels", p["qrels"], "--segments",
            f"{p['segments']}:intent", "--queries", texts["queries"], "--docs",
            texts["documents"], *extra)


def _three(*extra: object) -> tuple[object, ...]:
    p = _paths()
    return ("compare", p["run_a"], p["run_b"], p["run_dense"], "--qrels", p["qrels"],
            "--segments", f"{p['segments']}:intent", *extra)


def _seeds(*extra: object) -> tuple[object, ...]:
    p = _paths()
    seeds = ",".join(str(path) for path in demo.seed_paths())
    return ("compare", f"bm25={p['run_a']}", f"neural={seeds}", "--qrels", p["qrels"],
            "--segments", f"{p['segments']}:intent", *extra)


def _macro(*extra: object) -> tuple[object, ...]:
    p = _paths()
    return ("compare", p["run_a"], p["run_b"], "--qrels", p["qrels"], "--segments",
            f"{p['segments']}:intent", "--collection", f"{p['segments']}:length", *extra)


def _coverage(*extra: object) -> tuple[object, ...]:
    p = _paths()
    return ("compare", p["run_a"], p["run_dense"], "--qrels", p["qrels"], "--proxy-qrels",
            p["qrels_proxy_full"], *extra)


COMPARE_CASES: dict[str, Callable[..., tuple[object, ...]]] = {
    "two": _two, "three": _three, "seeds": _seeds, "macro": _macro, "coverage": _coverage}
CLI_FORMATS = {"text": "txt", "markdown": "md", "csv": "csv", "json": "json", "html": "html"}


def _library_faces(case: str) -> dict[str, Producer]:
    """The library's faces of the case's report: LaTeX, the frame as CSV, the notebook HTML
    (the report read back from the CLI's JSON, as a user's notebook would)."""

    def report() -> Any:
        from ranklens.compare.report import Report

        return Report.from_json(cli(*COMPARE_CASES[case](*FAST, "-f", "json")))

    return {
        f"compare-{case}.latex.tex": lambda: report().to_latex(),
        f"compare-{case}.frame.csv": lambda: report().to_frame().to_csv(),
        f"compare-{case}.notebook.html": lambda: report()._repr_html_(),
    }


def _mde() -> dict[str, Producer]:
    p = _paths()
    pilot = ("mde", "--runs", p["run_a"], p["run_b"], "--qrels", p["qrels"])
    typed = ("mde", "--sd", "0.1", "--queries", "200")
    return {
        "mde-pilot.txt": lambda: cli(*pilot),
        "mde-pilot.json": lambda: cli(*pilot, "-f", "json"),
        "mde-typed.txt": lambda: cli(*typed),
        "mde-typed.json": lambda: cli(*typed, "-f", "json"),
        "mde-pilot.latex.tex": lambda: _mde_plan().to_latex(),
        "mde-pilot.frame.csv": lambda: _mde_plan().to_frame().to_csv(),
        "mde-pilot.html": lambda: _mde_html(),
        "mde-pilot.cli.html": lambda: cli(*pilot, "-f", "html"),
        "mde-typed.cli.html": lambda: cli(*typed, "-f", "html"),
    }


def _mde_plan() -> Any:
    from ranklens.plan import analysis as planning

    p = _paths()
    from ranklens.io import InputFile

    pilot = planning.pilot_from_files(InputFile.from_path("run_a", p["run_a"]),
                                      InputFile.from_path("run_b", p["run_b"]),
                                      InputFile.from_path("qrels", p["qrels"]), "nDCG@10")
    return planning.plan_queries(pilot.sd, n_queries=pilot.n_queries,
                                 deltas=planning.DEFAULT_DELTAS, pilot=pilot)


def _mde_html() -> str:
    """The MDE page's HTML export of the demo pilot, built as the page builds it."""
    from ranklens.compare.analysis import demo_files
    from ranklens.plan import analysis as planning
    from ranklens.plan import html as html_plan
    from ranklens.plan import views as plan_views
    from ranklens.plan.settings import PlanSettings

    files = demo_files()
    chosen = (files["run_a"], files["run_b"], files["qrels"])
    pilot = planning.pilot_from_files(*chosen, "nDCG@10")
    target = 0.01
    deltas = tuple(dict.fromkeys((*planning.DEFAULT_DELTAS, target)))
    plan = planning.plan_queries(pilot.sd, n_queries=pilot.n_queries, deltas=deltas,
                                 pilot=pilot)
    assert plan.mde is not None
    largest = max(row.queries_needed for row in plan.rows)
    up_to = max(2.5 * plan.mde, 1.2 * max(row.delta for row in plan.rows))
    settings = PlanSettings.from_dict({"source": "demo", "metric": "nDCG@10", "alpha": 0.05,
                                       "power": 0.8, "method": "z", "target": target,
                                       "n_queries": pilot.n_queries})
    export = html_plan.MdeExport(
        plan, target, plan_views.other_method_mde(plan), pilot, settings, chosen,
        planning.mde_curve(pilot.sd, planning.n_grid(pilot.n_queries, largest)),
        planning.power_curve(pilot.sd, pilot.n_queries, up_to=up_to))
    return html_plan.render(export)


def _ppi() -> dict[str, Producer]:
    p = _paths()
    base = ("ppi", p["run_a"], p["run_b"], "--proxy-qrels", p["qrels_proxy"], "--gold-qrels",
            p["qrels_gold"])
    segmented = (*base, "--segments", f"{p['segments']}:intent")
    return {
        "ppi.txt": lambda: cli(*base),
        "ppi.json": lambda: cli(*base, "-f", "json"),
        "ppi-segments.txt": lambda: cli(*segmented),
        "ppi-segments.json": lambda: cli(*segmented, "-f", "json"),
        "ppi.latex.tex": lambda: _ppi_analysis().to_latex(),
        "ppi.frame.csv": lambda: _ppi_analysis().to_frame().to_csv(),
        "ppi.html": lambda: _ppi_html(),
        "ppi.cli.html": lambda: cli(*base, "-f", "html"),
        "ppi-segments.cli.html": lambda: cli(*segmented, "-f", "html"),
    }


def _ppi_files() -> tuple[Any, ...]:
    from ranklens.io import InputFile

    p = _paths()
    return tuple(InputFile.from_path(role, p[key]) for role, key in (
        ("run_a", "run_a"), ("run_b", "run_b"), ("qrels_proxy", "qrels_proxy"),
        ("qrels_gold", "qrels_gold")))


def _ppi_analysis() -> Any:
    from ranklens.ppi.analysis import analyse_ppi

    return analyse_ppi(*_ppi_files(), "nDCG@10", alpha=0.05)


def _ppi_html() -> str:
    """The PPI page's HTML export of the demo, built as the page builds it."""
    from ranklens.ppi import html as html_ppi
    from ranklens.ppi import views as ppi_views
    from ranklens.ppi.analysis import budget_curve
    from ranklens.ppi.settings import PPISettings

    analysis = _ppi_analysis()
    assert analysis.model is not None
    budget = ppi_views.gold_budget(analysis.model, ppi_views.default_planned(analysis.model))
    settings = PPISettings(metric="nDCG@10", alpha=0.05, order="score")
    return html_ppi.render(html_ppi.PPIExport(analysis, settings, _ppi_files(), budget,
                                              budget_curve(analysis.model)))


def _pages() -> dict[str, Producer]:
    from tests.pinned import pages

    return {
        "page-compare.txt": pages.compare_page,
        "page-compare-seeds.txt": pages.compare_seeds_page,
        "page-compare-macro.txt": pages.compare_macro_page,
        "page-mde.txt": pages.mde_page,
        "page-ppi.txt": pages.ppi_page,
    }


def producers() -> dict[str, Producer]:
    """File name in ``tests/golden/pinned`` -> the function that produces its text."""
    found: dict[str, Producer] = {}
    for case, arguments in COMPARE_CASES.items():
        for fmt, suffix in CLI_FORMATS.items():
            found[f"compare-{case}.{suffix}"] = (
                lambda a=arguments, f=fmt: cli(*a(*FAST, "-f", f)))
        found.update(_library_faces(case))
    found["compare-defaults.txt"] = lambda: cli(*_two())
    found["compare-defaults.json"] = lambda: cli(*_two("-f", "json"))
    found.update(_mde())
    found.update(_ppi())
    found.update(_pages())
    return found


def produce(name: str) -> str:
    """The normalised text of the pin ``name``. A face that raises is pinned by its error
    (``raised ValueError: ...``), so that a fix shows in the diff (``Report.to_frame`` of a
    seeds report raised until issue 46)."""
    try:
        text = producers()[name]()
    except Exception as error:
        text = f"raised {type(error).__name__}: {error}\n"
    return normalise(text)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
