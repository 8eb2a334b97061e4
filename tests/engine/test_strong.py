"""The strong player's rollouts: the learned leaf, the shared boards, where it searches."""

from __future__ import annotations

import random

import pytest

from engine.players import Budget
from engine.players.fast import valued_frontier
from engine.players.hidden import sample_world
from engine.players.strong import BORROWED, Boards, leaf_for, play_out, searches
from engine.players.value import model_for
from engine.scorer import MoveScorer, own_score
from tests.engine.helpers import state_at_turn


@pytest.mark.parametrize(("players", "turns"), [(2, 9), (3, 30), (4, 22), (4, 50)])
def test_a_rollout_stopped_at_once_is_worth_what_fast_values(players: int, turns: int) -> None:
    """With no turn played after the candidate, a rollout's leaf is the seat's score before
    plus the fast player's value of the move (its gain plus the learned value of the board
    it leaves): the leaf and fast read the board the same way. Not solo: there the refill
    discards a token, which the leaf no longer counts in the supply."""
    state = state_at_turn(players, 7, turns, cards="A")
    seat = state.current_player
    before = own_score(state.cards, seat.environment, seat.nature_tokens, solo=state.solo)
    leaf = leaf_for(state, 0)
    assert leaf is not None
    world = sample_world(state, random.Random(1))
    for value, move in valued_frontier(state, MoveScorer(state))[:6]:
        assert play_out(world, move, state.current, leaf) - before == pytest.approx(value)


@pytest.mark.parametrize("depth", [1, 2, None])
def test_sharing_the_boards_changes_no_rollout(depth: int | None) -> None:
    state = state_at_turn(4, 3, 40, cards="A")
    leaf = None if depth is None else leaf_for(state, depth)
    rng = random.Random(2)
    worlds = [sample_world(state, rng) for _ in range(3)]
    moves = [move for _, move in valued_frontier(state, MoveScorer(state))[:3]]
    boards = Boards(state)
    for move in moves:
        for world in worlds:
            alone = play_out(world, move, state.current, leaf)
            assert play_out(world, move, state.current, leaf, boards) == alone


def test_a_deeper_rollout_sees_more_of_the_game() -> None:
    state = state_at_turn(2, 4, 10, cards="A")
    world = sample_world(state, random.Random(3))
    move = valued_frontier(state, MoveScorer(state))[0][1]
    values = {play_out(world, move, state.current, leaf_for(state, d)) for d in (0, 1, 3)}
    assert len(values) == 3


def test_other_cards_borrow_the_all_a_value_and_search_every_turn_but_the_last() -> None:
    budget = Budget(rollouts=8)
    early = state_at_turn(2, 5, 4, cards="BCDAB")
    assert model_for(early.cards) is None
    assert leaf_for(early).model is model_for(BORROWED)
    assert leaf_for(state_at_turn(2, 5, 4, cards="A")).model is model_for(BORROWED)
    for cards in ("BCDAB", "A"):
        assert searches(state_at_turn(2, 5, 4, cards=cards), budget)
        assert not searches(state_at_turn(2, 5, 4, cards=cards), Budget())
        assert not searches(state_at_turn(2, 5, 38, cards=cards), budget)


def test_a_rollout_with_other_cards_is_worth_the_borrowed_value_at_its_leaf() -> None:
    """Stopped at once, the leaf is the seat's score before plus the move's gain and the
    borrowed value of the board it leaves, read with the game's own cards."""
    state = state_at_turn(3, 8, 12, cards="BCDAB")
    seat = state.current_player
    before = own_score(state.cards, seat.environment, seat.nature_tokens, solo=state.solo)
    world = sample_world(state, random.Random(4))
    leaf = leaf_for(state, 0)
    borrowed = valued_frontier(state, MoveScorer(state), model=model_for(BORROWED))
    for value, move in borrowed[:6]:
        assert play_out(world, move, state.current, leaf) - before == pytest.approx(value)
