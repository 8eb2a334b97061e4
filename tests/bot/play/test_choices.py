"""Autocomplete choices: legal positions only, filtered by the typed text, at most 25."""

from __future__ import annotations

import random

import pytest

from bot.game.captions import MAX_CHOICES
from bot.panel.gains import place_gains, rotation_gain
from bot.play.choices import (
    MAX_NAME,
    RETURN,
    Choice,
    matching,
    parse_hex,
    rotation_choices,
    tile_choices,
    token_choices,
)
from engine import Hex, PlaceTile, PlaceToken, Take, apply, legal_actions, new_game
from engine.game import GameState
from i18n import PSEUDO, speaking


def _played(state: GameState, turns: int, seed: int = 0) -> GameState:
    """``state`` after ``turns`` random legal whole turns."""
    rng = random.Random(seed)
    for _ in range(turns):
        pair = rng.randint(1, 4)
        state = apply(state, Take(pair, pair))
        state = apply(
            state, rng.choice([a for a in legal_actions(state) if isinstance(a, PlaceTile)])
        )
        state = apply(
            state, rng.choice([a for a in legal_actions(state) if isinstance(a, PlaceToken)])
        )
    return state


def _legal_token_hexes(state: GameState, pair: int, tile_at: Hex, rotation: int) -> set[str]:
    placed = apply(apply(state, Take(pair, pair)), PlaceTile(tile_at, rotation))
    return {str(a.at) for a in legal_actions(placed) if isinstance(a, PlaceToken) and a.at}


def test_tile_choices_are_the_legal_places() -> None:
    state = _played(new_game(players=2, seed=1, cards="A"), 6)
    seat = state.current
    taken = apply(state, Take(1, 1))
    legal = {str(a.at) for a in legal_actions(taken) if isinstance(a, PlaceTile)}
    found = tile_choices(state, seat)
    assert {c.value for c in found} == legal
    assert all(c.name == c.value for c in found)
    distances = [Hex.parse(c.value).distance(Hex(0, 0)) for c in found]
    assert distances == sorted(distances)


def test_tile_choices_for_a_waiting_player_are_their_own() -> None:
    state = new_game(players=2, seed=1, cards="A")
    waiting = 1 - state.current
    env = state.seats[waiting].environment
    assert {Hex.parse(c.value) for c in tile_choices(state, waiting)} == set(env.frontier())


def test_token_choices_follow_the_other_options() -> None:
    state = _played(new_game(players=2, seed=2, cards="A"), 8, seed=2)
    seat = state.current
    for pair in (1, 2, 3, 4):
        for tile_at in state.current_player.environment.frontier()[:3]:
            found = token_choices(state, seat, pair=pair, tile_at=tile_at, rotation=2, token=None)
            assert found[-1] == Choice("return the token to the bag", RETURN)
            assert {c.value for c in found[:-1]} == _legal_token_hexes(state, pair, tile_at, 2)


def test_token_choices_name_the_new_tile() -> None:
    state = new_game(players=2, seed=2, cards="A")
    seat = state.current
    species = state.display_tokens[0]
    tile = state.display_tiles[0]
    assert species is not None
    assert tile is not None
    tile_at = state.current_player.environment.frontier()[0]
    found = token_choices(state, seat, pair=1, tile_at=tile_at, rotation=0, token=None)
    if species in tile.wildlife:
        assert Choice(f"{tile_at}: the tile you place", str(tile_at)) in found


def test_token_choices_without_a_pair_cover_every_display_token() -> None:
    state = new_game(players=2, seed=2, cards="A")
    env = state.current_player.environment
    expected = {
        str(h)
        for token in state.display_tokens
        if token is not None
        for h in env.token_targets(token)
    }
    found = token_choices(state, state.current, pair=None, tile_at=None, rotation=None, token=None)
    assert {c.value for c in found[:-1]} == expected


def test_token_choices_use_the_free_choice_token() -> None:
    state = new_game(players=2, seed=2, cards="A")
    env = state.current_player.environment
    token = state.display_tokens[3]
    assert token is not None
    found = token_choices(state, state.current, pair=1, tile_at=None, rotation=None, token=4)
    assert {c.value for c in found[:-1]} == {str(h) for h in env.token_targets(token)}


def test_token_choices_with_a_bad_tile_position_fall_back_to_placed_tiles() -> None:
    state = new_game(players=2, seed=2, cards="A")
    token = state.display_tokens[0]
    assert token is not None
    env = state.current_player.environment
    found = token_choices(state, state.current, pair=1, tile_at=Hex(0, 0), rotation=0, token=None)
    assert {c.value for c in found[:-1]} == {str(h) for h in env.token_targets(token)}


def test_matching_filters_and_limits() -> None:
    options = [Choice(f"{q},{r}", f"{q},{r}") for q in range(-6, 7) for r in range(-6, 7)]
    assert len(matching(options, "")) == MAX_CHOICES
    found = matching(options, "1,-")
    assert found
    assert all("1,-" in c.value for c in found)
    assert found[0].value.startswith("1,-")
    assert matching(options, " 3 , 4 ")[0].value == "3,4"
    assert matching([Choice("return the token to the bag", RETURN)], "ret")[0].value == RETURN
    assert matching(options, "zzz") == []
    scored = [Choice("2,-1: up to +3", "2,-1"), Choice("0,3: up to -1", "0,3")]
    assert matching(scored, "-1") == scored[:1], "a score change is not a position"
    assert matching([Choice("1,0: forest (bear)", "1,0")], "bear")[0].value == "1,0"


@pytest.mark.parametrize(
    ("text", "hex_"),
    [("1,-2", Hex(1, -2)), ("(0, 3)", Hex(0, 3)), ("", None), ("x", None), (None, None)],
)
def test_parse_hex(text: str | None, hex_: Hex | None) -> None:
    assert parse_hex(text) == hex_


def _two_habitat_pair(state: GameState) -> int:
    return next(
        slot
        for slot, tile in enumerate(state.display_tiles, start=1)
        if tile is not None and len(tile.habitats) == 2
    )


def test_tile_choices_with_a_pair_show_the_panels_gains_best_first() -> None:
    state = _played(new_game(players=2, seed=3, cards="A"), 6, seed=3)
    pair = _two_habitat_pair(state)
    found = tile_choices(state, state.current, pair=pair)
    places = place_gains(state, Take(pair, pair))
    assert [c.value for c in found] == [str(g.at) for g in places]
    assert [c.name for c in found] == [
        f"{g.at}: up to {g.gain:+d} with rotation {g.rotation}" for g in places
    ]
    gains = [g.gain for g in places]
    assert gains == sorted(gains, reverse=True)


def test_tile_choices_without_a_nature_token_for_a_free_choice_are_plain() -> None:
    state = new_game(players=2, seed=3, cards="A")
    found = tile_choices(state, state.current, pair=1, token=2)
    assert all(c.name == c.value for c in found)


def test_rotation_choices_say_where_each_habitat_faces_and_the_corridor_change() -> None:
    state = _played(new_game(players=2, seed=3, cards="A"), 6, seed=3)
    pair = _two_habitat_pair(state)
    tile = state.display_tiles[pair - 1]
    assert tile is not None
    first, second = (h.value for h in tile.habitats)
    at = state.current_player.environment.frontier()[0]
    found = rotation_choices(state, state.current, pair=pair, tile_at=at, token=None)
    assert [c.value for c in found] == ["0", "1", "2", "3", "4", "5"]
    gain = rotation_gain(state, Take(pair, pair), at, 2)
    assert found[2].name == f"2: {first} faces west, {second} east (corridors {gain:+d})"
    assert found[0].name.startswith(f"0: {first} faces north-east, {second} south-west")
    assert all(len(c.name) <= 100 for c in found)
    # Before the place is typed: the facing only.
    early = rotation_choices(state, state.current, pair=pair, tile_at=None, token=None)
    assert early[2].name == f"2: {first} faces west, {second} east"


def test_rotation_choices_for_a_one_habitat_tile_and_without_a_pair() -> None:
    state = new_game(players=2, seed=3, cards="A")
    tile = state.display_tiles[1]
    assert tile is not None
    assert len(tile.habitats) == 1
    at = state.current_player.environment.frontier()[0]
    found = rotation_choices(state, state.current, pair=2, tile_at=at, token=None)
    assert found == [Choice("0: one habitat, every way is the same", "0")]
    assert all("rotation" not in c.name for c in tile_choices(state, state.current, pair=2))
    plain = rotation_choices(state, state.current, pair=None, tile_at=None, token=None)
    assert [c.value for c in plain] == ["0", "1", "2", "3", "4", "5"]
    assert plain[0].name == "0: the first habitat faces north-east"


def test_the_choices_are_worded_in_the_typer_s_language_and_fit_discord() -> None:
    state = _played(new_game(players=2, seed=3, cards="A"), 6, seed=3)
    pair = _two_habitat_pair(state)
    at = state.current_player.environment.frontier()[0]
    with speaking("fr"):
        tokens = token_choices(
            state, state.current, pair=None, tile_at=None, rotation=None, token=None
        )
        places = tile_choices(state, state.current, pair=pair)
    assert tokens[-1] == Choice("remettre le jeton dans le sac", RETURN)
    assert " : jusqu\u2019à " in places[0].name
    assert places[0].value == str(place_gains(state, Take(pair, pair))[0].at)
    with speaking("de"):
        turns = rotation_choices(state, state.current, pair=pair, tile_at=at, token=None)
    assert [c.value for c in turns] == ["0", "1", "2", "3", "4", "5"]
    assert " nach " in turns[0].name
    assert "(Gebiete " in turns[0].name
    # A long translation is cut to what Discord shows, the value kept whole.
    with speaking(PSEUDO):
        long = rotation_choices(state, state.current, pair=pair, tile_at=at, token=None)
    shown = matching(long, "")
    assert [c.value for c in shown] == [c.value for c in long]
    assert all(len(c.name) <= MAX_NAME for c in shown)
