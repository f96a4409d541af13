"""The PPI++ feature: cheap (proxy) judgements on every query corrected with trusted (gold)
judgements on a random sample.

Modules: ``settings`` (what the page and CLI set), ``analysis`` (the estimates), ``words``,
``views``, ``charts``, ``text`` (CLI), ``html`` (the export).
"""

__all__ = ["analysis", "charts", "html", "settings", "text", "views", "words"]
