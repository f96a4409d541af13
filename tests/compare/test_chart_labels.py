"""Chart labels do not collide: the chosen point's label keeps clear of the target rules.

Rendered to SVG as the HTML export renders it (vl-convert), then measured: every target rule
runs the chart's full width, so a rule closer to the label's middle line than half the label's
height (plus a pixel) would cross its letters; the target rules' own labels (at the left edge)
must not overlap it either.
"""

from __future__ import annotations

import math
import re

import pytest
import vl_convert

from ranklens.plan import analysis as planning
from ranklens.plan.charts import LABEL_ABOVE, LABEL_BELOW, mde_chart, point_label_offset

FONT_POINT, FONT_TARGET = 12.0, 11.0
Z_SUM = 2.8016  # z(0.975) + z(0.8)


def drawn(sd: float, n_queries: int) -> tuple[list[float], list[tuple[float, float, str]],
                                               tuple[float, float, str]]:
    """Rule heights, target labels (x, y, text) and the point label (x, y, text) in pixels."""
    plan = planning.plan_queries(sd, n_queries=n_queries)
    largest = max(row.queries_needed for row in plan.rows)
    curve = planning.mde_curve(sd, planning.n_grid(n_queries, largest))
    svg = vl_convert.vegalite_to_svg(mde_chart(curve, plan).properties(width=500).to_dict())
    rules = [float(y) for y in re.findall(
        r'aria-roledescription="rule mark" transform="translate\([\d.]+,([\d.]+)\)"', svg)]
    texts = [(float(x), float(y), label) for x, y, label in re.findall(
        r'aria-roledescription="text mark"[^>]*transform="translate\(([\d.]+),([\d.]+)\)"'
        r'[^>]*>([^<]+)</text>', svg)]
    point = next(t for t in texts if "queries →" in t[2])
    return rules, [t for t in texts if "needs" in t[2]], point


def width(text: str, size: float) -> float:
    return 0.62 * size * len(text)  # generous for sans-serif digits and letters


CASES = [(0.02 * math.sqrt(1000) / Z_SUM * 0.97, 1000),  # MDE just under the +0.02 rule
         (0.02 * math.sqrt(1000) / Z_SUM * 1.03, 1000),  # just over it
         (0.1552, 1000), (0.1552, 400), (0.1, 200), (0.1, 785), (0.25, 50), (0.05, 3000)]


@pytest.mark.parametrize(("sd", "n_queries"), CASES)
def test_the_point_label_keeps_clear_of_the_target_rules(sd: float, n_queries: int) -> None:
    rules, targets, (x, y, label) = drawn(sd, n_queries)
    assert len(rules) == 3 and len(targets) == 3
    for rule in rules:
        assert abs(rule - y) > FONT_POINT / 2 + 1, (label, rule, y)
    for tx, ty, text in targets:  # the rules' labels sit above their rule at the left edge
        apart_x = tx + width(text, FONT_TARGET) < x or x + width(label, FONT_POINT) < tx
        apart_y = abs(ty - y) > (FONT_POINT + FONT_TARGET) / 2
        assert apart_x or apart_y, (text, label)


def test_the_label_moves_below_only_when_a_rule_is_in_the_way() -> None:
    y_range = [0.004, 0.2]
    assert point_label_offset(0.0194, [0.02, 0.01, 0.005], y_range, 320) == LABEL_BELOW
    assert point_label_offset(0.0130, [0.02, 0.01, 0.005], y_range, 320) == LABEL_ABOVE
    assert point_label_offset(0.0194, [], y_range, 320) == LABEL_ABOVE
