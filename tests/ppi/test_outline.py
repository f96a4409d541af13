"""The outline of a PPI++ report (``ranklens.ppi.outline``): ``ranklens ppi``'s text and the
HTML export show the sections in its one order, the warnings before the estimates' detail
and the inputs last."""

from __future__ import annotations

import dataclasses

import pytest

from ranklens.ppi import html as html_ppi
from ranklens.ppi.analysis import PPIAnalysis, analyse_ppi
from ranklens.ppi.export import ppi_export
from ranklens.ppi.outline import SECTIONS
from ranklens.ppi.settings import PPISettings
from ranklens.ppi.text import render_ppi
from tests.support.share_helpers import ppi_files

WARNING = "A warning the reader must see before the details."


@pytest.fixture(scope="module")
def analysis() -> PPIAnalysis:
    found = analyse_ppi(*ppi_files(), "nDCG@10", alpha=0.05)
    return dataclasses.replace(found, warnings=(*found.warnings, WARNING))


def _in_order(drawn: str, marks: list[str]) -> None:
    positions = [drawn.index(mark) for mark in marks]
    assert positions == sorted(positions), marks


def test_the_outline_names_each_section_once_the_inputs_last() -> None:
    assert len(set(SECTIONS)) == len(SECTIONS)
    assert SECTIONS[:2] == ("verdict", "warnings") and SECTIONS[-1] == "inputs"


def test_the_text_shows_the_warnings_and_the_assumption_before_the_inputs(
        analysis: PPIAnalysis) -> None:
    _in_order(render_ppi(analysis), ["proxy judgements corrected", "Warnings:", WARNING,
                                     "Assumption:", "Inputs:"])


def test_the_html_export_follows_the_same_order(analysis: PPIAnalysis) -> None:
    export = ppi_export(analysis, PPISettings(metric="nDCG@10", alpha=0.05, order="score"),
                        ppi_files())
    drawn = html_ppi.render(export)
    _in_order(drawn, ['<section id="verdict"', WARNING, '<section id="notes"',
                      '<section id="estimates"', '<section id="budget"',
                      '<section id="inputs"'])
