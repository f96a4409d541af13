"""The seeds section of a report: both answers for systems given as several runs (issue 31).

A report whose systems were trained with several seeds answers two questions, named for what
they answer: *these trained runs* (the report's comparisons, on the per-query mean over each
system's runs) and *a new training run* (`SeedAnswer.comparison.new_run`, whose interval
counts the seed variation too; `ranklens.stats.compare_seeds`). This module holds what the
report stores of the second (its JSON form registered with `ranklens.codec`) and the words
every face shows; ``ranklens.compare.seeds`` computes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranklens import codec
from ranklens.formats import format_delta
from ranklens.stats.seeds import DroppedQuery, SeedComparison

THESE_RUNS = "These trained runs"
NEW_RUN = "A new training run"
THESE_RUNS_QUESTION = "are these trained runs different on this population of queries?"
NEW_RUN_QUESTION = "will a new training run of the candidate's recipe beat the baseline's?"


@dataclass(frozen=True)
class SeedAnswer:
    """Candidate ``candidate`` against the baseline on ``metric``, for systems with seeds.

    ``comparison`` is `compare_seeds` of the two systems' runs (``these_runs``, ``new_run``,
    the variance components, each of B's runs against A's mean); ``seed_names`` names B's
    runs in order. ``adjusted_p`` is the new-run p adjusted for the family of candidates
    (Holm; None for one candidate, or without a new-run answer).
    """

    metric: str
    candidate: int
    comparison: SeedComparison
    seed_names: tuple[str, ...]
    adjusted_p: float | None = None

    @property
    def measured(self) -> bool:
        """Whether the seed variance could be measured (some system has two runs or more)."""
        return self.comparison.new_run is not None


@dataclass(frozen=True)
class SeedsSection:
    """What a report holds of systems given as several runs.

    ``systems`` are the systems' names (the report's ``run_names``), ``runs`` the names of
    each system's runs (files) in order; ``answers`` one `SeedAnswer` per candidate and
    metric; ``family_method`` how the new-run p of several candidates is adjusted.
    """

    systems: tuple[str, ...]
    runs: tuple[tuple[str, ...], ...]
    answers: tuple[SeedAnswer, ...]
    family_method: str = "holm"

    def answer(self, metric: str, candidate: int = 1) -> SeedAnswer:
        for answer in self.answers:
            if answer.metric == metric and answer.candidate == candidate:
                return answer
        raise KeyError(f"no seeds answer for {metric!r} of candidate {candidate}")

    def for_candidate(self, candidate: int) -> SeedsSection:
        """The section of one candidate against the baseline, as its two-run view shows it."""
        return SeedsSection(
            systems=(self.systems[0], self.systems[candidate]),
            runs=(self.runs[0], self.runs[candidate]),
            answers=tuple(SeedAnswer(a.metric, 1, a.comparison, a.seed_names, a.adjusted_p)
                          for a in self.answers if a.candidate == candidate),
            family_method=self.family_method)


def spread(answer: SeedAnswer) -> float:
    """Half the width of the new-run interval: the ± around the difference once the seeds
    count, as the disagreement sentence says it."""
    new_run = answer.comparison.new_run
    assert new_run is not None
    return (new_run.high - new_run.low) / 2.0


def disagreement(answer: SeedAnswer, names: tuple[str, str]) -> str:
    """The sentence when the two answers disagree ("" when they agree or there is no new-run
    answer): these runs differ but a new training run may not, or the reverse."""
    comparison = answer.comparison
    new_run = comparison.new_run
    if new_run is None or not comparison.answers_disagree:
        return ""
    name_a, name_b = names
    delta = comparison.these_runs.delta
    if comparison.these_runs.significant:
        verb = "beat" if delta > 0 else "fall short of"
        return (f"These runs differ; a new training run of {name_b} may not {verb} {name_a}: "
                f"the seed spread is \u00b1{spread(answer):.3f} against a difference of "
                f"{format_delta(delta, 3)}.")
    return (f"These runs do not differ significantly, yet the new-run answer does "
            f"({new_run.estimate:+.3f}, interval {new_run.low:+.3f} to {new_run.high:+.3f}): "
            "read it with care, few seeds estimate the seed spread poorly.")


def not_measured_note(answer: SeedAnswer) -> str:
    """The words for one run per system: the seed variance cannot be measured."""
    return ("One run per system: the seed variance cannot be measured, so only the answer for "
            "these trained runs is shown. Train each system with two or more seeds (three or "
            "more recommended) to ask whether a new training run beats the baseline.")


codec.register(DroppedQuery, codec.Form(order=("query", "missing_from")))
codec.register(SeedAnswer, codec.Form(omit_default=("adjusted_p",)))
