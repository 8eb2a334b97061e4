"""Properties of whole random games from random seeds and player counts."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CascadiaError,
    GameRecord,
    NatureWipe,
    PlaceTile,
    PlaceToken,
    Take,
    WipeThree,
    apply,
    legal_actions,
    new_game,
    public_view,
    record_for,
    state_from_json,
    state_to_json,
)
from engine.components import Wildlife
from engine.hexes import Hex
from tests.engine.helpers import expected_tile_count, tile_census, token_census

FULL = Counter({w: 20 for w in Wildlife})
seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=1, max_value=4)


def _random_action(rng: random.Random) -> object:
    hex_ = Hex(rng.randint(-4, 4), rng.randint(-4, 4))
    return rng.choice(
        [
            WipeThree(),
            NatureWipe(tuple(sorted(rng.sample((1, 2, 3, 4), rng.randint(1, 4))))),
            Take(rng.randint(1, 4), rng.randint(1, 4)),
            PlaceTile(hex_, rng.randint(0, 5)),
            PlaceToken(rng.choice([None, hex_])),
        ]
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=player_counts, seed=seeds)
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    start = new_game(players=players, seed=seed)
    state = start
    rng = random.Random(seed)
    actions = []
    while not state.is_over:
        legal = legal_actions(state)
        assert legal
        assert token_census(state) == FULL
        assert len(tile_census(state)) == expected_tile_count(state)
        # a random action that is not legal raises and changes nothing
        probe = _random_action(rng)
        held = state.held_tile
        if isinstance(probe, PlaceTile) and held is not None and len(held.habitats) == 1:
            # every rotation of a one-habitat tile is the same placement, enumerated once
            probe = PlaceTile(probe.at, 0)
        if probe not in legal:
            before = state_to_json(state)
            try:
                apply(state, probe)  # type: ignore[arg-type]
            except CascadiaError:
                pass
            else:
                raise AssertionError(f"{probe} applied although not enumerated")
            assert state_to_json(state) == before
        action = rng.choice(legal)
        actions.append(action)
        state = apply(state, action)
    assert [s.turns_taken for s in state.seats] == [20] * players
    assert token_census(state) == FULL
    assert len(set(tile_census(state))) == expected_tile_count(state)
    record = record_for(start, actions)
    reread = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert reread == record
    assert reread.replay() == state


@settings(max_examples=20, deadline=None)
@given(players=player_counts, seed=seeds, steps=st.integers(min_value=0, max_value=120))
def test_every_enumerated_action_applies_and_state_json_round_trips(
    players: int, seed: int, steps: int
) -> None:
    state = new_game(players=players, seed=seed)
    rng = random.Random(seed ^ steps)
    for _ in range(steps):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    for action in legal_actions(state):
        apply(state, action)
    text = json.dumps(state_to_json(state))
    assert state_from_json(json.loads(text)) == state
    view = json.dumps(public_view(state))
    assert "seed" not in json.loads(view)
    assert json.loads(view)["stack"] == state.tiles_left
