"""Documents that match nothing: a run whose document ids the judgements do not know.

Answers "do this run's documents occur in the judgements at all, and if not, would they after
folding case, stripping blanks or a common prefix/suffix?" (``DOC064080`` against
``doc064080``). A run none of whose top documents is judged scores 0 on every metric whatever
it ranks, and a comparison of it reads as calm as any other: this check says so first.

`document_facts` counts while the run is in memory; `documents_check` turns the counts and
the judged share of the top k (from the report's coverage) into a `HealthCheck`. It does not
score anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.health.result import HealthCheck
from ranklens.metrics.arrow import take

MIN_JUDGED_SHARE = 0.01
"""Below this judged share of a run's top k documents (on the queries the judgements judge),
the run's documents "match nothing" and the check fails."""
FOLD_GAIN = 0.2
"""A way of folding ids is reported when it makes this much more of the run's ids match."""
SAMPLE = 2_000
"""Document ids of a run that folding is tried on."""
CHECKED = 20_000
"""Most document ids of a run looked up in the judgements: every one of a smaller run, else
this many spread evenly over its id table (hashing 7M ids would cost seconds per report)."""
TITLE = "Documents that match the judgements"


@dataclass(frozen=True)
class IdFold:
    """A way the run's ids come to match the judgements': what was done, to how much of the
    sample it applies, and one id of each side that it matches."""

    steps: str
    share: float
    run_id: str
    qrels_id: str


@dataclass(frozen=True)
class DocumentFacts:
    """A run's document ids against the judgements: how many were looked up (all of them when
    ``exhaustive``, else `CHECKED` spread over the run), how many of those occur in the
    judgements, examples of each side, and a fold that makes more of them match."""

    checked: int
    in_qrels: int
    run_examples: tuple[str, ...]
    qrels_examples: tuple[str, ...]
    fold: IdFold | None = None
    exhaustive: bool = True

    @property
    def share(self) -> float:
        return self.in_qrels / self.checked if self.checked else 0.0

    def ids(self, name: str) -> str:
        """``"bm25's 598 document ids"`` or ``"20,000 document ids sampled from bm25"``."""
        if self.exhaustive:
            return f"{name}'s {self.checked:,} document ids"
        return f"{self.checked:,} document ids sampled from {name}"


def document_facts(run: Run, qrels: Qrels) -> DocumentFacts:
    """Look ``run``'s document ids up in ``qrels`` (at most `CHECKED` of them, spread over the
    run); look for a fold when few are found."""
    docs = run.docs
    exhaustive = len(docs) <= CHECKED
    docs = pc.unique(docs) if exhaustive else take(docs, sample_rows(len(docs)))
    return facts_of_ids(docs, exhaustive, qrels, lambda: fold_ids(*_same_queries(run, qrels),
                                                                   qrels))


def sample_rows(count: int) -> np.ndarray:
    """The positions of the `CHECKED` ids looked up among ``count`` (more than `CHECKED`)."""
    return np.linspace(0, count - 1, CHECKED).astype(np.int64)


def facts_of_ids(docs: pa.Array, exhaustive: bool, qrels: Qrels,
                 fold_sample: Callable[[], tuple[list[str], list[str]]]) -> DocumentFacts:
    """The facts of the run ids ``docs`` (every distinct id when ``exhaustive``, else the
    sample `sample_rows` picks), with the fold found on ``fold_sample()`` (run ids, judged
    ids; called only when few ids are found)."""
    judged_ids = pc.cast(qrels.docs, pa.string())
    found = _found(docs, judged_ids)
    facts = DocumentFacts(len(docs), found, tuple(docs.slice(0, 3).to_pylist()),
                          tuple(judged_ids.slice(0, 3).to_pylist()), None, exhaustive)
    if facts.share >= 1 - FOLD_GAIN or not len(judged_ids):
        return facts
    return DocumentFacts(facts.checked, facts.in_qrels, facts.run_examples,
                         facts.qrels_examples, find_fold(*fold_sample()), exhaustive)


def _found(docs: pa.Array, judged_ids: pa.Array) -> int:
    """How many of ``docs`` (a few thousand) occur among ``judged_ids`` (millions, perhaps):
    the judged ids are looked up in a set of ``docs``, not ``docs`` in a set of every judged
    id (a hash table of the qrels' ids would cost hundreds of MB, 90 bytes an id)."""
    if not len(docs) or not len(judged_ids):
        return 0
    cast = pc.cast(docs, pa.string())
    present = pc.unique(judged_ids.filter(pc.is_in(judged_ids, value_set=pc.unique(cast))))
    return int(pc.sum(pc.is_in(cast, value_set=present)).as_py() or 0)


FOLD_QUERIES = 100
"""Queries (shared by run and judgements) whose documents folding is tried on."""


def fold_queries(run: Run, judged: set[str], wanted: int | None = None
                 ) -> tuple[list[str], pa.Array]:
    """The first ``wanted`` (default `FOLD_QUERIES`) queries of ``run`` (in its order) among
    ``judged``, and the document ids of their rows in row order."""
    wanted = FOLD_QUERIES if wanted is None else wanted
    names = run.queries.to_pylist()
    codes = [code for code, name in enumerate(names) if name in judged][:wanted]
    rows = np.flatnonzero(np.isin(run.query_codes, codes))
    return [names[code] for code in codes], take(run.docs, run.doc_codes[rows])


def fold_ids(chosen: Sequence[str], run_docs: pa.Array, qrels: Qrels
             ) -> tuple[list[str], list[str]]:
    """Up to `SAMPLE` of ``run_docs`` (the rows of the ``chosen`` queries), spread evenly,
    and the judged ids of the same queries: folding is tried where the two should meet."""
    if len(run_docs) > SAMPLE:
        run_docs = take(run_docs, np.linspace(0, len(run_docs) - 1, SAMPLE).astype(np.int64))
    wanted = set(chosen)
    qrels_codes = [code for code, name in enumerate(qrels.queries.to_pylist()) if name in wanted]
    qrels_rows = np.flatnonzero(np.isin(qrels.query_codes, qrels_codes))
    qrels_ids = take(qrels.docs, qrels.doc_codes[qrels_rows]).to_pylist()
    return [str(v) for v in run_docs.to_pylist()], [str(v) for v in qrels_ids]


def _same_queries(run: Run, qrels: Qrels) -> tuple[list[str], pa.Array]:
    """The queries and rows of ``run`` that folding is tried on (`fold_queries` of the
    queries ``qrels`` judges)."""
    return fold_queries(run, set(qrels.queries.to_pylist()))


def find_fold(run_ids: Sequence[str], qrels_ids: Sequence[str]) -> IdFold | None:
    """The fewest steps (strip blanks, fold case, then drop a common prefix/suffix) after which
    at least `FOLD_GAIN` more of ``run_ids`` occur in ``qrels_ids``; None when none does."""
    if not run_ids or not qrels_ids:
        return None
    share = _share(run_ids, set(qrels_ids))
    tries: list[tuple[str, Callable[[str], str]]] = [
        ("stripping blanks", str.strip), ("folding case", str.lower),
        ("stripping blanks and folding case", lambda v: v.strip().lower())]
    for steps, fold in tries:
        found = _matched(steps, run_ids, qrels_ids, fold, fold)
        if found is not None and found.share >= share + FOLD_GAIN:
            return found
    for lower in (False, True):  # case folded only when the ids need it
        found = _affix_fold(run_ids, qrels_ids, lower)
        if found is not None and found.share >= share + FOLD_GAIN:
            return found
    return None


def _affix_fold(run_ids: Sequence[str], qrels_ids: Sequence[str],
                lower: bool) -> IdFold | None:
    """The fold that removes what the two sides' common prefixes and suffixes do not share
    (``msm`` of ``msmdoc`` against ``doc``), case folded first when ``lower``."""
    def key(value: str) -> str:
        return value.strip().lower() if lower else value.strip()

    run_keys, qrels_keys = [key(v) for v in run_ids], [key(v) for v in qrels_ids]
    prefixes = (_prefix(run_keys), _prefix(qrels_keys))
    suffixes = (_suffix(run_keys), _suffix(qrels_keys))
    if prefixes[0] == prefixes[1] and suffixes[0] == suffixes[1]:
        return None
    said = []
    cuts = []
    for side, prefix, suffix, other_prefix, other_suffix in (
            ("the run's", prefixes[0], suffixes[0], prefixes[1], suffixes[1]),
            ("the qrels'", prefixes[1], suffixes[1], prefixes[0], suffixes[0])):
        head = _extra_prefix(prefix, other_prefix)
        tail = _extra_prefix(suffix[::-1], other_suffix[::-1])[::-1]
        parts = ([f"the prefix '{head}'"] if head else []) + \
            ([f"the suffix '{tail}'"] if tail else [])
        if parts:
            said.append(f"{' and '.join(parts)} from {side} ids")
        cuts.append(_cutter(head, tail, lower))
    steps = ("folding case and removing " if lower else "removing ") + " and ".join(said)
    return _matched(steps, run_ids, qrels_ids, cuts[0], cuts[1])


def _extra_prefix(prefix: str, other: str) -> str:
    """What of ``prefix`` to remove so that it becomes ``other``'s: the part before it when it
    ends with ``other`` (``msm`` of ``msmdoc`` against ``doc``), none when ``other`` ends with
    it (the other side removes its part), else all of it."""
    if other.endswith(prefix):
        return ""
    if prefix.endswith(other):
        return prefix[:len(prefix) - len(other)]
    return prefix


def _cutter(head: str, tail: str, lower: bool = True) -> Callable[[str], str]:
    def cut(value: str) -> str:
        value = value.strip().lower() if lower else value.strip()
        if head and value.startswith(head):
            value = value[len(head):]
        if tail and value.endswith(tail):
            value = value[:len(value) - len(tail)]
        return value
    return cut


def _share(values: Sequence[str], known: set[str]) -> float:
    return sum(1 for value in values if value in known) / len(values) if values else 0.0


def _matched(steps: str, run_ids: Sequence[str], qrels_ids: Sequence[str],
             run_fold: Callable[[str], str], qrels_fold: Callable[[str], str]) -> IdFold | None:
    keys = {qrels_fold(value): value for value in qrels_ids}
    hits = [(value, keys[run_fold(value)]) for value in run_ids if run_fold(value) in keys]
    if not hits:
        return None
    return IdFold(steps, len(hits) / len(run_ids), hits[0][0], hits[0][1])


def _common_start(values: list[str]) -> str:
    """The characters every value starts with."""
    if not values:
        return ""
    first, last = min(values), max(values)  # the sorted extremes bound every shared start
    length = 0
    while length < min(len(first), len(last)) and first[length] == last[length]:
        length += 1
    return first[:length]


def _prefix(values: list[str]) -> str:
    return _common_start(values).rstrip("0123456789")


def _suffix(values: list[str]) -> str:
    return _common_start([v[::-1] for v in values]).rstrip("0123456789")[::-1]


def documents_check(index: int, name: str, facts: DocumentFacts, judged_share: float | None,
                    depth: int, queries: int) -> HealthCheck:
    """The check of run ``index`` (named ``name``): failed when under `MIN_JUDGED_SHARE` of its
    top ``depth`` documents on the ``queries`` compared are judged (``judged_share``, from the
    report's coverage; the share of its ids in the judgements when there is none)."""
    share = facts.share if judged_share is None else judged_share
    numbers = {"judged_share": share, "depth": depth, "queries": queries,
               "documents_checked": facts.checked, "documents_in_qrels": facts.in_qrels}
    fold = facts.fold
    if fold is not None:
        numbers["fold_share"] = fold.share
    examples = (f"run: {', '.join(facts.run_examples)}",
                f"qrels: {', '.join(facts.qrels_examples)}")
    top = f"top {depth} documents"
    written = (f"the run writes '{fold.run_id}', the qrels '{fold.qrels_id}'" if fold is not None
               else f"the run writes '{_first(facts.run_examples)}', the qrels "
                    f"'{_first(facts.qrels_examples)}'")
    if share < MIN_JUDGED_SHARE:
        if fold is not None:
            message = (f"{_percent(share)} of {name}'s {top} have a judgement on the {queries:,} "
                       f"queries compared; its ids match the judgements after {fold.steps} "
                       f"({_percent(fold.share)} of a sample of them): {written}.")
            action = ("Write the run's document ids exactly as the judgements do (or the "
                      "judgements' as the run does), then compare again.")
        elif facts.in_qrels == 0:
            message = (f"None of {facts.ids(name)} occurs in the judgements ({written}), even "
                       "after folding case, stripping blanks or a common prefix/suffix.")
            action = ("Check that the run and the judgements are of the same collection, and "
                      "that the document id column is the right one (--doc-column (CLI), "
                      "columns={'doc_id': ...} (library) or \"Id columns\" (page)).")
        else:
            message = (f"{_percent(share)} of {name}'s {top} have a judgement on the "
                       f"{queries:,} queries compared, although {_percent(facts.share)} of its "
                       "document ids occur somewhere in the judgements: they are judged for "
                       "other queries.")
            action = ("Check that the run's query ids are the judgements' (a shifted or "
                      "re-numbered topic set) and that both are of the same collection.")
        return HealthCheck("documents", TITLE, "failed", message, action, name, (index,),
                           numbers, examples)
    if fold is not None:
        message = (f"{_percent(share)} of {name}'s {top} have a judgement, but "
                   f"{_percent(fold.share)} of its ids match only after {fold.steps} "
                   f"({written}): part of the run may be scored as unjudged.")
        return HealthCheck("documents", TITLE, "warning", message,
                           "Write every document id as the judgements do.", name, (index,),
                           numbers, examples)
    message = f"{_percent(share)} of {name}'s {top} have a judgement."
    return HealthCheck("documents", TITLE, "passed", message, "", name, (index,), numbers)


def _first(values: Sequence[str]) -> str:
    return values[0] if values else ""


def _percent(share: float) -> str:
    return "under 1%" if 0 < share < 0.01 else f"{share:.0%}"
