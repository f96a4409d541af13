"""Identical runs: the candidate's file is the baseline's, or scores the same on every query.

Answers it from a Report alone (the inputs' digests and the per-query values), so it applies
to rankings, per-query tables and reports computed elsewhere alike. It does not compare
rankings document by document: two runs that order documents differently but score the same
everywhere are "equal on every query", which is what the comparison sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ranklens.health.result import HealthCheck

TITLE = "Identical runs"


def identical_checks(names: Sequence[str], digests: Sequence[str | None],
                     per_query: Mapping[str, Mapping[str, Mapping[str, float]]],
                     keys: Sequence[str]) -> tuple[HealthCheck, ...]:
    """One check per candidate against the baseline: failed when its file is the baseline's
    (same sha256), a warning when every metric is equal on every query, passed otherwise.

    ``keys`` are the per-query keys of the runs ("a", "b", ...), ``digests`` the files'
    sha256 (None where unknown).
    """
    checks = []
    for j in range(1, len(names)):
        pair = (0, j)
        if digests[0] is not None and digests[0] == digests[j]:
            checks.append(HealthCheck(
                "identical-runs", TITLE, "failed",
                f"{names[j]} is the same file as {names[0]} (sha256 {str(digests[0])[:12]}…): "
                "the comparison compares a run with itself.",
                "Give the candidate's own file.", names[j], pair, {"same_file": 1}))
            continue
        equal, queries = _equal_everywhere(per_query, keys[0], keys[j])
        if equal:
            checks.append(HealthCheck(
                "identical-runs", TITLE, "warning",
                f"{names[j]} and {names[0]} score the same on every one of the {queries:,} "
                f"queries on {', '.join(per_query)}: the files differ, the scores do not.",
                "Check that the candidate is the run you meant (not the baseline under "
                "another name), or that its change reaches these metrics' depth.",
                names[j], pair, {"same_file": 0, "queries": queries}))
            continue
        checks.append(HealthCheck("identical-runs", TITLE, "passed",
                                  f"{names[j]} and {names[0]} differ.", "", names[j], pair,
                                  {"same_file": 0}))
    return tuple(checks)


def _equal_everywhere(per_query: Mapping[str, Mapping[str, Mapping[str, float]]], a: str,
                      b: str) -> tuple[bool, int]:
    if not per_query:
        return False, 0
    queries = 0
    for values in per_query.values():
        left, right = values.get(a, {}), values.get(b, {})
        if not left or left != right:
            return False, 0
        queries = max(queries, len(left))
    return True, queries
