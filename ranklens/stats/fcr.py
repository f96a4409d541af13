"""Intervals that agree with the q-values: false-coverage-rate adjustment after BH selection.

Over 40 segments a couple of marginal 95% intervals exclude 0 by chance, while the BH
q-values (`ranklens.stats.adjust`) decide discoveries with the false discovery rate held. A
reader looks at the intervals. Benjamini and Yekutieli ("False discovery rate-adjusted
multiple confidence intervals for selected parameters", JASA 100, 2005, 71-81) give the
matching intervals: when BH at level ``alpha`` selects R of m comparisons, report each
selected one at level ``1 - R alpha / m``. Then the false coverage rate, the expected share
of the selected intervals that miss their true difference, is at most ``alpha`` (their
results for independent estimates, such as segments that share no queries, and for
positively regression-dependent ones).

The unselected. BY's procedure makes no statement about them, and a forest plot must draw
something. ranklens draws them at the same level as the selected, ``1 - max(R, 1) alpha / m``
(with no discovery, the level the first discovery would have been shown at: ``1 - alpha / m``,
Bonferroni's). That makes one level for the whole picture, and for an interval that inverts
the test every selected interval excludes 0 and every unselected one contains it: BH selects
exactly the p-values at or below ``R alpha / m``, and every p-value it leaves has
``p > (R + 1) alpha / m``. The unselected intervals carry no coverage claim; they are wider
than the marginal ones and say "not told apart from 0 at this selection".

The default interval (skew-guarded, `ranklens.stats.skew_guard`) inverts the p-value's own
test, so it reads as its q-value does. An interval asked for by name (a bootstrap interval
beside the sign-flip p) is another method and can read differently near the boundary;
`FCRAdjustment.disagreements` names those cases so that a page can say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from ranklens.stats.errors import check_probability
from ranklens.stats.levels import ConfidenceCurve, t_curve
from ranklens.stats.multiple import benjamini_hochberg
from ranklens.stats.notes import Note, emitted
from ranklens.stats.pairing import Deltas
from ranklens.stats.results import ComparisonResult, Interval, at_most

UNSELECTED_RULE = (
    "unselected comparisons are shown at the selected level 1 - max(R, 1) alpha / m (no "
    "coverage claim; for a test-inverting interval they contain 0 exactly when BH did not "
    "select them)"
)


@dataclass(frozen=True)
class AdjustedInterval(Interval):
    """One comparison's interval after selection: the FCR-adjusted one, to show.

    It is the interval of ``estimate`` at ``level`` (``method``: how it was read,
    `ranklens.stats.levels.CURVE_METHODS`); ``marginal`` is the comparison's own
    ``1 - alpha`` interval. ``selected`` says whether BH selected it (q-value at most alpha).
    """

    _: KW_ONLY
    estimate: float
    selected: bool
    p_value: float
    q_value: float
    marginal: Interval

    @property
    def reads_differently(self) -> bool:
        """The interval and the q-value disagree: excludes 0 but not selected, or the reverse."""
        return self.excludes_zero != self.selected


@dataclass(frozen=True)
class FCRAdjustment:
    """The comparisons' intervals adjusted for BH selection at ``alpha`` (module docstring).

    ``intervals`` are in the order of the comparisons. ``level`` is the level of every shown
    interval, ``1 - max(R, 1) alpha / m``; ``rule`` says in words what the unselected get.
    """

    intervals: tuple[AdjustedInterval, ...]
    alpha: float
    n_selected: int
    n_comparisons: int
    level: float
    rule: str = UNSELECTED_RULE

    @property
    def disagreements(self) -> tuple[int, ...]:
        """Positions of the comparisons whose adjusted interval and q-value read differently."""
        return tuple(i for i, item in enumerate(self.intervals) if item.reads_differently)


def fcr_level(n_selected: int, n_comparisons: int, alpha: float) -> float:
    """The level BY give the selected intervals: ``1 - max(R, 1) alpha / m``."""
    check_probability("alpha", alpha)
    if not 0 <= n_selected <= n_comparisons or n_comparisons < 1:
        raise ValueError(f"need 0 <= R <= m and m >= 1, got R={n_selected}, m={n_comparisons}")
    return 1.0 - max(n_selected, 1) * alpha / n_comparisons


def fcr_adjust(
    comparisons: Sequence[ComparisonResult],
    alpha: float | None = None,
    *,
    deltas: Sequence[Sequence[float] | Deltas] | None = None,
    curves: Sequence[ConfidenceCurve] | None = None,
) -> FCRAdjustment:
    """FCR-adjusted intervals of ``comparisons`` after BH selection at ``alpha``.

    BH runs on the comparisons' ``p_value`` at ``alpha`` (default: the comparisons' own
    alpha, which must be one for all). The R selected of m get their interval at level
    ``1 - R alpha / m`` (Benjamini and Yekutieli 2005); the unselected the same level (see
    the module docstring for why). Where the intervals come from, at that level:

    - ``curves`` given (one `ConfidenceCurve` per comparison): read from them, no draws;
    - ``deltas`` given (each comparison's per-query differences): the comparison's own
      interval method, resample count and seed are redrawn once, so the marginal interval
      comes back exactly and the adjusted one is its same-draws sibling;
    - neither (e.g. a report read back): the t-interval from each comparison's t-test.

    It answers "which differences are shown as told apart from 0, with the false coverage
    rate of what is shown held at alpha"; not the family-wise error (`family_test` does that).
    An end that cannot be bounded at the adjusted level is infinite, with a
    `SmallSampleWarning` (`fcr_adjust_with_notes` returns it as a note instead).
    """
    return emitted(fcr_adjust_with_notes(comparisons, alpha, deltas=deltas, curves=curves))


def fcr_adjust_with_notes(
    comparisons: Sequence[ComparisonResult],
    alpha: float | None = None,
    *,
    deltas: Sequence[Sequence[float] | Deltas] | None = None,
    curves: Sequence[ConfidenceCurve] | None = None,
) -> tuple[FCRAdjustment, tuple[Note, ...]]:
    """`fcr_adjust`, with what it would warn (an interval end that cannot be bounded at the
    adjusted level) returned as notes."""
    m = len(comparisons)
    alpha = _common_alpha(comparisons) if alpha is None else alpha
    check_probability("alpha", alpha)
    if m == 0:
        return FCRAdjustment((), alpha, 0, 0, 1.0 - alpha), ()
    chosen = _curves(comparisons, deltas, curves)
    q_values = benjamini_hochberg([comparison.p_value for comparison in comparisons])
    selected = [at_most(q, alpha) for q in q_values]
    adjusted_alpha = max(sum(selected), 1) * alpha / m
    intervals: list[AdjustedInterval] = []
    notes: list[Note] = []
    for comparison, curve, is_selected, q_value in zip(comparisons, chosen, selected, q_values,
                                                       strict=True):
        shown, said = curve.interval_with_notes(adjusted_alpha)
        intervals.append(_adjusted(comparison, shown, is_selected, q_value))
        notes.extend(said)
    return (FCRAdjustment(tuple(intervals), alpha, sum(selected), m, 1.0 - adjusted_alpha),
            tuple(notes))


def _common_alpha(comparisons: Sequence[ComparisonResult]) -> float:
    alphas = {comparison.alpha for comparison in comparisons}
    if len(alphas) > 1:
        raise ValueError(f"the comparisons have different alphas {sorted(alphas)}; pass alpha")
    return alphas.pop() if alphas else 0.05


def _curves(
    comparisons: Sequence[ComparisonResult],
    deltas: Sequence[Sequence[float] | Deltas] | None,
    curves: Sequence[ConfidenceCurve] | None,
) -> list[ConfidenceCurve]:
    if curves is not None and deltas is not None:
        raise ValueError("pass deltas or curves, not both")
    for name, given in (("curves", curves), ("deltas", deltas)):
        if given is not None and len(given) != len(comparisons):
            raise ValueError(
                f"{len(given)} {name} for {len(comparisons)} comparisons: one each is needed"
            )
    if curves is not None:
        return list(curves)
    if deltas is not None:
        return [ConfidenceCurve.for_comparison(c, d) for c, d in zip(comparisons, deltas,
                                                                     strict=True)]
    return [t_curve(comparison) for comparison in comparisons]


def _adjusted(
    comparison: ComparisonResult, shown: Interval, selected: bool, q_value: float
) -> AdjustedInterval:
    return AdjustedInterval(
        shown.low, shown.high, shown.level, shown.method, estimate=comparison.delta,
        selected=selected, p_value=comparison.p_value, q_value=q_value,
        marginal=comparison.interval,
    )
