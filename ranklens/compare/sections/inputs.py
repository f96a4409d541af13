"""The Inputs section's words: every file read and what its reader made of it.

Answers, for the input records of a result (a compare Report, an MDE pilot, a PPI analysis),
one line per file (`input_lines`, the text and Markdown faces' Inputs), how each was read
(`read_as`, the HTML files' "Read as" column) and the rows a reader set aside (`set_aside_lines`,
among the warnings). Shared by compare, plan and ppi; it reads no file and formats no number
but the counts it names.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.compare.report import InputRecord


def input_lines(records: Sequence[InputRecord]) -> list[str]:
    """One line per input file: what its reader made of it (rows, queries, rows set aside and
    why), or its size where it was not read by a reader. The Inputs section of every text
    face: ``ranklens compare``, ``mde`` and ``ppi``, and the Markdown report."""
    return [str(record.summary.get("description") or f"{record.name}: {record.size:,} bytes")
            for record in records]


def read_as(records: Sequence[InputRecord]) -> dict[str, str]:
    """How each input was read, in words, by role: the "Read as" column of the HTML files."""
    return {record.role: str(record.summary["description"]) for record in records
            if record.summary.get("description")}


def inputs_text(records: Sequence[InputRecord]) -> list[str]:
    """The Inputs section of the text faces: the heading and `input_lines`, indented."""
    return ["Inputs:", *(f"  {line}" for line in input_lines(records))]


def set_aside_lines(records: Sequence[InputRecord]) -> list[str]:
    """One line per group of rows a reader set aside, with the file and the reason: what the
    pages and the HTML files show among the warnings."""
    return [f"{record.name}: {item['rows']:,} rows set aside: {item['reason']}"
            for record in records for item in record.summary.get("set_aside", ())]
