"""The computer players: legal moves only, determinism, no peeking at the hidden order."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameState, IllegalAction, InvalidInput, Phase, Take, WipeThree, apply
from engine.players import POLICIES, Budget, choose, play_game, policy_names
from engine.players.fast import expected_best
from engine.players.hidden import sample_world, unseen_tiles
from engine.players.strong import lower_bound
from engine.scorer import MoveScorer, own_score
from tests.engine.helpers import state_at_turn, with_nature_tokens

CARDS = ("random", "A", "family", "intermediate")
SEARCH = Budget(rollouts=6)


@st.composite
def turn_states(draw: st.DrawFn, *, late: bool = False, players: int | None = None) -> GameState:
    if players is None:
        players = draw(st.integers(min_value=1, max_value=4))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    last = 20 * players - 1
    first = last - 5 * players if late else 0
    turns = draw(st.integers(min_value=first, max_value=last))
    state = state_at_turn(players, seed, turns, cards=draw(st.sampled_from(CARDS)))
    if draw(st.booleans()):
        state = with_nature_tokens(state, draw(st.integers(min_value=1, max_value=3)))
    return state


def finish_turn_with(state: GameState, policy: str, seed: int, budget: Budget) -> GameState:
    """Apply ``policy``'s actions until the seat's turn is over; each must be legal."""
    seat, turn = state.current, state.turn
    while not state.is_over and state.turn == turn:
        actions = choose(state, policy, seed=seed, budget=budget)
        assert actions
        for action in actions:
            state = apply(state, action, seat=seat)
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_greedy_and_fast_only_play_legal_moves(players: int) -> None:
    """500 random states of each player count (the issue's bar), every policy finishing the
    turn with legal actions only."""

    @settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(state=turn_states(players=players), seed=st.integers(min_value=0, max_value=2**16))
    def check(state: GameState, seed: int) -> None:
        assert len(state.seats) == players
        for policy in ("random", "greedy", "fast"):
            after = finish_turn_with(state, policy, seed, Budget())
            turns = state.current_player.turns_taken + 1
            assert after.seats[state.current].turns_taken == turns

    check()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states(late=True), seed=st.integers(min_value=0, max_value=2**16))
def test_strong_only_plays_legal_moves(state: GameState, seed: int) -> None:
    after = finish_turn_with(state, "strong", seed, SEARCH)
    assert after.seats[state.current].turns_taken == state.current_player.turns_taken + 1


@pytest.mark.parametrize("policy", ["greedy", "fast", "strong"])
@pytest.mark.parametrize("phase", [Phase.PLACE_TILE, Phase.PLACE_TOKEN])
def test_a_turn_under_way_is_finished_legally(policy: str, phase: Phase) -> None:
    state = apply(state_at_turn(3, 21, 17), Take(2, 2))
    if phase is Phase.PLACE_TOKEN:
        state = apply(state, next(iter(choose(state, "random", seed=0))))
    assert state.phase is phase
    after = finish_turn_with(state, policy, 1, SEARCH)
    assert after.turn == state.turn + 1


def seat_score(state: GameState, seat: int) -> int:
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def test_greedy_takes_the_best_immediate_gain() -> None:
    for seed in range(10):
        state = with_nature_tokens(state_at_turn(4, seed, 30, cards="A"), seed % 2)
        after = finish_turn_with(state, "greedy", seed, Budget())
        gain = seat_score(after, state.current) - seat_score(state, state.current)
        assert gain == MoveScorer(state).best().gain


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_one_game_per_policy_to_the_end_and_the_same_seed_gives_the_same_game(
    policy: str,
) -> None:
    first = play_game(players=1, seed=4, cards="A", policies=[policy], budget=SEARCH)
    assert first.state.is_over
    assert first.state.seats[0].turns_taken == 20
    again = play_game(players=1, seed=4, cards="A", policies=[policy], budget=SEARCH)
    assert again.actions == first.actions


def test_seats_play_their_own_policies() -> None:
    game = play_game(players=2, seed=8, cards="random", policies=["random", "fast"])
    assert game.state.is_over
    assert game.policies == ("random", "fast")
    assert {seat for seat, _ in game.seconds} == {0, 1}
    assert seat_score(game.state, 1) > seat_score(game.state, 0)


def _reshuffled(state: GameState, seed: int) -> GameState:
    """The same public state with another hidden order: stack order and draw seed."""
    stack = list(state.stack)
    random.Random(seed).shuffle(stack)
    return replace(state, stack=tuple(stack), seed=state.seed + seed + 1, draws=seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states(), seed=st.integers(min_value=0, max_value=2**16))
def test_the_hidden_order_does_not_change_fast(state: GameState, seed: int) -> None:
    other = _reshuffled(state, seed)
    assert choose(other, "fast", seed=seed) == choose(state, "fast", seed=seed)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=turn_states(late=True), seed=st.integers(min_value=0, max_value=2**16))
def test_the_hidden_order_does_not_change_strong(state: GameState, seed: int) -> None:
    other = _reshuffled(state, seed)
    assert choose(other, "strong", seed=seed, budget=SEARCH) == choose(
        state, "strong", seed=seed, budget=SEARCH
    )


def test_sampled_worlds_keep_the_public_state_and_every_tile() -> None:
    state = state_at_turn(4, 5, 40)
    world = sample_world(state, random.Random(1))
    assert len(world.stack) == len(state.stack)
    assert {t.id for t in world.stack} <= {t.id for t in unseen_tiles(state)}
    assert world.seats == state.seats
    assert world.display_tokens == state.display_tokens
    assert world.bag == state.bag
    assert sample_world(_reshuffled(state, 3), random.Random(1)).stack == world.stack


def test_expected_best_of_draws() -> None:
    assert expected_best([5.0, 0.0], [1, 9], draws=1) == pytest.approx(0.5)
    # four draws from 2 good and 2 bad tokens always include a good one
    assert expected_best([3.0, 1.0], [2, 2], draws=4) == pytest.approx(3.0)
    # one good token among ten, four draws: seen with chance 4/10
    assert expected_best([10.0, 0.0], [1, 9], draws=4) == pytest.approx(4.0)
    assert expected_best([1.0], [0], draws=4) == 0.0


def test_the_gate_needs_a_confident_difference() -> None:
    assert lower_bound([1]) == float("-inf")
    assert lower_bound([2, 2, 3, 2]) > 0
    assert lower_bound([5, -4, 3, -2]) < 0


def test_policy_names_are_checked() -> None:
    assert policy_names("Greedy, fast") == ["greedy", "fast"]
    with pytest.raises(InvalidInput):
        policy_names("greedy,clever")
    with pytest.raises(InvalidInput):
        choose(state_at_turn(1, 1, 1), "clever", seed=0)


def test_no_move_once_the_game_is_over() -> None:
    over = play_game(players=1, seed=2, cards="A", policies=["greedy"]).state
    with pytest.raises(IllegalAction):
        choose(over, "greedy", seed=0)


def test_players_never_wipe_but_play_on_after_a_wipe() -> None:
    state = state_at_turn(2, 3, 6)
    for policy in ("greedy", "fast"):
        actions = choose(state, policy, seed=0)
        assert not any(isinstance(a, WipeThree) for a in actions)
