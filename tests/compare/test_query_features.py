"""Query features for slice discovery (`ranklens.compare.query_features`) on the demo, and
the search finding what the demo's forest plot shows: navigational queries lose, product
queries gain (on queries the search did not see)."""

from __future__ import annotations

import numpy as np

from ranklens import demo, io
from ranklens.compare.query_features import query_features
from ranklens.metrics import evaluate
from ranklens.stats.slices import discover_slices


def test_the_demo_features_and_what_the_search_confirms():
    paths = demo.paths()
    run_a, _ = io.read_run(paths["run_a"])
    run_b, _ = io.read_run(paths["run_b"])
    qrels, _ = io.read_qrels(paths["qrels"])
    a = evaluate(run_a, qrels, ["nDCG@10"])["nDCG@10"].per_query
    b = evaluate(run_b, qrels, ["nDCG@10"])["nDCG@10"].per_query
    ids = sorted(set(a) & set(b))
    features = query_features(ids, run_a, run_b, qrels, baseline_scores=a,
                              query_texts={ids[0]: "one two three"})
    assert set(features) == {"judged relevant", "judged@10 A", "judged@10 B", "top-10 overlap",
                             "query terms", "baseline score"}
    assert all(len(labels) == len(ids) for labels in features.values())
    assert features["query terms"][0] == "3 terms" and features["query terms"][1] == "no text"
    assert len(set(features["baseline score"])) == 4
    segments, _ = io.read_segments(paths["segments"])
    for column, mapping in segments.by_column.items():
        features[column] = [mapping.get(q, "(none)") for q in ids]
    found = discover_slices(np.array([b[q] - a[q] for q in ids]), features, seed=0)
    confirmed = {tuple(s.columns) for s in found.confirmed}
    assert (("intent", "navigational"),) in confirmed and (("intent", "product"),) in confirmed
    navigational = next(s for s in found.slices if s.columns == (("intent", "navigational"),))
    assert navigational.delta < 0 < navigational.rest_delta and navigational.ci_high < 0
