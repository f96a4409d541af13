"""Statistics of comparing two runs: is the difference real or is it noise?

Everything here is about one number: the mean over queries of the per-query difference of
one metric, B minus A. `compare` gives the whole verdict for two `MetricResult`s;
`mean_interval` (the interval a comparison shows: the sign-flip interval, the permutation test
inverted; `interval_description` says it in words), `paired_bootstrap`,
`sign_flip_interval`, `permutation_test` (p-value), `paired_t_test`,
`benjamini_hochberg`/`adjust` (many comparisons), `family_test`/`pair_runs` (several
candidates against a baseline, family-wise error held), `leaderboard` (many runs: rank
intervals and tiers from every pair), `discover_slices` (groups of queries where B - A
differs, each half of the queries searching for the other), `minimum_detectable_effect`/
`required_queries`/`power` (how many queries) and `ppi_compare` (proxy judgements corrected
on gold) are its parts. `ranklens.stats.tolerance` holds the one tolerance for "no
difference". numpy, plus scipy.special on first use of a t or normal probability: no pandas,
files or Streamlit.
"""

from ranklens.stats.agreement import (
    AgreementEstimate,
    GradeBias,
    GradeConfusion,
    JudgeAgreement,
    confusion_matrix,
    judge_agreement,
    weighted_kappa,
)
from ranklens.stats.bootstrap import paired_bootstrap, resample_means
from ranklens.stats.compare import compare, effect_size
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning
from ranklens.stats.family import (
    FAMILIES,
    FAMILY_METHODS,
    AlignedRuns,
    Family,
    FamilyMethod,
    FamilyTest,
    comparison_pairs,
    family_test,
    pair_runs,
)
from ranklens.stats.fcr import AdjustedInterval, FCRAdjustment, fcr_adjust, fcr_level
from ranklens.stats.interval import (
    DEFAULT_INTERVAL,
    INTERVAL_METHODS,
    IntervalMethod,
    interval_description,
    interval_label,
    mean_interval,
    p_label,
)
from ranklens.stats.levels import ConfidenceCurve, confidence_curve
from ranklens.stats.macro import CollectionMean, MacroComparison, collection_seed, macro_compare
from ranklens.stats.multiple import (
    ADJUST_METHODS,
    AdjustMethod,
    adjust,
    adjusted_p_values,
    benjamini_hochberg,
    benjamini_yekutieli,
    holm,
    rejected,
)
from ranklens.stats.options import PairedOptions
from ranklens.stats.pairing import (
    MIN_QUERIES,
    MISSING_POLICIES,
    Deltas,
    MissingPolicy,
    paired_deltas,
)
from ranklens.stats.permutation import permutation_test
from ranklens.stats.power import (
    MIN_POWER_QUERIES,
    POWER_METHODS,
    PowerMethod,
    minimum_detectable_effect,
    power,
    required_queries,
    standard_deviation,
)
from ranklens.stats.ppi import MIN_GOLD, PPI_METHODS, ppi_compare
from ranklens.stats.random_effects import (
    NewRunEstimate,
    SystemComponents,
    VarianceComponents,
    new_run_estimate,
    variance_components,
)
from ranklens.stats.ranks import Leaderboard, leaderboard
from ranklens.stats.results import (
    BootstrapInterval,
    ComparisonResult,
    Interval,
    IntervalEstimate,
    MeanDifferenceInterval,
    Outcomes,
    PPIComparison,
    TTest,
)
from ranklens.stats.seed_power import new_run_mde, new_run_variance, seeds_needed
from ranklens.stats.seeds import DroppedQuery, SeedComparison, compare_seeds, new_run_family
from ranklens.stats.sign_flip import sign_flip_interval
from ranklens.stats.slices import Discovery, Slice, discover_slices
from ranklens.stats.tolerance import NO_DIFFERENCE
from ranklens.stats.ttest import paired_t_test

mde = minimum_detectable_effect
"""Short alias of minimum_detectable_effect."""

__all__ = [
    "ADJUST_METHODS",
    "DEFAULT_INTERVAL",
    "FAMILIES",
    "FAMILY_METHODS",
    "INTERVAL_METHODS",
    "MIN_GOLD",
    "MIN_POWER_QUERIES",
    "MIN_QUERIES",
    "MISSING_POLICIES",
    "NO_DIFFERENCE",
    "POWER_METHODS",
    "PPI_METHODS",
    "AdjustMethod",
    "AdjustedInterval",
    "AgreementEstimate",
    "AlignedRuns",
    "BootstrapInterval",
    "CollectionMean",
    "ComparisonResult",
    "ConfidenceCurve",
    "Deltas",
    "Discovery",
    "DroppedQuery",
    "FCRAdjustment",
    "Family",
    "FamilyMethod",
    "FamilyTest",
    "GradeBias",
    "GradeConfusion",
    "InsufficientSampleError",
    "Interval",
    "IntervalEstimate",
    "IntervalMethod",
    "JudgeAgreement",
    "Leaderboard",
    "MacroComparison",
    "MeanDifferenceInterval",
    "MissingPolicy",
    "NewRunEstimate",
    "Outcomes",
    "PPIComparison",
    "PairedOptions",
    "PowerMethod",
    "SeedComparison",
    "Slice",
    "SmallSampleWarning",
    "SystemComponents",
    "TTest",
    "VarianceComponents",
    "adjust",
    "adjusted_p_values",
    "benjamini_hochberg",
    "benjamini_yekutieli",
    "collection_seed",
    "compare",
    "compare_seeds",
    "comparison_pairs",
    "confidence_curve",
    "confusion_matrix",
    "discover_slices",
    "effect_size",
    "family_test",
    "fcr_adjust",
    "fcr_level",
    "holm",
    "interval_description",
    "interval_label",
    "judge_agreement",
    "leaderboard",
    "macro_compare",
    "mde",
    "mean_interval",
    "minimum_detectable_effect",
    "new_run_estimate",
    "new_run_family",
    "new_run_mde",
    "new_run_variance",
    "p_label",
    "pair_runs",
    "paired_bootstrap",
    "paired_deltas",
    "paired_t_test",
    "permutation_test",
    "power",
    "ppi_compare",
    "rejected",
    "required_queries",
    "resample_means",
    "seeds_needed",
    "sign_flip_interval",
    "standard_deviation",
    "variance_components",
    "weighted_kappa",
]
