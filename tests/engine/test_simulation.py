"""The simulation's fast path against the public ``apply``: the same games, step for step."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game
from engine.game import GameState
from engine.move import Move
from engine.scorer import MoveScorer, own_score
from engine.simulation import Simulation, game_draws

seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=1, max_value=4)


def _random_move(state: GameState, rng: random.Random) -> Move:
    """A random legal whole move, free choices and returned tokens among them."""
    return rng.choice(MoveScorer(state).moves()).move


def _scores(state: GameState) -> list[int]:
    return [
        own_score(state.cards, seat.environment, seat.nature_tokens, solo=state.solo)
        for seat in state.seats
    ]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=player_counts, seed=seeds, cards=st.sampled_from(["A", "random"]))
def test_the_simulation_plays_as_apply(players: int, seed: int, cards: str) -> None:
    state = new_game(players=players, seed=seed, cards=cards)
    simulation = Simulation(state, game_draws(state.seed, state.draws))
    rng = random.Random(seed)
    while not state.is_over:
        move = _random_move(state, rng)
        state = move.play(state)
        simulation.play(move)
        assert simulation.state() == state
        assert [simulation.score(seat) for seat in range(players)] == _scores(state)
    assert simulation.over


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=player_counts, seed=seeds, turns=st.integers(min_value=0, max_value=60))
def test_a_simulation_can_start_from_any_turn(players: int, seed: int, turns: int) -> None:
    state = new_game(players=players, seed=seed, cards="A")
    rng = random.Random(seed)
    for _ in range(turns):
        if state.is_over:
            break
        state = _random_move(state, rng).play(state)
    simulation = Simulation(state, game_draws(state.seed, state.draws))
    assert simulation.state() == state
    while not state.is_over:
        move = MoveScorer(state).best(free_choices=False).move
        assert MoveScorer(simulation).best(free_choices=False).move == move
        state = move.play(state)
        simulation.play(move)
    assert simulation.state() == state


def test_a_simulation_does_not_change_the_state_it_starts_from() -> None:
    state = new_game(players=2, seed=5, cards="A")
    before = (state.display_tiles, state.display_tokens, state.stack, state.bag, state.seats)
    simulation = Simulation(state, random.Random(1).randrange)
    while not simulation.over:
        simulation.play(MoveScorer(simulation).best(free_choices=False).move)
    assert (state.display_tiles, state.display_tokens, state.stack, state.bag, state.seats) == (
        before
    )


def test_a_simulation_refuses_a_move_from_an_empty_pair() -> None:
    state = new_game(players=1, seed=2, cards="A")
    simulation = Simulation(state, random.Random(1).randrange)
    while not simulation.over:
        simulation.play(MoveScorer(simulation).best(free_choices=False).move)
    move = Move(1, 1, state.current_player.environment.frontier()[0], 0, None)
    with pytest.raises(ValueError, match="cannot be played"):
        simulation.play(move)
