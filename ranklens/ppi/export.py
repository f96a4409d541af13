"""The PPI++ HTML export of an analysis as it first reads: what ``ranklens ppi --format html``
writes and the page offers before its reader changes the gold budget.

`ppi_export` answers "the export of this analysis": the analysis, its settings and input files,
the gold budget at its default planned size and the budget curve (none without a variance
model). The page, where the reader picks the budget, builds its own ``PPIExport`` with that
choice; the HTML itself is ``ranklens.ppi.html.render``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.io import InputFile
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import PPIAnalysis, budget_curve
from ranklens.ppi.payload import PPIExport
from ranklens.ppi.settings import PPISettings


def ppi_export(analysis: PPIAnalysis, settings: PPISettings,
               files: Sequence[InputFile]) -> PPIExport:
    """The export of ``analysis`` (see the module docstring)."""
    model = analysis.model
    if model is None:
        return PPIExport(analysis, settings, tuple(files), None, None)
    budget = ppi_views.gold_budget(model, ppi_views.default_planned(model))
    return PPIExport(analysis, settings, tuple(files), budget, budget_curve(model))
