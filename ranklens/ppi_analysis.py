"""Proxy judgements checked on a gold sample: PPI++ beside the estimates it improves on.

``analyse_ppi`` answers "my labels are cheap (an LLM, one assessor); what does a small gold
sample say about B - A?" with four estimates of the same difference side by side:

- PPI++ (the proxy weight estimated from the data, ``ranklens.stats.ppi_compare``),
- classic PPI (weight 1), gold only (weight 0),
- the proxy without correction (a paired t-test on the proxy differences of all queries),
  whose gap to PPI++ is the proxy's bias on this difference.

It scores the runs and calls the statistics; it draws and prints nothing.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ranklens import io
from ranklens.analysis import InputFile
from ranklens.analysis import _stem as file_stem  # the run names compare shows
from ranklens.metric_result import MetricResult
from ranklens.metrics import evaluate, parse_metric
from ranklens.stats import PPIComparison, paired_deltas, paired_t_test, ppi_compare


@dataclass(frozen=True)
class Estimate:
    """One estimate of B - A: ``key`` (ppi++, ppi, gold, proxy), a label and the numbers."""

    key: str
    label: str
    result: PPIComparison


@dataclass(frozen=True)
class PPIAnalysis:
    """The four estimates of one metric, PPI++ first, and the warnings in words."""

    metric: str
    run_names: tuple[str, str]
    estimates: tuple[Estimate, ...]
    warnings: tuple[str, ...] = ()

    def estimate(self, key: str) -> Estimate:
        for item in self.estimates:
            if item.key == key:
                return item
        raise KeyError(f"no estimate {key!r}")


def proxy_only(proxy_a: MetricResult, proxy_b: MetricResult, *, alpha: float) -> PPIComparison:
    """The proxy difference taken at face value: paired t-test over every query it measures."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        queries, deltas = paired_deltas(proxy_a.per_query, proxy_b.per_query, min_queries=2)
    test = paired_t_test(deltas, alpha=alpha)
    mean_a = sum(proxy_a.per_query[q] for q in queries) / len(queries)
    return PPIComparison(proxy_a.metric, mean_a, mean_a + test.delta, test.delta, test.low,
                         test.high, alpha, test.p_value, lam=1.0, n_proxy=len(queries),
                         n_gold=0)


def compare_ppi(
    proxy_a: MetricResult, proxy_b: MetricResult, gold_a: MetricResult, gold_b: MetricResult,
    *, run_names: tuple[str, str] = ("A", "B"), alpha: float = 0.05,
) -> PPIAnalysis:
    """The four estimates of B - A from per-query values under proxy and gold judgements."""
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimates = (
            Estimate("ppi++", "PPI++ (weight from the data)",
                     ppi_compare(proxy_a, proxy_b, gold_a, gold_b, alpha=alpha)),
            Estimate("ppi", "classic PPI (weight 1)",
                     ppi_compare(proxy_a, proxy_b, gold_a, gold_b, lam=1.0, alpha=alpha)),
            Estimate("gold", "gold only (weight 0)",
                     ppi_compare(proxy_a, proxy_b, gold_a, gold_b, lam=0.0, alpha=alpha)),
            Estimate("proxy", "proxy, uncorrected", proxy_only(proxy_a, proxy_b, alpha=alpha)),
        )
    messages.extend(str(w.message) for w in caught)
    messages.append("The correction is unbiased only if the gold queries are a random sample "
                    "of all queries.")
    return PPIAnalysis(proxy_a.metric, run_names, estimates, tuple(dict.fromkeys(messages)))


def analyse_ppi(
    run_a: InputFile, run_b: InputFile, proxy_qrels: InputFile, gold_qrels: InputFile,
    metric: str, *, alpha: float = 0.05, run_names: tuple[str, str] | None = None,
) -> PPIAnalysis:
    """Read both runs and both judgement sets, score ``metric`` four ways, compare (PPI++).

    Every problem with a file is an ``io.InputError``; an unknown metric a ``ValueError``.
    """
    name = parse_metric(metric).name
    run_a_read, _ = io.read_run(run_a.data, name=run_a.name)
    run_b_read, _ = io.read_run(run_b.data, name=run_b.name)
    proxy, _ = io.read_qrels(proxy_qrels.data, name=proxy_qrels.name)
    gold, _ = io.read_qrels(gold_qrels.data, name=gold_qrels.name)
    scored = [evaluate(run, qrels, [name])[name]
              for qrels in (proxy, gold) for run in (run_a_read, run_b_read)]
    names = run_names or (file_stem(run_a.name), file_stem(run_b.name))
    return compare_ppi(*scored, run_names=names, alpha=alpha)
