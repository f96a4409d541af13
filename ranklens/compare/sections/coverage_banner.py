"""The judgement-coverage guardrail of one metric: a `Banner` before its verdict.

Answers "could unjudged documents change this verdict?" in the words of
``ranklens.compare.coverage_words.banner``, pointing to the robustness view (a link in the
HTML export and on the page, a sentence in text and Markdown). None when the guardrail is not
raised, when the report measured no coverage, or when no verdict is drawn (the health checks
withhold it: there is none to change).
"""

from __future__ import annotations

from ranklens.compare import coverage_words
from ranklens.compare.report import Report
from ranklens.document.blocks import Banner
from ranklens.health.check_words import withholds

LINK = "Go to the robustness view"


def coverage_banner(report: Report, metric: str, scope: str = "") -> Banner | None:
    """The guardrail of ``metric`` (``scope``: the candidate's part of the anchor)."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return None
    text = coverage_words.banner(coverage, report.comparison(metric).overall,
                                 report.pair_names, withheld=withholds(report.health))
    if not text:
        return None
    return Banner("guardrail", text, coverage_words.BANNER_TITLE,
                  coverage_words.robustness_anchor(metric, scope), LINK,
                  coverage_words.BANNER_POINTER)
