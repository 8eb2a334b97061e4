"""The greedy player: the move with the best immediate exact score change.

It values every move by :class:`engine.scorer.MoveScorer`'s gain (wildlife cards, largest
corridors, nature tokens: a free choice costs its token, a keystone earns one). Ties: a pair
before a free choice, then chosen at random among the equal positions and rotations; the
token goes to the best target, the first by hex among equals, and is returned only when
every target loses points. It never wipes tokens.
"""

from __future__ import annotations

import random

from engine.actions import Action, Take
from engine.game import GameState
from engine.move import Move
from engine.players.base import Budget, pick_best, whole_move
from engine.scorer import MoveScorer


def useful_takes(scorer: MoveScorer) -> list[Take]:
    """The takes worth pricing: every pair, and the free choices that bring a species the
    chosen tile's own pair does not (the others cost a token for the same pieces)."""
    tokens = scorer.state.display_tokens
    return [
        take
        for take in scorer.takes()
        if not take.free_choice or tokens[take.token - 1] != tokens[take.tile - 1]
    ]


def best_per_position(scorer: MoveScorer) -> list[tuple[int, Move, tuple[int, ...]]]:
    """For each useful take and tile position: the best gain there, the move that reaches it
    (the first best rotation) and the corridor gain of every rotation."""
    found = []
    corridors = scorer.corridors
    tiles, tokens = scorer.state.display_tiles, scorer.state.display_tokens
    for take in useful_takes(scorer):
        tile, token = tiles[take.tile - 1], tokens[take.token - 1]
        if tile is None or token is None:
            continue
        cost = 1 if take.free_choice else 0
        for at in scorer.frontier:
            token_gain, token_at = scorer.best_token(tile, token, at)
            gains = corridors.gains(tile, at)
            top = max(gains)
            rotation = tile.rotations[gains.index(top)]
            move = Move(take.tile, take.token, at, rotation, token_at)
            found.append((top + token_gain - cost, move, gains))
    return found


def greedy_move(scorer: MoveScorer, rng: random.Random) -> Move:
    """The greedy choice at the start of a turn (see the module docstring)."""
    options = best_per_position(scorer)
    chosen = pick_best([(gain, move) for gain, move, _ in options], rng)
    gains = next(g for _, move, g in options if move == chosen)
    top = max(gains)
    rotations = [r for r, g in zip(range(len(gains)), gains, strict=True) if g == top]
    rotation = rng.choice(rotations) if len(gains) > 1 else 0
    return Move(chosen.tile, chosen.token, chosen.at, rotation, chosen.token_at)


def greedy_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The greedy player (see the module docstring); ``budget`` is not needed."""
    return whole_move(state, lambda scorer: greedy_move(scorer, rng))
