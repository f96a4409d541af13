"""A leaderboard written in one format: the one place the CLI and the page turn a
`LeaderboardReport` into text, Markdown, JSON, LaTeX or an HTML export.

`leaderboard_document` answers "the board as a file": the sections of
``ranklens.compare.sections.leaderboard`` through the document writers (text, Markdown, HTML),
the booktabs tables of ``leaderboard_latex``, or the report's JSON. The HTML export adds the
rank-interval chart as inline SVG (no network references). It computes nothing.
"""

from __future__ import annotations

from ranklens.compare.leaderboard import LeaderboardReport

LEADERBOARD_FORMATS = ("text", "markdown", "json", "latex", "html")


def leaderboard_document(report: LeaderboardReport, form: str) -> str:
    """``report`` in ``form`` (one of `LEADERBOARD_FORMATS`), ending with a line break; the
    warnings (queries left out) close the text and Markdown forms."""
    if form not in LEADERBOARD_FORMATS:
        raise ValueError(f"a leaderboard is written as {', '.join(LEADERBOARD_FORMATS)}, "
                         f"not {form!r}")
    if form == "json":
        return report.to_json() + "\n"
    if form == "latex":
        from ranklens.compare.leaderboard_latex import leaderboard_latex

        return leaderboard_latex(report)
    if form == "html":
        return _html(report)
    from ranklens.compare.sections.leaderboard import leaderboard_sections
    from ranklens.document import markdown as markdown_writer
    from ranklens.document import text as text_writer

    writer = markdown_writer if form == "markdown" else text_writer
    warnings = [f"warning: {w}" for w in report.warnings]
    return "\n".join(line for s in leaderboard_sections(report)
                     for line in (*writer.section_lines(s), "")) + "\n".join(warnings) + "\n"


def _html_parts(report: LeaderboardReport) -> list[str]:
    """The sections as HTML (charts as SVG), then the warnings."""
    from ranklens.compare.sections.leaderboard import leaderboard_sections
    from ranklens.document import html_shell
    from ranklens.document.html import section_html

    warnings = "".join(f"<p class=\"warning\">{html_shell.text(w)}</p>"
                       for w in report.warnings)
    return [*(section_html(s) for s in leaderboard_sections(report)), warnings]


def notebook_html(report: LeaderboardReport) -> str:
    """The board as a notebook shows it (`LeaderboardReport._repr_html_`): the export's
    sections and charts, without the page around them."""
    return "".join(_html_parts(report))


def _html(report: LeaderboardReport) -> str:
    from ranklens.document import html_shell

    return html_shell.document(
        title="ranklens leaderboard", heading="Leaderboard",
        subtitle=f"{len(report.run_names)} runs", version=report.version,
        sections=_html_parts(report), footer="Made with ranklens.",
        json_id="ranklens-leaderboard", json_text=report.to_json(indent=None))


__all__ = ["LEADERBOARD_FORMATS", "leaderboard_document", "notebook_html"]
