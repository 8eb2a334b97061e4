"""A computer player that plays random legal moves, for simulations and benchmarks.

It picks among the same actions :func:`engine.legal_actions` lists, but draws one without
listing them all, so a whole game takes milliseconds.
"""

from __future__ import annotations

import random

from engine.actions import Action, NatureWipe, PlaceTile, PlaceToken, Take, WipeThree
from engine.components import CardSet
from engine.game import GameState, Phase, apply, can_wipe_three, new_game


def random_action(state: GameState, rng: random.Random) -> Action:
    """One legal action for the current player, chosen at random.

    Taking a pair is the usual choice; wipes and nature-token spends happen now and then so
    that simulations exercise them too.
    """
    player = state.current_player
    if state.phase is Phase.CHOOSE:
        if can_wipe_three(state) and rng.random() < 0.5:
            return WipeThree()
        if player.nature_tokens and rng.random() < 0.25:
            if rng.random() < 0.3:
                return NatureWipe(tuple(sorted(rng.sample((1, 2, 3, 4), rng.randint(1, 4)))))
            return Take(rng.randint(1, 4), rng.randint(1, 4))
        pair = rng.randint(1, 4)
        return Take(pair, pair)
    if state.phase is Phase.PLACE_TILE:
        tile = state.held_tile
        rotations = tile.rotations if tile is not None else (0,)
        return PlaceTile(rng.choice(player.environment.frontier()), rng.choice(rotations))
    if state.phase is Phase.PLACE_TOKEN and state.held_token is not None:
        targets = player.environment.token_targets(state.held_token)
        if targets and rng.random() < 0.9:
            return PlaceToken(rng.choice(targets))
        return PlaceToken(None)
    raise ValueError("the game is over: there is no action to take")


def random_game(
    *, players: int, seed: int, cards: str | CardSet = "random"
) -> tuple[GameState, list[Action]]:
    """A whole game played by random players, and the actions taken, from ``seed``."""
    state = new_game(players=players, seed=seed, cards=cards)
    rng = random.Random(f"players:{seed}")
    actions: list[Action] = []
    while not state.is_over:
        action = random_action(state, rng)
        actions.append(action)
        state = apply(state, action)
    return state, actions
