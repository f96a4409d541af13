"""A PPI++ analysis as a table: ``PPIAnalysis.to_frame()`` and ``PPIAnalysis.to_latex()``.

Answers "the four estimates of B - A side by side": PPI++ (weight from the data), classic PPI,
gold only and the proxy at face value, each with its interval, p, the weight lambda, the
queries it was measured on and how its interval was computed. Numbers as the analysis holds
them in the frame, written by ``ranklens.formats`` in the LaTeX table.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ranklens.document.latex import booktabs, escape, math_text
from ranklens.formats import format_delta, format_interval, format_p, level_number

if TYPE_CHECKING:
    import pandas as pd

    from ranklens.ppi.analysis import PPIAnalysis

COLUMNS = ("estimate", "label", "metric", "mean_a", "mean_b", "delta", "ci_low", "ci_high",
           "alpha", "p_value", "lam", "n_gold", "n_proxy", "df", "method")


def ppi_frame(analysis: PPIAnalysis) -> pd.DataFrame:
    """One row per estimate (``estimate`` is its key: ppi++, ppi, gold, proxy) with the
    fields of its ``PPIComparison`` (``df`` inf for a normal interval)."""
    import pandas as pd

    rows = []
    for item in analysis.estimates:
        result = item.result
        rows.append({"estimate": item.key, "label": item.label, "metric": result.metric,
                     "mean_a": result.mean_a, "mean_b": result.mean_b, "delta": result.delta,
                     "ci_low": result.ci_low, "ci_high": result.ci_high, "alpha": result.alpha,
                     "p_value": result.p_value, "lam": result.lam, "n_gold": result.n_gold,
                     "n_proxy": result.n_proxy, "df": result.df, "method": result.method})
    return pd.DataFrame(rows, columns=list(COLUMNS))


def ppi_latex(analysis: PPIAnalysis, *, caption: str | None = None, label: str = "") -> str:
    """The four estimates as a booktabs table: difference, interval, p, lambda, queries."""
    alpha = analysis.estimates[0].result.alpha if analysis.estimates else 0.05
    level = level_number(1 - alpha)
    header = ["Estimate", r"$\Delta$", f"{level}\\% CI", "$p$", r"$\lambda$", "Gold",
              "Proxy"]
    rows = []
    for item in analysis.estimates:
        result = item.result
        interval = format_interval(result.ci_low, result.ci_high).replace(" to ", ", ")
        rows.append([escape(item.label), math_text(format_delta(result.delta)),
                     "$[" + math_text(interval)[1:-1] + "]$", math_text(format_p(result.p_value)),
                     "" if math.isnan(result.lam) else f"${result.lam:.2f}$",
                     f"{result.n_gold:,}".replace(",", "{,}"),
                     f"{result.n_proxy:,}".replace(",", "{,}")])
    name_a, name_b = (escape(name) for name in analysis.run_names)
    text = caption if caption is not None else (
        f"{name_b} against {name_a} on {escape(analysis.metric)}: cheap (proxy) judgements "
        f"corrected on a random gold sample (PPI++), beside classic PPI, gold only and the "
        f"proxy at face value; {level}\\% intervals.")
    return booktabs(header, rows, align="lrlrrrr", caption=text, label=label)
