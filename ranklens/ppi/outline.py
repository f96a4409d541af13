"""The order of a PPI++ analysis's sections, written once for every face.

Answers "what does a PPI++ report say, in which order": the verdict, the warnings (a reader
must see them early), the notes that hold whatever the numbers (the random-sample
assumption), the four estimates in detail, the proxy's bias, the judge checked on the gold
queries, the gold budget, the labelling plan (which queries to label next), then the inputs.
``ranklens ppi`` (``ranklens.ppi.text``), the HTML export (``ranklens.ppi.html``) and the
page (``ranklens.app.pages.ppi``) show them in this order; a face with no form for a section
leaves it out (the text has no budget nor plan, its verdict is the table of the four
estimates). It names sections, draws none.
"""

from __future__ import annotations

from typing import Literal

SectionKey = Literal["verdict", "warnings", "notes", "estimates", "bias", "judge", "budget",
                     "label_plan", "inputs"]
SECTIONS: tuple[SectionKey, ...] = ("verdict", "warnings", "notes", "estimates", "bias",
                                    "judge", "budget", "label_plan", "inputs")
"""The sections of a PPI++ report, in the order of every face."""

__all__ = ["SECTIONS", "SectionKey"]
