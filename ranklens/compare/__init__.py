"""The Compare feature: run B against run A (or candidates against a baseline), overall and per
segment, with the judgement-coverage guardrail; the report and its faces.

Modules: ``inputs`` (reading the files), ``scoring`` (scoring the runs and the memo of
per-query values), ``analysis`` (inputs to report), ``input_coverage`` (the coverage step on
the inputs), ``segments`` and ``family`` (the comparisons),
``coverage`` (judged@k and the guardrail), ``report`` (the Report and its serialised form),
``rankings`` (two rankings side by side), ``words`` and ``coverage_words`` (sentences),
``views`` (tables and cards), ``charts``, ``text`` (text and Markdown), ``csv_report`` (CSV),
``html`` (the export).
What differs between a stored and a recomputed report is ``ranklens.changes``.
"""

__all__ = ["analysis", "charts", "coverage", "coverage_words", "csv_report", "family", "html",
           "input_coverage", "inputs", "rankings", "report", "scoring", "segments", "text",
           "views", "words"]
