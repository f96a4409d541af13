"""The PPI++ feature: cheap (proxy) judgements on every query corrected with trusted (gold)
judgements on a random sample.

Modules: ``settings`` (what the page and CLI set), ``analysis`` (the estimates), ``words``,
``views``, ``charts``, ``text`` (CLI), ``html`` (the export); ``labelling`` (which queries to
label next: a plan) and ``rounds`` (labelling in rounds, B - A after each, the stopping rule).
"""

__all__ = ["analysis", "charts", "html", "labelling", "rounds", "settings", "text", "views",
           "words"]
