"""What every computer player shares: the budget it thinks within and the public facts it sees.

A player is a function ``(state, rng, budget) -> list[Action]`` for the seat to play. It
returns either ``[WipeThree()]`` (apply it, then ask again: the new tokens are only known
afterwards) or the actions that finish the seat's turn. It reads only what a person at the
table sees: the environments, the display, nature tokens, the bag's counts and how many tiles
are left, never ``state.stack``'s order, ``state.seed`` or ``state.draws``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.actions import Action, PlaceTile, PlaceToken
from engine.components import TURNS_PER_PLAYER, Wildlife
from engine.errors import IllegalAction, Reason
from engine.game import GameState, Phase
from engine.hexes import Hex
from engine.move import Move
from engine.scorer import Corridors, MoveScorer, WildlifeGains


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a player may think about one decision.

    ``rollouts`` caps the work (the same answer on any machine: for tests and self-play
    figures); ``seconds`` with ``clock`` (for example ``time.monotonic``, passed in because the
    engine reads no clock itself) caps the wall time. Players that do not search ignore both.
    """

    seconds: float | None = None
    clock: Callable[[], float] | None = None
    rollouts: int | None = None

    def deadline(self) -> Callable[[], bool]:
        """A function that says whether the time is up (never, without seconds and clock)."""
        clock, seconds = self.clock, self.seconds
        if clock is None or seconds is None:
            return lambda: False
        end = clock() + seconds
        return lambda: clock() >= end


class Player(Protocol):
    """A computer player: the next actions of the seat to play (see the module docstring)."""

    def __call__(self, state: GameState, rng: random.Random, budget: Budget, /) -> list[Action]:
        """The next actions for ``state``'s seat to play."""
        ...


def turns_left(state: GameState, seat: int) -> int:
    """Turns ``seat`` still has, the current one included when it is theirs."""
    return TURNS_PER_PLAYER - state.seats[seat].turns_taken


def supply(state: GameState) -> list[int]:
    """Tokens of each species not on any environment and not discarded: the bag and the
    display together (public counts), in score-pad order."""
    counts = list(state.bag.counts)
    species = list(Wildlife)
    for token in (*state.display_tokens, state.held_token):
        if token is not None:
            counts[species.index(token)] += 1
    return counts


def pick_best(scored: list[tuple[float, Move]], rng: random.Random) -> Move:
    """The move of highest value; among equals a pair before a free choice, then one chosen
    by ``rng`` (so ties do not always lean to the same corner of the board)."""
    top = max(value for value, _ in scored)
    best = [move for value, move in scored if value == top]
    paired = [move for move in best if not move.free_choice]
    return rng.choice(paired or best)


def finish_turn(state: GameState) -> list[Action]:
    """The greedy rest of a turn already started (a pair taken, perhaps the tile placed): the
    placement and token target that gain most."""
    seat = state.current_player
    env = seat.environment
    token = state.held_token
    if token is None:
        raise IllegalAction(Reason.WRONG_PHASE, "no turn is under way")
    wildlife = WildlifeGains(state.cards, env)

    def token_gain(at: Hex) -> int:
        return wildlife.gain(token, at) + env[at].tile.keystone

    if state.phase is Phase.PLACE_TOKEN:
        targets = [(token_gain(h), h) for h in env.token_targets(token)]
        best = max(targets, default=(0, None), key=lambda t: t[0])
        return [PlaceToken(best[1] if best[0] >= 0 else None)]
    tile = state.held_tile
    if state.phase is not Phase.PLACE_TILE or tile is None:
        raise IllegalAction(Reason.WRONG_PHASE, "no tile is waiting to be placed")
    corridors = Corridors(env, solo=state.solo)
    placed = max(((token_gain(h), h) for h in env.token_targets(token)), default=(-1, None))
    best_value = -1
    best_actions: list[Action] = [PlaceTile(env.frontier()[0], 0), PlaceToken(None)]
    for at in env.frontier():
        gains = corridors.gains(tile, at)
        token_value, token_at = placed
        if token in tile.wildlife:
            on_new = wildlife.gain(token, at) + tile.keystone
            if on_new > token_value:
                token_value, token_at = on_new, at
        if token_value < 0:
            token_value, token_at = 0, None
        value = max(gains) + token_value
        if value > best_value:
            rotation = tile.rotations[gains.index(max(gains))]
            best_value = value
            best_actions = [PlaceTile(at, rotation), PlaceToken(token_at)]
    return best_actions


def whole_move(state: GameState, choose: Callable[[MoveScorer], Move]) -> list[Action]:
    """The actions of the move ``choose`` picks at the start of a turn, or the greedy rest of
    a turn already under way."""
    if state.phase is Phase.OVER:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    if state.phase is not Phase.CHOOSE:
        return finish_turn(state)
    return list(choose(MoveScorer(state)).actions())
