"""What each choice of a turn is worth: the score change of every place and every token
target the turn panel offers, so that it can order them best first and say so.

A gain is the change of the player's own score: wildlife cards, largest corridors and nature
tokens. The majority bonuses are left out, as they depend on the other players' corridors
(the check step shows them, from two whole score sheets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine import CardSet, Environment, Hex, PlacedTile, Tile, Wildlife
from engine.scoring import TokenGrid, card_for
from engine.scoring.corridors import largest_corridors


@dataclass(frozen=True, slots=True)
class PlaceGain:
    """A legal place for the tile: its best rotation, what the tile alone adds there, and the
    best the whole turn can add there (the token placed at its best, or returned)."""

    at: Hex
    rotation: int
    tile_gain: int
    best: int


def _corridor_total(env: Mapping[Hex, PlacedTile]) -> int:
    return sum(largest_corridors(env).values())


def token_gain(cards: CardSet, env: Environment, token: Wildlife, at: Hex) -> int:
    """What putting ``token`` on the tile at ``at`` adds: the change of every card (a token
    can change another species' score, such as a fox's neighbours or a hawk's line of
    sight), plus the nature token a keystone earns."""
    tokens = env.tokens()
    before = _wildlife_total(cards, tokens)
    after = _wildlife_total(cards, {**tokens, at: token})
    return after - before + (1 if env[at].tile.keystone else 0)


def _wildlife_total(cards: CardSet, tokens: Mapping[Hex, Wildlife]) -> int:
    grid = TokenGrid(tokens)
    return sum(card_for(cards, wildlife)(grid) for wildlife in Wildlife)


def token_gains(cards: CardSet, env: Environment, token: Wildlife) -> dict[Hex, int]:
    """The gain of each tile of ``env`` that can take ``token`` now."""
    return {at: token_gain(cards, env, token, at) for at in env.token_targets(token)}


def place_gains(cards: CardSet, env: Environment, tile: Tile, token: Wildlife) -> list[PlaceGain]:
    """Every place the tile may go, with its best rotation and gains, best first (then nearest
    the centre, then by position, so the order is stable)."""
    base = _corridor_total(env)
    elsewhere = max(token_gains(cards, env, token).values(), default=0)
    found = []
    for at in env.frontier():
        best_rotation, best_tile = 0, None
        for rotation in tile.rotations:
            grown = env.with_tile(at, PlacedTile(tile, rotation))
            gain = _corridor_total(grown) - base
            if best_tile is None or gain > best_tile:
                best_rotation, best_tile = rotation, gain
        tile_gain = best_tile or 0
        on_it = token_gain(cards, env.with_tile(at, PlacedTile(tile, 0)), token, at)
        token_best = max(elsewhere, on_it if token in tile.wildlife else 0, 0)
        found.append(PlaceGain(at, best_rotation, tile_gain, tile_gain + token_best))
    found.sort(key=lambda g: (-g.best, -g.tile_gain, g.at.distance(Hex(0, 0)), g.at))
    return found


def rotation_gain(env: Environment, tile: Tile, at: Hex, rotation: int) -> int:
    """What the tile adds to the corridors at ``at`` turned by ``rotation``."""
    grown = env.with_tile(at, PlacedTile(tile, rotation))
    return _corridor_total(grown) - _corridor_total(env)
