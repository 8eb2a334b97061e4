"""Move listing with exact score changes: every gain is the difference of two full scorings."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    GameState,
    IllegalAction,
    InvalidInput,
    Move,
    MoveScorer,
    PlaceTile,
    PlaceToken,
    Take,
    apply,
    legal_actions,
    own_score,
)
from engine.hexes import Hex
from tests.engine.helpers import state_at_turn, with_nature_tokens

CARD_CHOICES = ("random", "random", "A", "BBBBB", "CCCCC", "DDDDD", "family", "intermediate")


def seat_score(state: GameState, seat: int) -> int:
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def played(state: GameState, move: Move) -> GameState:
    for action in move.actions():
        state = apply(state, action)
    return state


@st.composite
def turn_states(draw: st.DrawFn) -> GameState:
    players = draw(st.integers(min_value=1, max_value=4))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    turns = draw(st.integers(min_value=0, max_value=20 * players - 1))
    cards = draw(st.sampled_from(CARD_CHOICES))
    state = state_at_turn(players, seed, turns, cards=cards)
    if draw(st.booleans()):
        state = with_nature_tokens(state, 1)
    return state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states(), pick=st.randoms(use_true_random=False))
def test_every_gain_is_the_difference_of_two_full_scorings(
    state: GameState, pick: random.Random
) -> None:
    scorer = MoveScorer(state)
    moves = scorer.moves()
    before = seat_score(state, state.current)
    on_new_tile = [m for m in moves if m.move.token_at == m.move.at]
    sample = pick.sample(moves, min(12, len(moves)))
    sample += pick.sample(on_new_tile, min(4, len(on_new_tile)))
    sample.append(scorer.best())
    for scored in sample:
        after = played(state, scored.move)
        assert seat_score(after, state.current) - before == scored.gain, scored


def legal_turns(state: GameState) -> Iterator[tuple[Move, GameState]]:
    """Every whole turn of the public ``legal_actions``/``apply`` tree (after no wipe), with
    the state it leads to."""
    for take in legal_actions(state):
        if not isinstance(take, Take):
            continue
        taken = apply(state, take)
        for tile in legal_actions(taken):
            assert isinstance(tile, PlaceTile)
            placed = apply(taken, tile)
            for token in legal_actions(placed):
                assert isinstance(token, PlaceToken)
                move = Move(take.tile, take.token, tile.at, tile.rotation, token.at)
                yield move, apply(placed, token)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states())
def test_the_moves_are_exactly_the_legal_turns(state: GameState) -> None:
    expected = {move for move, _ in legal_turns(state)}
    listed = [scored.move for scored in MoveScorer(state).moves()]
    assert len(listed) == len(set(listed))
    assert set(listed) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states())
def test_the_panel_views_agree_with_the_move_list(state: GameState) -> None:
    scorer = MoveScorer(state)
    gains = scorer.gains()
    moves = scorer.moves()
    assert gains == [m.gain for m in moves]
    assert scorer.best().gain == max(gains)
    take = scorer.takes()[-1]
    of_take = [m for m in moves if (m.move.tile, m.move.token) == (take.tile, take.token)]
    positions = scorer.positions(take)
    assert [p.at for p in positions] == state.current_player.environment.frontier()
    for position in positions:
        here = [m for m in of_take if m.move.at == position.at]
        assert position.gain == max(m.gain for m in here)
        targets = scorer.token_targets(take, position.at, position.rotation)
        with_rotation = [m for m in here if m.move.rotation == position.rotation]
        assert [(t.at, t.gain) for t in targets] == [
            (m.move.token_at, m.gain) for m in with_rotation
        ]
        returned = [t.gain for t in targets if t.at is None]
        assert returned == [position.tile_gain - (1 if take.free_choice else 0)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states())
def test_the_listing_is_the_legal_action_tree_with_its_score_changes(state: GameState) -> None:
    # Every leaf of the public legal_actions/apply tree, scored in full, against the listing.
    seat = state.current
    before = seat_score(state, seat)
    expected = {move: seat_score(after, seat) - before for move, after in legal_turns(state)}
    scorer = MoveScorer(state)
    listed = scorer.moves()
    assert {scored.move: scored.gain for scored in listed} == expected
    assert len(listed) == len(expected)
    assert scorer.gains() == [scored.gain for scored in listed]


def test_a_move_is_its_three_actions() -> None:
    move = Move(2, 3, Hex(-1, 2), 4, None)
    assert move.free_choice
    assert [str(a) for a in move.actions()] == ["take 2 3", "tile -1,2 4", "token return"]
    assert str(Move(1, 1, Hex(0, 1), 0, Hex(0, 1))) == "take 1; tile 0,1 0; token 0,1"


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states())
def test_every_listed_move_reads_back_from_its_text(state: GameState) -> None:
    for scored in MoveScorer(state).moves():
        move = scored.move
        assert Move.parse(str(move)) == move
        assert Move.from_actions(move.actions()) == move
        assert eval(repr(move), {"Move": Move, "Hex": Hex}) == move


def test_a_move_is_read_with_any_spacing_and_case() -> None:
    assert Move.parse("TAKE 4 1;tile 2,-1 5 ;  token 2,-1") == Move(4, 1, Hex(2, -1), 5, Hex(2, -1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("take 1; tile 0,1 0", "not a whole move"),
        ("take 1; tile 0,1 0; token return; wipe", "not a whole move"),
        ("tile 0,1 0; take 1; token return", "not a whole move"),
        ("wipe", "not a whole move"),
        ("take 5; tile 0,1 0; token return", "pair must be 1-4, not 5"),
        ("take 1; tile 0,1 6; token return", "rotation must be 0-5, not 6"),
        ("take 1; tile here 0; token return", "here"),
        ("take 1;; token return", "empty action"),
    ],
)
def test_a_move_that_is_not_one_is_refused_naming_it(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Move.parse(text)


def test_moves_are_listed_only_before_taking() -> None:
    state = state_at_turn(2, 7, 5)
    taken = apply(state, Take(1, 1))
    with pytest.raises(IllegalAction):
        MoveScorer(taken)


def test_a_free_choice_needs_a_nature_token() -> None:
    state = with_nature_tokens(state_at_turn(3, 11, 4), 0)
    scorer = MoveScorer(state)
    assert all(not t.free_choice for t in scorer.takes())
    with pytest.raises(IllegalAction):
        scorer.positions(Take(1, 2))


def test_a_one_habitat_tile_gains_what_single_gain_says() -> None:
    from engine.components import HABITAT_TILES_ALL
    from engine.scorer import Corridors

    state = state_at_turn(2, 17, 20)
    env = state.current_player.environment
    corridors = Corridors(env)
    for tile in (t for t in HABITAT_TILES_ALL if len(t.habitats) == 1):
        for at in env.frontier():
            assert corridors.single_gain(tile.habitats[0], at) == corridors.gains(tile, at)[0]
