"""The random computer player only ever picks enumerated legal actions."""

from __future__ import annotations

import random

import pytest

from engine import PlaceTile, apply, legal_actions, new_game
from engine.players import random_action, random_game


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_player_picks_legal_actions_to_the_end(players: int) -> None:
    state = new_game(players=players, seed=players)
    rng = random.Random(players)
    kinds = set()
    while not state.is_over:
        action = random_action(state, rng)
        assert action in legal_actions(state), action
        kinds.add(type(action).__name__)
        state = apply(state, action)
    assert [s.turns_taken for s in state.seats] == [20] * players
    assert {"Take", "PlaceTile", "PlaceToken"} <= kinds


def test_random_game_is_deterministic() -> None:
    first = random_game(players=3, seed=42)
    assert random_game(players=3, seed=42) == first
    assert random_game(players=3, seed=43) != first
    assert any(isinstance(a, PlaceTile) for a in first[1])


def test_no_action_once_the_game_is_over() -> None:
    state, _ = random_game(players=1, seed=5)
    with pytest.raises(ValueError, match="over"):
        random_action(state, random.Random(0))
