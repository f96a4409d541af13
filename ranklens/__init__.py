"""ranklens: is run B really better than run A, and where?

The folder tree is the architecture. Lower layers by concern, each importing only the ones
below it:

- ``ranklens.data``: the typed data that flows between layers (Run, Qrels, MetricResult)
- ``ranklens.io``: files -> Run / Qrels / per-query tables / segment maps; ``InputFile``
- ``ranklens.metrics``: Run + Qrels -> MetricResult (trec_eval semantics)
- ``ranklens.stats``: per-query numbers -> intervals, p-values, q-values, MDE, PPI++ (numpy)
- ``ranklens.store``: share-link snapshots (SQLite by default)

The upper layer by feature, with the same file names in each (``analysis`` computes, ``views``
shapes tables and cards, ``charts`` draws with Altair, ``text`` writes what the CLI prints,
``html`` writes the self-contained export):

- ``ranklens.compare``: run B against run A, overall and per segment (plus ``segments``,
  ``report``, ``rankings``, ``words``)
- ``ranklens.plan``: how many queries (MDE)
- ``ranklens.ppi``: cheap judgements corrected on a gold sample (PPI++)

Shared by the features: ``ranklens.formats`` (how numbers read), ``ranklens.charts`` (chart
style), ``ranklens.html`` (the export's page shell), ``ranklens.share`` (share links). Faces:
``ranklens.cli``; the Streamlit app is ``app.py``, ``pages/`` and ``ranklens.app`` (the only
package that imports Streamlit).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ranklens")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
