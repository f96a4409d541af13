"""The Inputs and Parameters sections: every file read, what its reader made of it, and every
setting.

Answers, for the input records of a result (a compare Report, an MDE pilot, a PPI analysis),
the Inputs section every face draws (`inputs_section`: a line per file in text and Markdown,
a table with the digests in HTML), the same for files a page read (`files_section`), the
Parameters section the HTML files close with (`parameters_section`), one line per file
(`input_lines`), how each was read (`read_as`, the "Read as" column) and the rows a reader set
aside (`set_aside_lines`, among the warnings). Shared by compare, plan and ppi; it reads no
file and formats no number but the counts it names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ranklens.compare.report import InputRecord
from ranklens.document import text as text_writer
from ranklens.document.blocks import FileRow, Files, Parameters, Section
from ranklens.io import InputFile


def inputs_section(records: Sequence[InputRecord]) -> Section:
    """The Inputs section of a result: each file with its size, sha256 and description."""
    return Section("inputs", "Inputs", (Files(_file_rows(records)),))


def _file_rows(records: Sequence[InputRecord]) -> tuple[FileRow, ...]:
    return tuple(FileRow(record.role, record.name, record.size, record.sha256,
                         str(record.summary.get("description") or "")) for record in records)


def files_section(files: Sequence[InputFile], read_as: Mapping[str, str] | None = None,
                  ) -> Section | None:
    """The Inputs section of files a page read, with how each was read (``read_as``: its
    reader's words by role) where known; None without files."""
    if not files:
        return None
    described = read_as or {}
    return Section("inputs", "Inputs", (Files(tuple(
        FileRow(f.role, f.name, len(f.data), f.sha256, described.get(f.role, ""))
        for f in files)),))


def planning_sections(files: Sequence[InputFile], read_as: Mapping[str, str] | None,
                      settings: Mapping[str, Any], version: str) -> list[Section | None]:
    """What a planning page's file (MDE, PPI++) closes with: the files it read
    (`files_section`) and its settings (`parameters_section` titled "Settings")."""
    return [files_section(files, read_as), parameters_section(settings, version, "Settings")]


def parameters_section(values: Mapping[str, Any], version: str, title: str = "Parameters",
                       ) -> Section:
    """Every setting of a result and the ranklens version (drawn by the wide faces only)."""
    return Section("parameters", title, (Parameters(values, version),))


def input_lines(records: Sequence[InputRecord]) -> list[str]:
    """One line per input file: what its reader made of it (rows, queries, rows set aside and
    why), or its size where it was not read by a reader. The Inputs section of every text
    face: ``ranklens compare``, ``mde`` and ``ppi``, and the Markdown report."""
    return [row.line for row in _file_rows(records)]


def read_as(records: Sequence[InputRecord]) -> dict[str, str]:
    """How each input was read, in words, by role: the "Read as" column of the HTML files."""
    return {record.role: str(record.summary["description"]) for record in records
            if record.summary.get("description")}


def inputs_text(records: Sequence[InputRecord]) -> list[str]:
    """The Inputs section as text (`inputs_section` through the text writer): the heading and
    a line per file, indented."""
    return text_writer.section_lines(inputs_section(records))


def set_aside_lines(records: Sequence[InputRecord]) -> list[str]:
    """One line per group of rows a reader set aside, with the file and the reason: what the
    pages and the HTML files show among the warnings."""
    return [f"{record.name}: {item['rows']:,} rows set aside: {item['reason']}"
            for record in records for item in record.summary.get("set_aside", ())]
