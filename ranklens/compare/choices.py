"""Which metrics and which segment column a comparison uses, when the caller named some or none.

``metrics_to_score`` answers it for runs (the names asked, default nDCG@10, each checked before
a file is read); ``metrics_to_compare`` for loaded inputs (per-query tables: each name matched
to the tables' own column, exactly or by meaning, default every metric both tables have);
``segment_column`` picks the segment map's column. The one home of these choices for the CLI
and ``ranklens.compare_runs``; ``ValueError`` in words for a name that is not there.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.compare.analysis import DEFAULT_METRICS, LoadedInputs
from ranklens.metrics import parse_metric


def metrics_to_score(asked: Sequence[str] | None) -> tuple[str, ...]:
    """Metrics to score runs on: the names asked (default nDCG@10), each checked now, before
    any file is read."""
    names = tuple(asked) if asked else DEFAULT_METRICS
    for name in names:
        parse_metric(name)  # an unknown name fails here
    return names


def metrics_to_compare(inputs: LoadedInputs, asked: Sequence[str] | None) -> tuple[str, ...]:
    """Metrics to compare. Runs: the names asked (default nDCG@10). Per-query tables: each
    name matched to the tables' own column, exactly or by meaning (ndcg_cut_10 = nDCG@10);
    default every metric both tables have."""
    available = inputs.available_metrics
    if available is None:
        return metrics_to_score(asked)
    if not available:
        common_columns((inputs.file_name("run_a"), list(inputs.tables_a or ())),
                       (inputs.file_name("run_b"), list(inputs.tables_b or ())))
    if not asked:
        return available
    return tuple(_table_metric(name, available) for name in asked)


def common_columns(first: tuple[str, Sequence[str]], second: tuple[str, Sequence[str]]
                   ) -> list[str]:
    """The metric columns two per-query tables share, in the first table's order.

    ``first`` and ``second`` are (file name, its columns); none in common is a ``ValueError``
    naming both files, their columns and the fix.
    """
    (name_a, columns_a), (name_b, columns_b) = first, second
    common = [name for name in columns_a if name in columns_b]
    if not common:
        raise ValueError(
            f"{name_a} and {name_b} share no metric column: {name_a} has "
            f"{', '.join(columns_a) or 'none'}, {name_b} has {', '.join(columns_b) or 'none'}. "
            "Give the same metric the same column name in both tables (e.g. ndcg_cut_10 in "
            "each), or put both runs in one table and pick its two columns.")
    return common


def segment_column(inputs: LoadedInputs, file_name: str, column: str | None,
                   example: str = "--segments {file}:{column}") -> str:
    """The segment column to compare by: ``column`` when the segment map has it, else the
    map's only one. ``example`` words the way to pick one (the CLI's ``FILE:COLUMN``)."""
    columns = inputs.segment_columns
    if column is not None:
        if column not in columns:
            raise ValueError(f"{file_name} has no segment column {column!r}; its "
                             f"columns: {', '.join(columns)}")
        return column
    if len(columns) == 1:
        return columns[0]
    raise ValueError(f"{file_name} has {len(columns)} segment columns ({', '.join(columns)}): "
                     f"pick one, e.g. {example.format(file=file_name, column=columns[0])}")


def _table_metric(name: str, available: Sequence[str]) -> str:
    if name in available:
        return name
    wanted = _canonical(name)
    matches = [a for a in available if wanted is not None and _canonical(a) == wanted]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"the per-query tables have no metric {name!r}; they have "
                     f"{', '.join(available)}")


def _canonical(name: str) -> str | None:
    try:
        return parse_metric(name).name
    except ValueError:
        return None
