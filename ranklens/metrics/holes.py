"""Holes in the judgements filled with proxy labels (an LLM judge, one assessor).

``fill_holes(qrels, proxy)`` answers "what would the metrics say if every document nobody
judged carried the proxy's label": the trusted judgements stay as they are, and each (query,
document) pair the proxy labels but the qrels do not judge (no line, or a negative grade,
trec_eval's "in the pool, not judged") takes the proxy's grade. Only queries the qrels judge
are filled: a query with proxy labels only would join the comparison and change what is
compared, so it is left out and counted.

What it does not do: correct the proxy's own bias. Filled holes inherit it, so the filled
comparison is a robustness check; to estimate B - A with a proxy on all queries and an honest
interval, correct the proxy on a random gold sample (PPI++, ``ranklens.ppi``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels
from ranklens.metrics.arrow import take


@dataclass(frozen=True)
class FilledQrels:
    """The filled judgements and an account of the filling.

    ``n_filled`` (query, document) pairs took a proxy grade; ``n_proxy_only_queries`` queries
    had proxy labels but no trusted judgement and were not filled.
    """

    qrels: Qrels
    n_filled: int
    n_proxy_only_queries: int


def _table(qrels: Qrels, fractional: bool) -> pa.Table:
    return pa.table({
        "query_id": take(qrels.queries, qrels.query_codes),
        "doc_id": take(qrels.docs, qrels.doc_codes),
        "relevance": pa.array(qrels.relevance,
                              type=pa.float64() if fractional else pa.int64()),
    })


def fill_holes(qrels: Qrels, proxy: Qrels) -> FilledQrels:
    """``qrels`` plus the proxy's grade for every pair of a judged query that ``qrels`` lacks.

    Pairs are matched by id (arrow joins, no loop per row). A trusted grade >= 0 always wins; a
    trusted negative grade (in the pool, not judged) is replaced when the proxy labels the
    pair, kept otherwise.
    """
    keys = ["query_id", "doc_id"]
    fractional = qrels.fractional or proxy.fractional  # an LLM judge's 0.73 stays 0.73
    trusted = _table(qrels, fractional)
    labels = _table(proxy, fractional)
    judged_query = pc.is_in(labels["query_id"], value_set=pc.unique(trusted["query_id"]))
    proxy_only = pc.unique(pc.filter(labels["query_id"], pc.invert(judged_query)))
    known = trusted.filter(pc.greater_equal(trusted["relevance"], 0)).select(keys)
    filled = labels.filter(judged_query).join(known, keys=keys, join_type="left anti")
    kept = trusted.join(filled.select(keys), keys=keys, join_type="left anti")
    merged = pa.concat_tables([kept.select([*keys, "relevance"]),
                               filled.select([*keys, "relevance"])])
    result = Qrels.from_columns(merged["query_id"], merged["doc_id"],
                                merged["relevance"].to_numpy(),
                                name=f"{qrels.name}+{proxy.name}")
    return FilledQrels(result, filled.num_rows, len(proxy_only))
