"""Which of several id columns holds the ids the judgements use (``docno`` or ``docid``).

A PyTerrier result saved with ``to_csv`` has ``qid, docid, docno, rank, score, query``:
``docno`` is the document's id, ``docid`` PyTerrier's internal integer. The alias order alone
would take ``docid`` and score every document as unjudged. Answers "which candidate column's
values occur in the judgements" from a sample of each, and says which was chosen and why. It
does not read files: the caller reads the table again with the chosen columns named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels

if TYPE_CHECKING:
    from ranklens.io.summary import ReadSummary

SAMPLE = 2_000
"""Distinct values of each candidate column compared with the judgements."""
_HEAD_ROWS = 200_000  # the sample's distinct values are taken from the table's first rows

ROLE_WORDS = {"doc_id": "document ids", "query_id": "query ids"}
OPTIONS = {"doc_id": ("--doc-column", "doc_id"), "query_id": ("--query-column", "query_id")}


def sample_ids(column: pa.ChunkedArray | pa.Array) -> tuple[str, ...]:
    """Up to `SAMPLE` distinct values of an id column, as text, in order of appearance."""
    head = column.slice(0, _HEAD_ROWS)
    if isinstance(head, pa.ChunkedArray):
        head = pa.concat_arrays(head.chunks) if head.num_chunks else pa.array([], pa.string())
    if pa.types.is_dictionary(head.type):
        head = head.dictionary_decode()
    values = pc.drop_null(pc.unique(head))
    if not pa.types.is_string(values.type):
        values = pc.cast(values, pa.string())
    return tuple(values.slice(0, SAMPLE).to_pylist())


@dataclass(frozen=True)
class IdColumnChoice:
    """The column chosen for one id role, the reader's first pick, and each candidate's share
    of sampled values found in the judgements (0 to 1)."""

    role: str
    chosen: str
    first: str
    shares: Mapping[str, float]

    @property
    def changed(self) -> bool:
        return self.chosen != self.first

    def note(self) -> str:
        """Which column was read for the ids and why, in one clause for the read summary."""
        what = ROLE_WORDS[self.role]
        flag, role = OPTIONS[self.role]
        others = ", ".join(f"{column!r} {_percent(share)}" for column, share in
                           self.shares.items() if column != self.chosen)
        how = (f"name another with {flag} (CLI), columns={{{role!r}: ...}} (library) or "
               "\"Id columns\" (page)")
        if not any(self.shares.values()):
            return (f"{what} from column {self.chosen!r}: no candidate column's values occur "
                    f"in the judgements ({self.chosen!r} 0%, {others}); {how}")
        if self.changed:
            return (f"{what} from column {self.chosen!r}, not {self.first!r}: "
                    f"{_percent(self.shares[self.chosen])} of a sample of {self.chosen!r} "
                    f"occur in the judgements, {others}; {how}")
        return (f"{what} from column {self.chosen!r} ({_percent(self.shares[self.chosen])} of "
                f"a sample occur in the judgements; {others})")


def choose_id_columns(samples: Mapping[str, Mapping[str, tuple[str, ...]]],
                      qrels: Qrels) -> tuple[IdColumnChoice, ...]:
    """For each id role with several candidate columns, the one whose sampled values occur
    most often in ``qrels`` (a tie keeps the reader's first pick)."""
    known = {"doc_id": qrels.docs, "query_id": qrels.queries}
    choices = []
    for role, columns in samples.items():
        if role not in known or not columns:
            continue
        shares = {column: _share(values, known[role]) for column, values in columns.items()}
        first = next(iter(columns))
        best = max(shares, key=lambda column: (shares[column], column == first))
        choices.append(IdColumnChoice(role, best, first, shares))
    return tuple(choices)


def with_id_columns_chosen(read: tuple[Any, ReadSummary], qrels: Qrels,
                           read_again: Callable[[Mapping[str, str]], tuple[Any, ReadSummary]]
                           ) -> tuple[Any, ReadSummary]:
    """A run read as ``read``, or read again (``read_again(columns)``) with the id columns
    whose values occur in ``qrels``; its summary says which columns were used and why."""
    run, summary = read
    choices = choose_id_columns(summary.id_samples, qrels)
    if not choices:
        return read
    if any(choice.changed for choice in choices):
        run, summary = read_again({choice.role: choice.chosen for choice in choices})
    notes = tuple(choice.note() for choice in choices)
    return run, replace(summary, notes=(*notes, *summary.notes), id_samples={})


def _share(values: tuple[str, ...], known: pa.Array) -> float:
    if not values:
        return 0.0
    found = pc.is_in(pa.array(values, pa.string()), value_set=pc.cast(known, pa.string()))
    return int(pc.sum(found).as_py() or 0) / len(values)


def _percent(share: float) -> str:
    if 0 < share < 0.01:
        return "under 1%"
    return f"{share:.0%}"
