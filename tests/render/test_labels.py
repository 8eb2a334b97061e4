"""Where each hex label goes: one per placed tile and per legal tile position, no others,
each its hex's text form, inside its hex, legible and clear of the others."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import positions
from engine import Environment, GameState, Hex, Phase, PlacedTile, PlaceTile, legal_actions
from engine.components import HABITAT_TILES_ALL
from engine.game import new_game
from render.environment import MAX_HEIGHT, MAX_WIDTH, MIN_LABEL_SIZE, plan_environment
from render.layout import hex_contains


def _placing(players: int, seed: int, turns: int) -> GameState:
    """A seeded game stopped where the current player must place a tile."""
    return positions.play(
        new_game(players=players, seed=seed), seed, turns=turns, until=Phase.PLACE_TILE
    )


def _legal_positions(state: GameState) -> set[Hex]:
    return {a.at for a in legal_actions(state) if isinstance(a, PlaceTile)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(0, 10_000), st.integers(0, 70))
def test_labels_are_exactly_the_tiles_and_the_legal_positions(
    players: int, seed: int, turns: int
) -> None:
    state = _placing(players, seed, turns)
    if state.is_over:
        return
    env = state.current_player.environment
    labelled = {label.hex for label in plan_environment(env).labels}
    assert labelled == set(env) | _legal_positions(state)


@pytest.mark.parametrize(
    "state",
    [
        positions.start_of_game(),
        positions.late_four_player(),
        positions.straight_line(),
        positions.solo_game(),
    ],
    ids=["start", "late", "line", "solo"],
)
def test_label_geometry(state: GameState) -> None:
    for seat in state.seats:
        env = seat.environment
        plan = plan_environment(env)
        assert plan.width <= MAX_WIDTH
        assert plan.height <= MAX_HEIGHT
        assert plan.label_size >= MIN_LABEL_SIZE
        assert len(plan.labels) == len({label.hex for label in plan.labels})
        for label in plan.labels:
            # The text is the hex's text form, which the commands read back.
            assert label.text == str(label.hex)
            assert Hex.parse(label.text) == label.hex
            assert label.on_tile == (label.hex in env)
            left, top, right, bottom = label.box
            assert 0 <= left < right <= plan.width
            assert 0 < top < bottom <= plan.height
            centre = plan.layout.pixel_center(label.hex)
            for corner in ((left, top), (right, top), (left, bottom), (right, bottom)):
                assert hex_contains(centre, plan.layout.size + 0.5, corner), label
        for a, b in combinations(plan.labels, 2):
            ax0, ay0, ax1, ay1 = a.box
            bx0, by0, bx1, by1 = b.box
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)


def test_a_straight_line_of_23_tiles_fits_and_stays_readable() -> None:
    tiles = HABITAT_TILES_ALL[:23]
    env = Environment({Hex(q, 0): PlacedTile(tile) for q, tile in enumerate(tiles)})
    plan = plan_environment(env)
    assert plan.width <= MAX_WIDTH
    assert plan.label_size >= MIN_LABEL_SIZE
    assert plan.hex_size >= 26
    assert len(plan.labels) == 23 + len(env.frontier())
    # The same along a diagonal axis.
    diagonal = Environment({Hex(q, -q): PlacedTile(t) for q, t in enumerate(tiles)})
    plan = plan_environment(diagonal)
    assert plan.height <= MAX_HEIGHT
    assert plan.label_size >= MIN_LABEL_SIZE


def test_a_hex_keeps_its_label_all_game() -> None:
    state = new_game(players=2, seed=9)
    seen: dict[Hex, str] = {}
    for _ in range(12):
        for seat in state.seats:
            for label in plan_environment(seat.environment).labels:
                assert seen.setdefault(label.hex, label.text) == label.text
        state = positions.play(state, state.turn, turns=1)


def test_an_empty_environment_plans_no_labels() -> None:
    plan = plan_environment(Environment())
    assert plan.labels == ()
    assert plan.width <= MAX_WIDTH
