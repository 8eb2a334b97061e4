"""State and record JSON: exact round trips, hidden information, bad input."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    GameRecord,
    InvalidInput,
    apply,
    new_game,
    progress_from_json,
    public_view,
    state_from_json,
    state_to_json,
)
from engine.players import random_action
from tests.engine.helpers import play_random


def test_public_view_hides_the_stack_order_and_seed() -> None:
    state = new_game(players=4, seed=1234567)
    view = public_view(state)
    text = json.dumps(view)
    assert "1234567" not in text
    assert view["stack"] == 79
    hidden_order = [t.id for t in state.stack]
    assert str(hidden_order[:5])[1:-1] not in text


def test_record_replays_a_finished_game() -> None:
    state, actions = play_random(3, seed=77, cards="family")
    record = GameRecord(3, state.cards, 77, tuple(actions))
    assert record.replay() == state
    assert str(record.cards) == "family"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("seed"),
        lambda d: d.update(version=99),
        lambda d: d["display"].update(tiles=[1000, None, None, None]),
        lambda d: d["seats"][0]["environment"][0].update(token="dragon"),
        lambda d: d.update(phase="dancing"),
        lambda d: d.update(cards="ZZZZZ"),
    ],
)
def test_unreadable_states_raise_invalid_input(mutate: object) -> None:
    data = state_to_json(new_game(players=2, seed=3))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(InvalidInput):
        state_from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"version": 1, "players": "two", "cards": "A", "seed": 1, "actions": []},
        {"version": 1, "players": 2, "cards": "A", "seed": 1, "actions": ["jump"]},
        {"version": 2, "players": 2, "cards": "A", "seed": 1, "actions": []},
    ],
)
def test_unreadable_records_raise_invalid_input(data: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        GameRecord.from_json(data)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_progress_agrees_with_the_whole_state_at_every_step(players: int) -> None:
    state = new_game(players=players, seed=players)
    rng = random.Random(players)
    while True:
        progress = progress_from_json(json.loads(json.dumps(state_to_json(state))))
        assert (progress.current, progress.turn, progress.round, progress.is_over) == (
            state.current,
            state.turn,
            state.round,
            state.is_over,
        )
        if state.is_over:
            break
        state = apply(state, random_action(state, rng))


@pytest.mark.parametrize(
    "mutate",
    [lambda d: d.update(version=9), lambda d: d.pop("current"), lambda d: d.update(phase="x")],
)
def test_unreadable_progress_raises_invalid_input(mutate: object) -> None:
    data = state_to_json(new_game(players=2, seed=3))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(InvalidInput):
        progress_from_json(data)
