"""``best_moves``: the fast player's ranked moves, which hints suggest."""

from __future__ import annotations

import dataclasses
import random

from engine import apply_all, best_moves, new_game, scored_moves
from engine.moves import MoveScorer
from engine.players.fast import valued_frontier


def test_best_moves_are_legal_distinct_and_ranked() -> None:
    state = new_game(players=3, seed=21, cards="ABCDA")
    rng = random.Random(2)
    for _ in range(6):
        moves = best_moves(state, 3)
        assert len(moves) == 3
        assert len(set(moves)) == 3
        values = dict((move, value) for value, move in valued_frontier(state, MoveScorer(state)))
        assert [values[m] for m in moves] == sorted((values[m] for m in moves), reverse=True)
        assert values[moves[0]] == max(values.values())
        exact = {s.move: s.gain for s in scored_moves(state)}
        for move in moves:
            assert move in exact, f"{move} is not a legal move"
            apply_all(state, move.actions())
        state = apply_all(state, rng.choice(moves).actions())


def test_best_moves_ignore_the_hidden_order() -> None:
    state = new_game(players=2, seed=8, cards="A")
    shuffled = list(state.stack)
    random.Random(1).shuffle(shuffled)
    other = dataclasses.replace(state, stack=tuple(shuffled))
    assert best_moves(state, 3) == best_moves(other, 3)
