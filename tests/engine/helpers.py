"""Shared helpers for engine tests: seeded random play and token accounting."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from engine import Action, GameState, Phase, apply, legal_actions, new_game
from engine.components import HABITAT_TILES_ALL, Wildlife, tiles_in_play
from engine.environment import Environment, PlacedTile
from engine.game import Bag
from engine.hexes import Hex
from engine.players import random_action


def play_random(
    players: int, seed: int, *, cards: str = "random"
) -> tuple[GameState, list[Action]]:
    """A whole game of uniformly random legal actions from ``seed``."""
    state = new_game(players=players, seed=seed, cards=cards)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)
    return state, actions


def token_census(state: GameState) -> Counter[Wildlife]:
    """Every wildlife token wherever it is: bag, display, held, placed, discarded."""
    census: Counter[Wildlife] = Counter()
    for species, count in zip(Wildlife, state.bag.counts, strict=True):
        census[species] += count
    census.update(t for t in state.display_tokens if t is not None)
    if state.held_token is not None:
        census[state.held_token] += 1
    for seat in state.seats:
        census.update(seat.environment.tokens().values())
    census.update(state.discarded_tokens)
    return census


def tile_census(state: GameState) -> list[int]:
    """Ids of every habitat tile in play wherever it is (starter hexes excluded)."""
    ids = [t.id for t in state.stack]
    ids += [t.id for t in state.display_tiles if t is not None]
    if state.held_tile is not None:
        ids.append(state.held_tile.id)
    for seat in state.seats:
        ids += [p.tile.id for p in seat.environment.values() if p.tile.id >= 16]
    ids += [t.id for t in state.discarded_tiles]
    return ids


def expected_tile_count(state: GameState) -> int:
    """Habitat tiles in play for this player count."""
    return tiles_in_play(state.players)


def with_display_tokens(state: GameState, *tokens: Wildlife) -> GameState:
    """``state`` with the display tokens swapped for ``tokens`` (the bag adjusted to match)."""
    bag = state.bag.add([t for t in state.display_tokens if t is not None])
    counts = list(bag.counts)
    for token in tokens:
        counts[list(Wildlife).index(token)] -= 1
    a, b, c, d, e = counts
    return replace(state, display_tokens=tuple(tokens), bag=Bag((a, b, c, d, e)))


def with_nature_tokens(state: GameState, count: int) -> GameState:
    """``state`` with the current player holding ``count`` nature tokens."""
    seats = list(state.seats)
    seats[state.current] = replace(seats[state.current], nature_tokens=count)
    return replace(state, seats=tuple(seats))


_KEYSTONE = {"b": "M/b", "e": "P/e", "s": "R/s", "h": "M/h", "f": "F/f"}


def tokens(spec: str) -> dict[Hex, Wildlife]:
    """Tokens from ``"b 0,0 1,0; e 2,0"``: each hex a keystone tile holding that species,
    read through the environment text form."""
    entries = []
    for part in spec.split(";"):
        letter, *hexes = part.split()
        entries += [f"{hex_} {_KEYSTONE[letter]}={letter}" for hex_ in hexes]
    return Environment.parse("; ".join(entries)).tokens()


def random_environment(seed: int, size: int) -> Environment:
    """``size`` random tiles grown edge to edge from the origin, in random rotations, most
    with a random token they can hold."""
    rng = random.Random(seed)
    tiles: dict[Hex, PlacedTile] = {}
    while len(tiles) < size:
        spots = sorted({n for h in tiles for n in h.neighbors()} - tiles.keys()) or [Hex(0, 0)]
        tile = rng.choice(HABITAT_TILES_ALL)
        token = rng.choice((*tile.wildlife, None))
        tiles[rng.choice(spots)] = PlacedTile(tile, rng.randrange(6), token)
    return Environment(tiles)


def turned(env: Environment, turns: int, dq: int, dr: int) -> Environment:
    """``env`` turned by ``turns`` sixths (direction d becomes d + turns) and moved."""
    tiles = {}
    for hex_, placed in env.items():
        q, r = hex_.q, hex_.r
        for _ in range(turns):
            q, r = q + r, -q
        tiles[Hex(q + dq, r + dr)] = PlacedTile(
            placed.tile, (placed.rotation + turns) % 6, placed.token
        )
    return Environment(tiles)


def state_at_turn(players: int, seed: int, turns: int, *, cards: str = "random") -> GameState:
    """A game from ``seed`` played by the random player until ``turns`` turns are done (or
    the last turn starts), at the start of a turn."""
    state = new_game(players=players, seed=seed, cards=cards)
    rng = random.Random(seed)
    last = 20 * players - 1
    while state.turn < min(turns, last) or state.phase is not Phase.CHOOSE:
        state = apply(state, random_action(state, rng))
    return state
