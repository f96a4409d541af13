"""The settings of a comparison report: every parameter, flat as reports and links store them.

``CompareSettings`` checks its choices when made and hands out the statistics' part as the
options of ``ranklens.stats`` and ``ranklens.compare`` (`PairedOptions`, `SegmentOptions`,
`FamilyOptions`); `settings_dict` is the form a report's ``params`` take.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ranklens.compare import coverage as cov
from ranklens.compare.coverage import Treatment
from ranklens.compare.family import FamilyOptions, QFamily
from ranklens.compare.segments import SegmentOptions
from ranklens.metrics import parse_metric
from ranklens.metrics.ordering import ORDERS, Order
from ranklens.page_settings import refuse_unknown
from ranklens.stats import (
    AdjustMethod,
    Family,
    FamilyMethod,
    IntervalMethod,
    MissingPolicy,
    PairedOptions,
)

DEFAULT_METRICS = ("nDCG@10",)

_STATISTICS = PairedOptions()
_SEGMENTS = SegmentOptions()
_FAMILY = FamilyOptions()


@dataclass(frozen=True)
class CompareSettings:
    """Every parameter of a comparison report, with the defaults a first visit uses.

    Flat, as reports and share links store them; the statistics' part is `paired_options`,
    `segment_options` and `family_options` (the options of ``ranklens.stats`` and
    ``ranklens.compare``, whose defaults these are). Every choice is checked when the settings
    are made (``ValueError`` naming the setting and its choices).

    ``unjudged`` is how documents without a judgement are scored: ``"nonrelevant"``
    (trec_eval's default), ``"judged-only"`` (removed from the rankings, trec_eval -J) or
    ``"proxy"`` (labelled by the proxy judgements given with the inputs).
    """

    metrics: tuple[str, ...] = DEFAULT_METRICS
    segment_column: str | None = None
    alpha: float = _STATISTICS.alpha
    n_resamples: int = _STATISTICS.n_resamples
    n_permutations: int = _STATISTICS.n_permutations
    seed: int = 0
    missing: MissingPolicy = _STATISTICS.missing
    interval: IntervalMethod = _STATISTICS.interval
    adjust_method: AdjustMethod = _SEGMENTS.adjust_method
    order: Order = "score"
    gain: str = "linear"
    relevance_level: int = 1
    min_queries: int = _STATISTICS.min_queries
    run_names: tuple[str, ...] | None = None
    unjudged: Treatment = "nonrelevant"
    # several candidates: which comparisons form the family, how p is adjusted for it, and
    # which segment rows share q-values (see ranklens.compare.family)
    family: Family = _FAMILY.family
    family_method: FamilyMethod = _FAMILY.method
    q_family: QFamily = _FAMILY.q_family
    # drop documents whose id is the query's before scoring, as BEIR does (ranklens.health)
    drop_self_retrieval: bool = False
    # the runs' id columns when named (else the one whose values occur in the judgements,
    # ranklens.io.id_columns): which column is read decides every number
    doc_column: str | None = None
    query_column: str | None = None
    # systems given as several runs (training seeds): how many of the runs, in order, each
    # system has (``run_names`` then names the systems); see ranklens.compare.seeds
    seed_runs: tuple[int, ...] | None = None
    # the segment column that names each query's test collection (ranklens.compare.macro)
    collection_column: str | None = None

    def __post_init__(self) -> None:
        self.family_options()  # checks the statistics' options and the family's
        if self.seed_runs is not None and (len(self.seed_runs) < 2 or min(self.seed_runs) < 1):
            raise ValueError("seed_runs must give at least two systems with one or more runs "
                             f"each, got {self.seed_runs!r}")
        for name, value, choices in (("order", self.order, ORDERS),
                                     ("unjudged", self.unjudged, cov.TREATMENTS)):
            if value not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {value!r}")
        for name, column in (("doc_column", self.doc_column),
                             ("query_column", self.query_column)):
            if column is not None and (not isinstance(column, str) or not column.strip()):
                raise ValueError(f"{name} must name a column (a non-empty text) or be None, "
                                 f"got {column!r}")

    def id_columns(self) -> dict[str, str] | None:
        """The runs' id columns named, as ``load_inputs(columns=...)`` takes them (None when
        neither is: each run's is chosen by the judgements)."""
        named = {role: column for role, column in (("doc_id", self.doc_column),
                                                   ("query_id", self.query_column)) if column}
        return named or None

    def with_id_columns(self, columns: Mapping[str, str] | None) -> CompareSettings:
        """These settings with the id columns of ``columns`` (``{"doc_id": "docno"}``, the
        form ``load_inputs`` takes) named; other roles in it are not id columns: ignored."""
        columns = columns or {}
        return dataclasses.replace(self, doc_column=columns.get("doc_id"),
                                   query_column=columns.get("query_id"))

    def paired_options(self) -> PairedOptions:
        """The options of each paired comparison (`ranklens.stats.compare`)."""
        return PairedOptions(alpha=self.alpha, n_resamples=self.n_resamples,
                             n_permutations=self.n_permutations, seed=self.seed,
                             missing=self.missing, interval=self.interval,
                             min_queries=self.min_queries)

    def segment_options(self) -> SegmentOptions:
        """The options of a two-run comparison by segment (`compare_metrics`)."""
        return SegmentOptions(self.paired_options(), self.adjust_method, self.segment_column)

    def family_options(self) -> FamilyOptions:
        """The options of several candidates against the baseline (`compare_runs`)."""
        return FamilyOptions(self.segment_options(), self.family, self.family_method,
                             self.q_family)

    def canonical(self) -> CompareSettings:
        """Same settings with metric names in canonical form and duplicates removed."""
        names = tuple(dict.fromkeys(parse_metric(m).name for m in self.metrics))
        return dataclasses.replace(self, metrics=names)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as plain JSON (tuples become lists): what reports and links store."""
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in asdict(self).items()
                if key != "seed_runs" or value is not None}  # as before seeds, when unused

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, written_by: str = "this") -> CompareSettings:
        """Settings back from `to_dict`'s form (lists back to tuples).

        Raises ``ValueError`` naming the settings this version does not know (``written_by``
        says which ranklens wrote them): applying only the known ones would give other numbers
        than the writer saw.
        """
        refuse_unknown(data, {f.name for f in dataclasses.fields(cls)}, written_by=written_by)
        tuples = {"metrics", "run_names", "seed_runs"}
        values: dict[str, Any] = {
            key: tuple(value) if key in tuples and isinstance(value, list) else value
            for key, value in data.items()}
        return cls(**values)


_MULTI_RUN_SETTINGS = ("family", "family_method", "q_family")
"""Settings that mean something only with several candidates (left out of two-run params)."""


def settings_dict(settings: CompareSettings, run_names: Sequence[str]) -> dict[str, Any]:
    """The settings as a report's ``params`` hold them, with the run names shown."""
    data = dataclasses.replace(settings, run_names=tuple(run_names)).to_dict()
    if len(run_names) == 2:  # a two-run report's parameters stay as they always were
        for name in _MULTI_RUN_SETTINGS:
            data.pop(name)
    if not settings.drop_self_retrieval:  # written only when asked: older reports read alike
        data.pop("drop_self_retrieval")
    if settings.collection_column is None:  # the same
        data.pop("collection_column")
    for name in ("doc_column", "query_column"):  # likewise: only when named
        if data[name] is None:
            data.pop(name)
    return data
