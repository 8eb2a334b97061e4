"""Seeded positions for the render benchmark and tests, reached by playing random legal
games: every action comes from :func:`engine.legal_actions` and is applied with
:func:`engine.apply`, chosen by a ``random.Random(seed)``."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import (
    Action,
    GameState,
    Phase,
    PlaceTile,
    PlaceToken,
    Take,
    apply,
    legal_actions,
    new_game,
)
from engine.scoring.sheet import ScoreSheet, final_scores

Policy = Callable[[GameState, list[Action], random.Random], Action]

NAMES = ("Alice", "Bartholomew", "Chloé", "Dmitri")


def casual(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """Mostly what people do (take a pair, place the token when it fits), sometimes any
    legal action at all."""
    if rng.random() < 0.1:
        return rng.choice(actions)
    if state.phase is Phase.CHOOSE:
        takes = [a for a in actions if isinstance(a, Take) and not a.free_choice]
        return rng.choice(takes)
    if state.phase is Phase.PLACE_TOKEN:
        places = [a for a in actions if isinstance(a, PlaceToken) and a.at is not None]
        if places:
            return rng.choice(places)
    return rng.choice(actions)


def eastward(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """Like :func:`casual`, but every tile goes at the east end of row 0: a straight line."""
    if state.phase is Phase.PLACE_TILE:
        tiles = [a for a in actions if isinstance(a, PlaceTile) and a.at.r == 0]
        east = max(a.at.q for a in tiles)
        return rng.choice([a for a in tiles if a.at.q == east])
    return casual(state, actions, rng)


def play(
    state: GameState,
    seed: int,
    *,
    turns: int | None = None,
    until: Phase = Phase.CHOOSE,
    policy: Policy = casual,
) -> GameState:
    """Play ``turns`` whole turns (all of them when None) from ``state``, then go on until
    the turn reaches ``until`` (or the game ends)."""
    rng = random.Random(seed)
    target = None if turns is None else state.turn + turns
    while not state.is_over:
        if target is not None and state.turn >= target and state.phase is until:
            break
        state = apply(state, policy(state, legal_actions(state), rng))
    return state


def start_of_game() -> GameState:
    """Four players, nothing played; three elk tokens match in the display."""
    return new_game(players=4, seed=24, cards="random")


def late_four_player(until: Phase = Phase.CHOOSE) -> GameState:
    """Four players, 18 rounds of 20 played."""
    return play(new_game(players=4, seed=2024), 2024, turns=72, until=until)


def straight_line() -> GameState:
    """A whole solo game whose every tile extends a line eastwards from the starter."""
    return play(new_game(players=1, seed=5, cards="A"), 5, policy=eastward)


def line_and_cluster(turns: int = 24) -> GameState:
    """Two players ``turns`` turns in: the first seat's tiles run in a line eastwards, the
    second's lie close together (environments that fit at different scales)."""

    def policy(state: GameState, actions: list[Action], rng: random.Random) -> Action:
        return (eastward if state.current == 0 else casual)(state, actions, rng)

    return play(new_game(players=2, seed=11, cards="A"), 11, turns=turns, policy=policy)


def solo_game() -> GameState:
    """A solo game half played."""
    return play(new_game(players=1, seed=77, cards="family"), 77, turns=10)


def finished_game(players: int = 4, seed: int = 2024) -> GameState:
    """A whole game played to its end."""
    return play(new_game(players=players, seed=seed), seed)


def score_sheet(state: GameState) -> ScoreSheet:
    """The final scores of ``state`` with the players named from :data:`NAMES`."""
    return final_scores(
        state.cards,
        [(NAMES[i], seat.environment, seat.nature_tokens) for i, seat in enumerate(state.seats)],
    )
