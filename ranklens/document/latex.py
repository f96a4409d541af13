"""What ranklens's LaTeX tables share: the ``booktabs`` shell, escaping and the mark.

``booktabs`` answers "these rows as a table a paper can \\input": ``\\toprule``,
``\\midrule``, ``\\bottomrule`` in a ``table`` environment with its caption and label.
The Compare report (``ranklens.compare.latex``), the MDE plan and the PPI analysis
(``ranklens.plan.frame``, ``ranklens.ppi.frame``) write theirs with it. Nothing here computes
or formats a number (``ranklens.formats`` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

MARK = r"\textsuperscript{\dag}"
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}"}


def escape(text: str) -> str:
    """``text`` as LaTeX prints it literally (run, metric and segment names)."""
    return "".join(_SPECIAL.get(char, char) for char in str(text))


def booktabs(header: Sequence[str], rows: Iterable[Sequence[str]], *, align: str,
             caption: str = "", label: str = "",
             footer: Sequence[Sequence[str]] = ()) -> str:
    """A ``table`` environment with a ``booktabs`` tabular: ``header`` and ``rows`` are LaTeX
    already (escape names with `escape`); ``footer`` rows follow a ``\\midrule`` (a macro
    average under its collections)."""
    lines = [r"\begin{table}[t]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{caption}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines += [rf"\begin{{tabular}}{{{align}}}", r"\toprule", " & ".join(header) + r" \\",
              r"\midrule"]
    lines += [" & ".join(row) + r" \\" for row in rows]
    if footer:
        lines += [r"\midrule", *(" & ".join(row) + r" \\" for row in footer)]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def math_text(text: str) -> str:
    """A number written by ``ranklens.formats`` in math mode (its U+2212 minus as ``-``)."""
    return "$" + text.replace("\u2212", "-") + "$"
