"""The numbers one report prints agree across its faces (issue 46's "Done when").

The pinned outputs (``tests/golden/pinned``; ``tests/pinned`` checks they are what the CLI
prints today) of five demo reports — two runs with segments, three runs, seeds, collections,
coverage — are read as a reader would: every decimal number (a mean, B − A, an interval's
end, a lift, a p or q, a level) in the text, in the Markdown and in the visible text of the
HTML export. Text and Markdown draw the same columns and sentences, so they print the same
numbers as often; the HTML export draws those and its detail columns, so it prints each of
them and more.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pinned"
NUMBER = re.compile(r"(?<![\w.])[+\u2212-]?\d+\.\d+%?")
CASES = ("compare-two", "compare-three", "compare-seeds", "compare-macro", "compare-coverage")


def numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


def visible(document: str) -> str:
    """The text a browser shows of an HTML export: no script (the embedded JSON), style or
    SVG (a chart's own tick labels), no tags."""
    for element in ("script", "style", "svg"):
        document = re.sub(rf"<{element}\b.*?</{element}>", " ", document, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", document))


@pytest.mark.parametrize("case", CASES)
def test_text_markdown_and_html_print_the_same_numbers(case: str) -> None:
    text = numbers((GOLDEN / f"{case}.txt").read_text(encoding="utf-8"))
    markdown = numbers((GOLDEN / f"{case}.md").read_text(encoding="utf-8"))
    shown = numbers(visible((GOLDEN / f"{case}.html").read_text(encoding="utf-8")))
    assert sum(text.values()) > 20  # a report, not an empty file
    assert text == markdown
    assert set(text) <= set(shown), sorted(set(text) - set(shown))


def test_a_number_that_differs_between_faces_is_caught() -> None:
    text = (GOLDEN / "compare-two.txt").read_text(encoding="utf-8")
    markdown = (GOLDEN / "compare-two.md").read_text(encoding="utf-8")
    assert numbers(text) == numbers(markdown)
    assert numbers(text) != numbers(markdown.replace("+0.0300", "+0.0301", 1))
