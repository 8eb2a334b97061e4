"""A turn message's boards are never taller than wide under their header, whatever shape the
placed tiles take: a tall board would make its row of a phone's mosaic tall."""

from __future__ import annotations

from engine import Environment, Hex, new_game
from render.environment import board_frame


def test_a_tall_board_is_framed_at_least_as_wide_as_tall() -> None:
    start = new_game(players=1, seed=1).seats[0].environment
    tile = start[next(iter(start))]
    column = Environment({Hex(0, r): tile for r in range(-6, 7)})
    frame = board_frame([column])
    assert frame.width >= frame.height - frame.header_height
    # A wide board keeps the width it needs, and a height of its own.
    row = Environment({Hex(q, 0): tile for q in range(-6, 7)})
    wide = board_frame([row])
    assert wide.width > wide.height - wide.header_height
