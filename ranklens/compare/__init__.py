"""The Compare feature: run B against run A (or candidates against a baseline), overall and per
segment, with the judgement-coverage guardrail; the report and its faces.

Modules: ``inputs`` (reading the files), ``scoring`` (scoring the runs and the memo of
per-query values), ``analysis`` (inputs to report), ``input_coverage`` (the coverage step on
the inputs), ``segments`` and ``family`` (the comparisons),
``coverage`` (judged@k and the guardrail), ``report`` (the Report and its serialised form),
``rankings`` (two rankings side by side), ``query_texts`` (query and document texts beside a
report), ``verdict_words`` and ``coverage_words`` (sentences), ``report_tables`` (the report as
DataFrames), ``charts``, ``text`` (the report as text and Markdown), ``csv_report`` (CSV),
``html`` (the export); ``sections`` one module per report section; ``request`` (what a face
asks, and the one way it becomes a Report).
What differs between a stored and a recomputed report is ``ranklens.share.differences``.
"""

__all__ = ["analysis", "charts", "coverage", "coverage_words", "csv_report", "family", "html",
           "input_coverage", "inputs", "query_texts", "rankings", "report", "report_tables",
           "scoring", "segments", "text", "verdict_words"]
