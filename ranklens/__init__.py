"""ranklens: is run B really better than run A, and where?

Layers, each importing only the ones below it:

- ``ranklens.tables`` / ``ranklens.metric_result``: the typed data that flows between layers
- ``ranklens.io``: files -> Run / Qrels / per-query tables / segment maps
- ``ranklens.metrics``: Run + Qrels -> MetricResult (trec_eval semantics)
- ``ranklens.stats``: per-query numbers -> intervals, p-values, q-values, MDE, PPI++
- ``ranklens.aggregate``, ``ranklens.report``: segments and the Report object
- faces: ``ranklens.cli``, the Streamlit app (``app.py``, ``pages/``)
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ranklens")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
