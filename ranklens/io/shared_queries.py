"""Do two inputs share any query? If not, say which files, with example ids from each side.

``check_shared_queries`` answers the question every paired comparison asks first: a run and
its judgements, two runs, two per-query tables, gold judgements and the runs. When the ids do
not meet at all the usual cause is spelling (``q1`` against ``Q001``, a prefix, a number read
as text on one side), so the error shows a few ids of each file side by side. It does not
decide what to do with partial overlaps (``ranklens.stats.pairing`` counts and says those).
"""

from __future__ import annotations

from collections.abc import Collection

from ranklens.errors import RanklensError

EXAMPLES = 3


class NoSharedQueries(RanklensError, ValueError):
    """Two inputs have no query id in common: nothing can be paired or scored."""


def example_ids(ids: Collection[str], count: int = EXAMPLES) -> str:
    """A few ids as the error shows them: ``'q1', 'q2', 'q3', ...`` (sorted, quoted)."""
    ordered = sorted(ids, key=str)
    shown = ", ".join(repr(str(query)) for query in ordered[:count])
    return shown + (", ..." if len(ordered) > count else "") if shown else "no query at all"


def check_shared_queries(first: tuple[str, Collection[str]], second: tuple[str, Collection[str]],
                         fix: str) -> None:
    """Raise `NoSharedQueries` when the two (file name, query ids) pairs share no id.

    The message names both files, shows example ids and counts from each, then ``fix``.
    """
    (first_name, first_ids), (second_name, second_ids) = first, second
    if set(map(str, first_ids)) & set(map(str, second_ids)):
        return
    raise NoSharedQueries(
        f"{first_name} and {second_name} share no query id: {first_name} has "
        f"{example_ids(first_ids)} ({len(first_ids):,} queries), {second_name} has "
        f"{example_ids(second_ids)} ({len(second_ids):,} queries). {fix}")


RUN_AND_QRELS_FIX = ("The judgements must use the run's query ids: the same spelling, case "
                     "and prefix.")
TWO_RUNS_FIX = ("A paired comparison needs the same queries in both: check that both files "
                "come from the same query set and spell the ids alike.")
