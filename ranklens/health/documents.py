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

import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.health.result import HealthCheck

MIN_JUDGED_SHARE = 0.01
"""Below this judged share of a run's top k documents (on the queries the judgements judge),
the run's documents "match nothing" and the check fails."""
FOLD_GAIN = 0.2
"""A way of folding ids is reported when it makes this much more of the run's ids match."""
SAMPLE = 2_000
"""Distinct document ids of a run that folding is tried on."""
TITLE = "Documents that match the judgements"

Fold = Callable[[pa.Array], pa.Array]


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
    """A run's document ids against the judgements: how many distinct ids, how many occur in
    the judgements, examples of each side, and a fold that makes more of them match."""

    distinct: int
    in_qrels: int
    run_examples: tuple[str, ...]
    qrels_examples: tuple[str, ...]
    fold: IdFold | None = None

    @property
    def share(self) -> float:
        return self.in_qrels / self.distinct if self.distinct else 0.0


def document_facts(run: Run, qrels: Qrels) -> DocumentFacts:
    """Count ``run``'s distinct document ids found in ``qrels``; look for a fold when few are."""
    docs = pc.unique(run.docs)
    judged = pc.cast(qrels.docs, pa.string())
    found = int(pc.sum(pc.is_in(docs, value_set=judged)).as_py() or 0)
    sample = docs.slice(0, SAMPLE)
    facts = DocumentFacts(len(docs), found, tuple(sample.slice(0, 3).to_pylist()),
                          tuple(judged.slice(0, 3).to_pylist()))
    share = facts.share
    if share >= 1 - FOLD_GAIN or not len(judged):
        return facts
    fold = find_fold(sample, judged, share)
    return DocumentFacts(facts.distinct, facts.in_qrels, facts.run_examples,
                         facts.qrels_examples, fold)


def find_fold(run_ids: pa.Array, qrels_ids: pa.Array, share: float) -> IdFold | None:
    """The fewest steps (strip blanks, fold case, drop a common prefix/suffix) after which at
    least `FOLD_GAIN` more of ``run_ids`` occur in ``qrels_ids``; None when none does."""
    strip: Fold = pc.utf8_trim_whitespace
    lower: Fold = pc.utf8_lower
    tries: list[tuple[str, Sequence[Fold]]] = [
        ("stripping blanks", (strip,)), ("folding case", (lower,)),
        ("stripping blanks and folding case", (strip, lower))]
    best: IdFold | None = None
    for steps, folds in tries:
        found = _matched(steps, _apply(run_ids, folds), _apply(qrels_ids, folds), run_ids,
                         qrels_ids)
        if found is not None and found.share >= share + FOLD_GAIN:
            return found
    folded_run, folded_qrels = _apply(run_ids, (strip, lower)), _apply(qrels_ids, (strip, lower))
    affixed = _without_affixes(folded_run, folded_qrels)
    if affixed is not None:
        steps, run_keys, qrels_keys = affixed
        found = _matched(steps, run_keys, qrels_keys, run_ids, qrels_ids)
        if found is not None and found.share >= share + FOLD_GAIN:
            best = found
    return best


def _apply(values: pa.Array, folds: Sequence[Fold]) -> pa.Array:
    for fold in folds:
        values = fold(values)
    return values


def _matched(steps: str, run_keys: pa.Array, qrels_keys: pa.Array, run_ids: pa.Array,
             qrels_ids: pa.Array) -> IdFold | None:
    where = pc.index_in(run_keys, value_set=qrels_keys)
    hits = pc.is_valid(where)
    count = int(pc.sum(hits).as_py() or 0)
    if not count or not len(run_keys):
        return None
    first = int(pc.index(hits, True).as_py())
    return IdFold(steps, count / len(run_keys), str(run_ids[first].as_py()),
                  str(qrels_ids[int(where[first].as_py())].as_py()))


def _without_affixes(run_keys: pa.Array, qrels_keys: pa.Array
                     ) -> tuple[str, pa.Array, pa.Array] | None:
    """Both sides without the prefix and suffix all their sampled ids share (a prefix stops
    before trailing digits, a suffix after leading ones: ``doc0`` is the prefix ``doc``)."""
    run_list = run_keys.to_pylist()
    qrels_list = qrels_keys.slice(0, SAMPLE).to_pylist()
    prefixes = [_prefix(run_list), _prefix(qrels_list)]
    suffixes = [_suffix(run_list), _suffix(qrels_list)]
    if prefixes[0] == prefixes[1] and suffixes[0] == suffixes[1]:
        return None
    said = []
    for side, prefix, suffix in (("the run's", prefixes[0], suffixes[0]),
                                 ("the qrels'", prefixes[1], suffixes[1])):
        parts = ([f"the prefix `{prefix}`"] if prefix and prefixes[0] != prefixes[1] else []) + \
            ([f"the suffix `{suffix}`"] if suffix and suffixes[0] != suffixes[1] else [])
        if parts:
            said.append(f"{' and '.join(parts)} from {side} ids")
    if not said:
        return None

    def cut(values: pa.Array, prefix: str, suffix: str) -> pa.Array:
        if prefix:
            values = pc.utf8_slice_codeunits(values, len(prefix))
        if suffix:
            values = pc.utf8_slice_codeunits(values, 0, -len(suffix))
        return values

    same_prefix = prefixes[0] == prefixes[1]
    same_suffix = suffixes[0] == suffixes[1]
    run_cut = cut(run_keys, "" if same_prefix else prefixes[0], "" if same_suffix else suffixes[0])
    qrels_cut = cut(qrels_keys, "" if same_prefix else prefixes[1],
                    "" if same_suffix else suffixes[1])
    return "folding case and removing " + " and ".join(said), run_cut, qrels_cut


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
               "distinct_documents": facts.distinct, "documents_in_qrels": facts.in_qrels}
    fold = facts.fold
    if fold is not None:
        numbers["fold_share"] = fold.share
    examples = (f"run: {', '.join(facts.run_examples)}",
                f"qrels: {', '.join(facts.qrels_examples)}")
    top = f"top {depth} documents"
    written = (f"the run writes `{fold.run_id}`, the qrels `{fold.qrels_id}`" if fold is not None
               else f"the run writes `{_first(facts.run_examples)}`, the qrels "
                    f"`{_first(facts.qrels_examples)}`")
    if share < MIN_JUDGED_SHARE:
        if fold is not None:
            message = (f"{_percent(share)} of {name}'s {top} have a judgement on the {queries:,} "
                       f"queries compared; its ids match the judgements after {fold.steps} "
                       f"({_percent(fold.share)} of a sample of them): {written}.")
            action = ("Write the run's document ids exactly as the judgements do (or the "
                      "judgements' as the run does), then compare again.")
        elif facts.in_qrels == 0:
            message = (f"None of {name}'s {facts.distinct:,} document ids occurs in the "
                       f"judgements ({written}), even after folding case, stripping blanks or "
                       "a common prefix/suffix.")
            action = ("Check that the run and the judgements are of the same collection, and "
                      "that the document id column is the right one (--doc-column, "
                      "columns={'doc_id': ...}).")
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
