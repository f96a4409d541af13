"""An MDE plan as plain JSON: what the HTML file embeds, a share link stores and the CLI prints.

``payload(export)`` answers "the page's plan as one JSON object" (kind ``mde``, `SCHEMA`):
settings, spread, the plan with every row, the other method's MDE, the headline cards, the
inputs and the curves' points. ``result_payload(plan, pilot)`` is its numbers (spread and
plan), which is also what ``ranklens mde --format json`` writes, so the CLI's JSON and the
page's stored plan have one shape. ``export_from_payload`` reads a payload back, numbers as
stored. Non-finite numbers go through ``ranklens.codec`` (null, named in words under
``"non_finite"``); payloads written before it (no ``schema``, NaN already null) still read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ranklens import codec, formats
from ranklens._lazy import installed_version
from ranklens.document import html_shell as html_common
from ranklens.io import InputFile
from ranklens.plan import views as plan_views
from ranklens.plan.analysis import NO_SPREAD_SD, Pilot, PlanRow, QueryPlan
from ranklens.plan.settings import PlanSettings

SCHEMA = 1
"""Version 1 (issue 26): the payload of 0.x with a ``schema`` key and non-finite numbers
named under ``"non_finite"``. Payloads without ``schema`` are read as version 1."""


@dataclass(frozen=True)
class MdeExport:
    """What the MDE page shows, as the page computed it.

    ``plan`` has the MDE at ``plan.n_queries`` and a row for ``target``; ``other_mde`` is the
    MDE under the other method; ``pilot`` is where the spread was measured (None: typed in).
    ``settings`` are the page's settings (what its share link stores), ``inputs`` the files the
    spread was measured on. The curves are None when the differences have no spread.
    """

    plan: QueryPlan
    target: float
    other_mde: float
    pilot: Pilot | None
    settings: PlanSettings
    inputs: tuple[InputFile, ...] = ()
    mde_curve: pd.DataFrame | None = None
    power_curve: pd.DataFrame | None = None
    version: str = field(default_factory=installed_version)

    @property
    def target_row(self) -> PlanRow:
        return next(row for row in self.plan.rows if row.delta == self.target)


_HEAD = ("kind", "schema", "ranklens_version")


def result_payload(plan: QueryPlan, pilot: Pilot | None,
                   version: str | None = None) -> dict[str, Any]:
    """The plan's numbers as the page stores them: ``kind``, ``schema``, ``ranklens_version``,
    ``spread`` (the sd and the pilot it was measured on, None when typed in) and ``plan``
    (every field and row). It is what ``ranklens mde --format json`` writes; `payload` adds
    the page's settings, target, headline, inputs and curves around the same keys. Plain
    values, non-finite numbers still in place (`ranklens.codec.encode` names them)."""
    return {"kind": "mde", "schema": SCHEMA, "ranklens_version": version or installed_version(),
            "spread": {"sd": plan.sd, "pilot": codec.plain(pilot)}, "plan": codec.plain(plan)}


def _payload(export: MdeExport) -> dict[str, Any]:
    plan = export.plan
    result = result_payload(plan, export.pilot, export.version)
    curves = {name: None if frame is None else codec.plain(frame.to_dict("list"))
              for name, frame in (("mde", export.mde_curve), ("power", export.power_curve))}
    return codec.encode({
        **{key: result[key] for key in _HEAD},
        "settings": codec.plain(export.settings.to_dict()),
        "spread": result["spread"],
        "plan": result["plan"],
        "target": export.target,
        "other_method": {"method": plan_views.other_method(plan.method),
                         "mde": export.other_mde},
        "headline": [] if plan.sd < NO_SPREAD_SD else [
            formats.card_dict(card)
            for card in plan_views.mde_cards(plan, export.target_row, export.other_mde)],
        "inputs": html_common.files_json(export.inputs),
        "curves": curves,
    })


def payload(export: MdeExport) -> dict[str, Any]:
    """The plan as plain JSON: what the HTML file embeds and what a share link stores."""
    return _payload(export)


def export_from_payload(data: Mapping[str, Any],
                        inputs: tuple[InputFile, ...] = ()) -> MdeExport:
    """The ``MdeExport`` a `payload` was made from, numbers as stored (nothing recomputed).

    ``inputs`` are the files (a payload lists only their names and digests). Raises
    ``ValueError`` for a payload of another kind or shape, or settings this version does not
    know (stored by another version).
    """
    codec.check_kind(data, "mde", SCHEMA, "an MDE result")
    try:
        data = codec.decode(data)
        spread, curves = data["spread"], data["curves"]
        frames = {name: None if curves.get(name) is None else pd.DataFrame(curves[name])
                  for name in ("mde", "power")}
        return MdeExport(
            plan=codec.rebuild(QueryPlan, data["plan"]),
            target=float(data["target"]),
            other_mde=float(data["other_method"]["mde"]),
            pilot=None if spread.get("pilot") is None else codec.rebuild(Pilot, spread["pilot"]),
            settings=PlanSettings.from_dict(data["settings"],
                                           written_by=str(data["ranklens_version"])),
            inputs=inputs,
            mde_curve=frames["mde"], power_curve=frames["power"],
            version=str(data["ranklens_version"]))
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"the MDE result lacks {error}") from None
