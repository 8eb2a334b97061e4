"""The turn, step by step, against the rules in RULES.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine import (
    Action,
    IllegalAction,
    InvalidInput,
    NatureWipe,
    Phase,
    PlaceTile,
    PlaceToken,
    Reason,
    Take,
    WipeThree,
    apply,
    apply_all,
    legal_actions,
    new_game,
    parse_action,
    play_turn,
    state_to_json,
    turn_actions,
)
from engine.components import Tile, Wildlife
from engine.environment import PlacedTile
from engine.game import GameState
from engine.hexes import Hex
from tests.engine.helpers import (
    expected_tile_count,
    play_random,
    tile_census,
    token_census,
    with_display_tokens,
    with_nature_tokens,
)

B, E, S, H, F = Wildlife.BEAR, Wildlife.ELK, Wildlife.SALMON, Wildlife.HAWK, Wildlife.FOX


@pytest.mark.parametrize(("players", "stack"), [(1, 39), (2, 39), (3, 59), (4, 79)])
def test_setup(players: int, stack: int) -> None:
    state = new_game(players=players, seed=11)
    assert state.tiles_left == stack
    assert all(t is not None for t in state.display_tiles)
    assert all(t is not None for t in state.display_tokens)
    assert state.bag.size == 96
    assert len({s for s in state.starters}) == players
    assert all(len(seat.environment) == 3 for seat in state.seats)
    assert state.current == state.first_player
    assert state.phase is Phase.CHOOSE


def test_setup_is_deterministic_and_seed_dependent() -> None:
    assert new_game(players=3, seed=5) == new_game(players=3, seed=5)
    assert new_game(players=3, seed=5) != new_game(players=3, seed=6)


def test_first_player_is_random_across_seeds() -> None:
    assert {new_game(players=4, seed=s).first_player for s in range(40)} == {0, 1, 2, 3}


def test_random_cards_do_not_change_the_rest_of_the_setup() -> None:
    a = new_game(players=2, seed=9)
    b = new_game(players=2, seed=9, cards=str(a.cards))
    assert a == b


@pytest.mark.parametrize("players", [0, 5, -1])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(InvalidInput):
        new_game(players=players, seed=1)


def test_four_of_a_kind_is_never_left_in_the_display() -> None:
    for seed in range(60):
        state, _ = play_random(2, seed)
        tokens = new_game(players=2, seed=seed).display_tokens
        assert len(set(tokens)) > 1
        assert state.is_over


def test_three_of_a_kind_wipe_replaces_exactly_those_three_once_per_turn() -> None:
    state = with_display_tokens(new_game(players=2, seed=3), B, B, E, B)
    assert WipeThree() in legal_actions(state)
    after = apply(state, WipeThree())
    assert after.display_tokens[2] == E
    assert after.three_wipe_used
    assert after.draws > state.draws
    assert token_census(after) == token_census(state)
    rewiped = with_display_tokens(after, H, H, H, S)
    with pytest.raises(IllegalAction) as excinfo:
        apply(rewiped, WipeThree())
    assert excinfo.value.reason is Reason.WIPE_ALREADY_USED


def test_three_of_a_kind_wipe_needs_exactly_three() -> None:
    state = with_display_tokens(new_game(players=2, seed=3), B, B, E, S)
    assert WipeThree() not in legal_actions(state)
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, WipeThree())
    assert excinfo.value.reason is Reason.WIPE_NOT_ALLOWED


def test_nature_wipe_costs_a_token_and_replaces_the_chosen() -> None:
    state = with_nature_tokens(with_display_tokens(new_game(players=2, seed=4), B, E, S, H), 2)
    after = apply(state, NatureWipe((2, 4)))
    assert after.current_player.nature_tokens == 1
    assert after.display_tokens[0] == B
    assert after.display_tokens[2] == S
    assert token_census(after) == token_census(state)
    again = apply(after, NatureWipe((1,)))
    assert again.current_player.nature_tokens == 0


def test_nature_spends_need_a_nature_token() -> None:
    state = new_game(players=2, seed=4)
    for action in (NatureWipe((1,)), Take(1, 2)):
        with pytest.raises(IllegalAction) as excinfo:
            apply(state, action)
        assert excinfo.value.reason is Reason.NO_NATURE_TOKEN
    assert not any(isinstance(a, NatureWipe) for a in legal_actions(state))
    assert Take(1, 2) not in legal_actions(state)


def test_free_choice_takes_an_unpaired_tile_and_token() -> None:
    state = with_nature_tokens(new_game(players=2, seed=4), 1)
    after = apply(state, Take(1, 3))
    assert after.held_tile == state.display_tiles[0]
    assert after.held_token == state.display_tokens[2]
    assert after.current_player.nature_tokens == 0
    assert after.phase is Phase.PLACE_TILE


def test_tile_must_touch_the_environment_and_not_overlap() -> None:
    state = apply(new_game(players=2, seed=8), Take(1, 1))
    for at, reason in ((Hex(0, 0), Reason.OCCUPIED), (Hex(5, 5), Reason.NOT_ADJACENT)):
        with pytest.raises(IllegalAction) as excinfo:
            apply(state, PlaceTile(at, 0))
        assert excinfo.value.reason is reason
    after = apply(state, PlaceTile(Hex(1, 0), 2))
    placed = after.seats[state.current].environment[Hex(1, 0)]
    assert placed.tile == state.held_tile
    assert after.phase is Phase.PLACE_TOKEN


def _holding(state: GameState, token: Wildlife) -> GameState:
    """``state`` in the token step with ``token`` in hand and a bear keystone at 1,0."""
    state = apply(state, Take(1, 1))
    state = replace(state, held_tile=Tile.from_code("F/b", tile_id=21))
    state = apply(state, PlaceTile(Hex(1, 0), 0))
    bag = state.bag.add([state.held_token]) if state.held_token else state.bag
    counts = list(bag.counts)
    counts[list(Wildlife).index(token)] -= 1
    a, b, c, d, e = counts
    return replace(state, held_token=token, bag=type(bag)((a, b, c, d, e)))


def test_token_rules_and_keystone_nature_token() -> None:
    state = _holding(new_game(players=2, seed=8), B)
    seat = state.current
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, PlaceToken(Hex(7, 7)))
    assert excinfo.value.reason is Reason.NO_TILE
    wrong = next(h for h, p in state.current_player.environment.items() if B not in p.tile.wildlife)
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, PlaceToken(wrong))
    assert excinfo.value.reason is Reason.WRONG_SPECIES
    after = apply(state, PlaceToken(Hex(1, 0)))
    assert after.seats[seat].environment[Hex(1, 0)].token == B
    assert after.seats[seat].nature_tokens == 1
    assert after.current != seat
    assert after.phase is Phase.CHOOSE


def test_a_tile_holds_one_token() -> None:
    state = _holding(new_game(players=2, seed=8), B)
    env = state.current_player.environment
    seats = list(state.seats)
    seats[state.current] = replace(
        seats[state.current],
        environment=env.with_tile(Hex(1, 0), PlacedTile(env[Hex(1, 0)].tile, 0, B)),
    )
    state = replace(state, seats=tuple(seats))
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, PlaceToken(Hex(1, 0)))
    assert excinfo.value.reason is Reason.HAS_TOKEN


def test_returning_a_token_puts_it_back_in_the_bag() -> None:
    state = _holding(new_game(players=2, seed=8), H)
    after = apply(state, PlaceToken(None))
    assert token_census(after) == token_census(state)
    assert after.seats[state.current].nature_tokens == 0


def test_refill_leaves_other_pairs_in_place() -> None:
    state = new_game(players=3, seed=21)
    after = play_turn(state, pair=2, tile_at=Hex(1, 0), rotation=0, token_at=None)
    assert after.display_tiles[0] == state.display_tiles[0]
    assert after.display_tiles[2:] == state.display_tiles[2:]
    assert after.display_tiles[1] == state.stack[0]


def test_solo_discards_the_furthest_pair_and_slides() -> None:
    state = new_game(players=1, seed=5)
    tiles, tokens = state.display_tiles, state.display_tokens
    after = play_turn(state, pair=2, tile_at=Hex(1, 0), rotation=0, token_at=None)
    assert after.discarded_tiles == (tiles[3],)
    assert after.discarded_tokens == (tokens[3],)
    assert after.display_tiles[2:] == (tiles[0], tiles[2])
    assert after.display_tokens[2:] == (tokens[0], tokens[2])
    assert after.display_tiles[:2] == state.stack[:2]
    assert after.current == 0


def test_solo_split_pair_slides_tiles_and_tokens_separately() -> None:
    state = with_nature_tokens(new_game(players=1, seed=5), 1)
    tiles, tokens = state.display_tiles, state.display_tokens
    after = play_turn(state, pair=4, token=1, tile_at=Hex(1, 0), rotation=0, token_at=None)
    assert after.discarded_tiles == (tiles[2],)
    assert after.discarded_tokens == (tokens[3],)
    assert after.display_tiles[2:] == (tiles[0], tiles[1])
    assert after.display_tokens[2:] == (tokens[1], tokens[2])


@pytest.mark.parametrize(
    ("options", "steps"),
    [
        ({"pair": 2}, [Take(2, 2), PlaceTile(Hex(1, 0), 3), PlaceToken(None)]),
        ({"pair": 4, "token": 1}, [Take(4, 1), PlaceTile(Hex(1, 0), 3), PlaceToken(None)]),
    ],
)
def test_a_whole_turn_is_its_actions_applied_in_order(
    options: dict[str, int], steps: list[Action]
) -> None:
    state = with_nature_tokens(new_game(players=2, seed=31), 1)
    one_by_one = state
    for step in steps:
        one_by_one = apply(one_by_one, step)
    turn = play_turn(state, tile_at=Hex(1, 0), rotation=3, token_at=None, **options)
    assert state_to_json(turn) == state_to_json(one_by_one)
    assert turn_actions(tile_at=Hex(1, 0), rotation=3, token_at=None, **options) == tuple(steps)


def test_a_turn_stops_at_its_first_refused_action() -> None:
    state = new_game(players=2, seed=31)
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, turn_actions(1, Hex(0, 0), 0, None))
    assert refused.value.reason is Reason.OCCUPIED
    with pytest.raises(IllegalAction) as refused:
        play_turn(
            state, pair=1, tile_at=Hex(1, 0), rotation=0, token_at=None, seat=1 - state.current
        )
    assert refused.value.reason is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_game_ends_after_twenty_turns_each(players: int) -> None:
    state, _ = play_random(players, seed=100 + players)
    assert state.is_over
    assert [s.turns_taken for s in state.seats] == [20] * players
    assert state.turn == 20 * players
    assert all(len(s.environment) == 23 for s in state.seats)
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, Take(1, 1))
    assert excinfo.value.reason is Reason.GAME_OVER
    assert sorted(tile_census(state)) == sorted(set(tile_census(state)))
    assert len(tile_census(state)) == expected_tile_count(state)
    assert token_census(state) == Counter({w: 20 for w in Wildlife})


def test_acting_out_of_turn_is_refused() -> None:
    state = new_game(players=3, seed=2)
    other = (state.current + 1) % 3
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, Take(1, 1), seat=other)
    assert excinfo.value.reason is Reason.NOT_YOUR_TURN
    assert apply(state, Take(1, 1), seat=state.current).phase is Phase.PLACE_TILE


@pytest.mark.parametrize(
    ("action", "phase"),
    [
        (PlaceTile(Hex(1, 0), 0), Phase.CHOOSE),
        (PlaceToken(None), Phase.CHOOSE),
        (Take(1, 1), Phase.PLACE_TILE),
        (WipeThree(), Phase.PLACE_TILE),
    ],
)
def test_actions_out_of_phase_are_refused(action: object, phase: Phase) -> None:
    state = new_game(players=2, seed=2)
    if phase is Phase.PLACE_TILE:
        state = apply(state, Take(1, 1))
    with pytest.raises(IllegalAction) as excinfo:
        apply(state, action)  # type: ignore[arg-type]
    assert excinfo.value.reason in (Reason.WRONG_PHASE, Reason.WIPE_NOT_ALLOWED)


@pytest.mark.parametrize(
    "text",
    ["wipe", "nature-wipe 1 3", "take 2", "take 2 4", "tile -1,2 3", "token 0,1", "token return"],
)
def test_action_text_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "take", "take 5", "take x", "tile 0,0 9", "nature-wipe", "nature-wipe 1 1", "fly 1"],
)
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_action(text)
