"""ranklens: is run B really better than run A, and where?

The one-call API (``__all__``), imported on first use so that ``import ranklens`` stays cheap:

- ``compare_runs(runs, qrels, metrics=..., segments=..., ...)`` -> ``Report`` (the CLI's and
  the app's report: ``_repr_html_`` in a notebook, ``to_frame()``, ``to_latex()``)
- ``rank_runs(runs, qrels, metrics=..., baselines=...)`` -> ``LeaderboardReport`` (up to 500
  runs: rank intervals and tiers, every pair at once; the CLI's ``compare --leaderboard``)
- ``evaluate(run, qrels, metrics)`` -> DataFrame (query_id, one column per metric)
- ``mde`` / ``minimum_detectable_effect``, ``required_queries``, ``ppi_compare``: the
  statistics of ``ranklens.stats`` (the MDE before labelling, PPI++ on cheap judgements)
- ``InputFile``, ``InputError``, ``CompareSettings``, ``Report``

The folder tree is the architecture. Lower layers by concern, each importing only the ones
below it:

- ``ranklens.data``: the typed data that flows between layers (Run, Qrels, MetricResult)
- ``ranklens.io``: files -> Run / Qrels / per-query tables / segment maps; ``InputFile``
- ``ranklens.metrics``: Run + Qrels -> MetricResult (trec_eval semantics)
- ``ranklens.stats``: per-query numbers -> intervals, p-values, q-values, MDE, PPI++ (numpy)
- ``ranklens.store``: share-link snapshots (SQLite by default)

Between them, ``ranklens.health`` (facts about inputs, below the features) and
``ranklens.document`` (the blocks a report is made of, its table columns, and one writer per
face: text, Markdown, HTML with its page shell ``html_shell``, LaTeX's ``booktabs`` shell, the
charts' shared look ``chart_style``; the page's writer is ``ranklens.app.blocks``).
``docs/architecture.md`` says which report sections are already blocks.

The upper layer by feature, with the same file names in each (``analysis`` computes, ``views``
shapes tables and cards, ``charts`` draws with Altair, ``text`` writes what the CLI prints,
``html`` writes the self-contained export; ``compare/sections`` one module per section):

- ``ranklens.compare``: run B against run A, overall and per segment (plus ``segments``,
  ``report``, ``rankings``, ``verdict_words``, ``report_tables``, ``query_texts``)
- ``ranklens.plan``: how many queries (MDE)
- ``ranklens.ppi``: cheap judgements corrected on a gold sample (PPI++)

Above the features: ``ranklens.share`` (share links, and what differs when one is reopened).
At the top, what every layer may import: ``formats`` (how numbers read), ``codec`` (the JSON
form), ``errors``, ``page_settings`` (reading a page's settings back), ``methods`` (the
Methods page's text) and ``_lazy``. Faces: ``ranklens.api`` (the calls above),
``ranklens.cli``; the Streamlit app is ``ranklens.app`` (the only package that imports
Streamlit, with sign-in, ``ranklens.app.signin``; `ranklens app` serves it, ``app.py`` and
``pages/`` of a checkout are thin entries).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranklens._lazy import installed_version, lazy_names

if TYPE_CHECKING:
    __version__: str
    from ranklens.api import compare_runs, evaluate, rank_runs
    from ranklens.compare.analysis import CompareSettings
    from ranklens.compare.report import Report
    from ranklens.io import InputError, InputFile
    from ranklens.stats import mde, minimum_detectable_effect, ppi_compare, required_queries

_LAZY = {
    "compare_runs": "ranklens.api",
    "evaluate": "ranklens.api",
    "rank_runs": "ranklens.api",
    "mde": "ranklens.stats",
    "minimum_detectable_effect": "ranklens.stats",
    "required_queries": "ranklens.stats",
    "ppi_compare": "ranklens.stats",
    "CompareSettings": "ranklens.compare.analysis",
    "Report": "ranklens.compare.report",
    "InputError": "ranklens.io",
    "InputFile": "ranklens.io",
}

__all__ = ["CompareSettings", "InputError", "InputFile", "Report", "__version__",
           "compare_runs", "evaluate", "mde", "minimum_detectable_effect", "ppi_compare",
           "rank_runs", "required_queries"]


# The API's names import on first use (``import ranklens`` loads no numpy); ``__version__`` is
# read on first use from the installed metadata (the one source is pyproject.toml's version;
# ``importlib.metadata`` alone takes longer to import than the rest of ``import ranklens``).
__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY, {"__version__": installed_version})
