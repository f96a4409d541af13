"""The Compare page's health checks: the compact list before the verdict, the verdict withheld
when a run matches nothing, and the sidebar controls (which id columns, dropping
self-retrieved documents).

Draws what ``ranklens.health`` found (``Report.health``) and collects two choices; it checks
nothing itself. Every user string goes through ``markup.text``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import streamlit as st

from ranklens.app import markup
from ranklens.app.blocks import show_section
from ranklens.compare.report import Report
from ranklens.compare.settings import CompareSettings
from ranklens.health.result import HealthReport
from ranklens.health.section import health_section


def show_health(report: Report) -> None:
    """The health section: each failed check open (what it found, what to do), warnings
    likewise, the passed ones collapsed in one expander. Nothing for older reports."""
    section = health_section(report.health)
    if section is None:
        return
    with st.container(key="health-checks"):
        show_section(section)


def verdict_words(report: Report, first: str, rest: str) -> tuple[str, str]:
    """The verdict's title and sentences, or why there is none (a run matches nothing)."""
    health: HealthReport | None = report.health
    if health is None or not health.withheld:
        return first, rest
    why = health.withheld.removeprefix("No verdict: ")
    return "No verdict", markup.text(why[:1].upper() + why[1:])


def withholds(report: Report) -> bool:
    """Whether the report draws no verdict (then nothing may read as one)."""
    return report.health is not None and bool(report.health.withheld)


def choose_id_columns(key: str = "id_columns") -> dict[str, str] | None:
    """Sidebar: the runs' document and query id columns when the automatic choice is wrong
    (empty: the column whose values occur in the judgements). None when both are empty."""
    with st.sidebar, st.expander("Id columns"):
        doc = st.text_input(
            "Document id column", key=f"{key}:doc_id", placeholder="automatic",
            help="Runs with several id columns (PyTerrier's docid and docno) are read by the "
                 "one whose values occur in the judgements; name another here.").strip()
        query = st.text_input("Query id column", key=f"{key}:query_id",
                              placeholder="automatic").strip()
    columns = {role: name for role, name in (("doc_id", doc), ("query_id", query)) if name}
    return columns or None


def with_health_choices(settings: CompareSettings,
                        columns: Mapping[str, str] | None) -> CompareSettings:
    """``settings`` with the sidebar's health choices: the id columns named (``columns``,
    from `choose_id_columns`) and dropping self-retrieved documents (`choose_self_retrieval`).
    In the settings, a share link keeps them and the report's JSON names them."""
    return dataclasses.replace(settings.with_id_columns(columns),
                               drop_self_retrieval=choose_self_retrieval())


def choose_self_retrieval(key: str = "drop_self_retrieval") -> bool:
    """Sidebar: drop documents whose id is the query's before scoring, as BEIR does."""
    return bool(st.sidebar.checkbox(
        "Drop self-retrieved documents", key=key, value=False,
        help="A document whose id is the query's own (BEIR's ArguAna and Quora hold the "
             "queries as documents) is dropped before scoring, as BEIR does. Off by default: "
             "the health checks count them."))
