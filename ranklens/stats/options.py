"""The options of one paired comparison, declared once and validated when made.

`PairedOptions` is what `ranklens.stats.compare` is asked for beyond the two results: the
level, the numbers of resamples and permutations, the seed, what happens to a query measured
in one run only, which interval and below how many queries a sample counts as small. The
feature layer composes it (``ranklens.compare.segments.SegmentOptions``,
``ranklens.compare.family.FamilyOptions``, ``ranklens.compare.analysis.CompareSettings``)
instead of passing the seven keywords along; the functions of ``ranklens.stats`` keep their
keywords too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ranklens.stats.errors import check_probability
from ranklens.stats.interval import DEFAULT_INTERVAL, IntervalMethod, check_interval
from ranklens.stats.pairing import MIN_QUERIES, MissingPolicy, check_missing
from ranklens.stats.results import Seed


@dataclass(frozen=True)
class PairedOptions:
    """How one paired comparison is computed (see `ranklens.stats.compare` for each option).

    Raises ``ValueError`` when made with an alpha outside (0, 1), an unknown ``missing``
    policy or ``interval`` method: an option is checked once, where it enters.
    """

    alpha: float = 0.05
    n_resamples: int = 10_000
    n_permutations: int = 10_000
    seed: Seed = 0
    missing: MissingPolicy = "drop"
    interval: IntervalMethod = DEFAULT_INTERVAL
    min_queries: int = MIN_QUERIES

    def __post_init__(self) -> None:
        check_probability("alpha", self.alpha)
        check_missing(self.missing)
        check_interval(self.interval)

    def seeded(self, seed: Seed) -> PairedOptions:
        """The same options drawing from another random stream (a segment's, a pair's)."""
        return dataclasses.replace(self, seed=seed)
