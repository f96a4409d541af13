"""A metric card drawn the way its change really goes.

``show_card`` answers "draw this ``formats.Card``": ``st.metric`` decides arrow and colour from
whether the delta's text starts with an ASCII "-", so a loss written with a real minus
(``−0.5101``) would show as a green gain. The arrow and colour come from the card's ``trend``
instead (``formats.direction``): a loss of B is a red arrow down, a narrower interval a green
one. Nothing here computes.
"""

from __future__ import annotations

from typing import Any

from ranklens.formats import Card, direction


def show_card(place: Any, card: Card) -> None:
    """``card`` as an ``st.metric`` in ``place`` (a column, a container or ``st``), its change
    with the arrow and colour of its ``trend``."""
    way = direction(card)
    place.metric(card.label, card.value, delta=card.delta or None,
                 delta_color=way.colour, delta_arrow=way.arrow, help=card.help or None)
