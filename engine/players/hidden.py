"""Worlds for search: the hidden order sampled from what a person at the table can know.

The tiles not seen anywhere (environments, display, discards) are the candidates for the
stacks; a world shuffles them, keeps as many as the stacks hold, and gives the bag a fresh
draw seed. Nothing of ``state.stack``'s order or ``state.seed`` goes into it, so two states
that differ only in their hidden order give the same worlds.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.components import HABITAT_TILES_ALL, Tile
from engine.game import GameState


def unseen_tiles(state: GameState) -> list[Tile]:
    """The habitat tiles not visible anywhere, by id: the stacks hold some of them."""
    seen = {t.id for t in state.display_tiles if t is not None}
    seen.update(t.id for t in state.discarded_tiles)
    if state.held_tile is not None:
        seen.add(state.held_tile.id)
    for seat in state.seats:
        seen.update(placed.tile.id for placed in seat.environment.values())
    return [tile for tile in HABITAT_TILES_ALL if tile.id not in seen]


def sample_world(state: GameState, rng: random.Random) -> GameState:
    """``state`` with its hidden order replaced by one drawn with ``rng`` from public facts."""
    pool = unseen_tiles(state)
    rng.shuffle(pool)
    return replace(state, stack=tuple(pool[: len(state.stack)]), seed=rng.getrandbits(62), draws=0)
