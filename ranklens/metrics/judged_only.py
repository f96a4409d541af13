"""trec_eval's ``-J``: evaluate over judged documents only, the unjudged ones taken out.

``condense_to_judged(run, qrels)`` answers "what is left of this ranking once every document
without a judgement is removed": the rows whose document has a grade >= 0 for that query. A
negative grade is "in the pool, not judged" for trec_eval and goes too. The rows keep their
scores, so the condensed ranking keeps the original order (and its tie-breaking by document
id): what trec_eval's ``form_res_rels`` does under ``-J``. Queries without judgements lose all
their rows. It says nothing about which queries are evaluated: ``evaluate(...,
judged_only=True)`` still evaluates a query whose retrieved documents were all unjudged (it
scores what an empty ranking scores), as trec_eval does.
"""

from __future__ import annotations

import numpy as np

from ranklens.data import Qrels, Run
from ranklens.metrics.judgements import Judgements, QueryJoin


def judged_rows(run: Run, qrels: Qrels) -> np.ndarray:
    """Indices (ascending) of the run rows whose document has a grade >= 0 for its query."""
    join = QueryJoin.of(run, qrels)
    query = join.index_of_run_code[run.query_codes]
    rows = np.flatnonzero(query >= 0)
    labels = Judgements(qrels, join).labels_of_rows(run, rows, query[rows])
    return rows[labels >= 0]


def condense_to_judged(run: Run, qrels: Qrels) -> Run:
    """``run`` without the rows of unjudged documents (same id dictionaries, same name)."""
    rows = judged_rows(run, qrels)
    return Run(run.query_codes[rows], run.queries, run.doc_codes[rows], run.docs,
               scores=run.scores[rows], ranks=None if run.ranks is None else run.ranks[rows],
               name=run.name)


__all__ = ["condense_to_judged", "judged_rows"]
