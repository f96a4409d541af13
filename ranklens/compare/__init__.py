"""The Compare feature: run B against run A (or candidates against a baseline), overall and per
segment, with the judgement-coverage guardrail; the report and its faces.

Modules: ``analysis`` (inputs to report), ``segments`` and ``family`` (the comparisons),
``coverage`` (judged@k and the guardrail), ``report`` (the Report and its serialised form),
``rankings`` (two rankings side by side), ``words`` and ``coverage_words`` (sentences),
``views`` (tables and cards), ``charts``, ``text`` (CLI formats), ``html`` (the export),
``changes`` (what differs between a stored and a recomputed report).
"""

__all__ = ["analysis", "changes", "charts", "coverage", "coverage_words", "family", "html",
           "rankings", "report", "segments", "text", "views", "words"]
