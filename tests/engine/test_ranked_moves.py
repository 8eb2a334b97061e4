"""``ranked_moves``: the fast player's best moves with their values and exact gains, which
hints suggest."""

from __future__ import annotations

import dataclasses
import random

from engine import apply_all, choose, new_game, own_score, ranked_moves, scored_moves
from engine.game import GameState
from engine.players.fast import valued_frontier
from engine.scorer import MoveScorer
from tests.engine.helpers import state_at_turn, with_nature_tokens


def _own(state: GameState, seat: int) -> int:
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def test_ranked_moves_are_legal_distinct_and_best_first() -> None:
    state = new_game(players=3, seed=21, cards="ABCDA")
    rng = random.Random(2)
    for _ in range(6):
        ranked = ranked_moves(state, 3)
        moves = [scored.move for _, scored in ranked]
        assert len(moves) == 3
        assert len(set(moves)) == 3
        values = {move: value for value, move in valued_frontier(state, MoveScorer(state))}
        assert [value for value, _ in ranked] == [values[m] for m in moves]
        assert [values[m] for m in moves] == sorted((values[m] for m in moves), reverse=True)
        assert values[moves[0]] == max(values.values())
        exact = {s.move: s.gain for s in scored_moves(state)}
        for _, scored in ranked:
            assert exact.get(scored.move) == scored.gain, f"{scored.move} is not legal as priced"
        state = apply_all(state, rng.choice(moves).actions())


def test_ranked_gains_are_the_score_change_and_the_first_is_a_fast_choice() -> None:
    for seed in range(4):
        state = with_nature_tokens(state_at_turn(4, seed, 12 + 8 * seed, cards="A"), seed % 2)
        seat = state.current
        ranked = ranked_moves(state, 3)
        for _, scored in ranked:
            after = apply_all(state, scored.move.actions())
            assert _own(after, seat) - _own(state, seat) == scored.gain
        top = ranked[0][0]
        chosen = choose(state, "fast", seed=seed)
        equals = [list(s.move.actions()) for value, s in ranked_moves(state, 50) if value == top]
        assert chosen in equals
        assert list(ranked[0][1].move.actions()) in equals


def test_equal_values_go_pairs_first_then_by_text() -> None:
    for seed in range(6):
        state = with_nature_tokens(state_at_turn(2, seed, 10, cards="A"), 2)
        ranked = ranked_moves(state, 200)
        keys = [(-value, s.move.free_choice, str(s.move)) for value, s in ranked]
        assert keys == sorted(keys)
        assert ranked_moves(state, 3) == ranked[:3]


def test_ranked_moves_ignore_the_hidden_order() -> None:
    state = new_game(players=2, seed=8, cards="A")
    shuffled = list(state.stack)
    random.Random(1).shuffle(shuffled)
    other = dataclasses.replace(state, stack=tuple(shuffled), seed=state.seed + 1)
    assert ranked_moves(state, 3) == ranked_moves(other, 3)
