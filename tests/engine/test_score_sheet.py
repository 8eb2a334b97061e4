"""The score sheet: totals, ranking with the nature-token tie-break, shared victories, the
JSON shape; and every card's score unchanged by turning or moving a whole environment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import score_state, seat_score
from engine.components import CardSet, Habitat, Wildlife
from engine.environment import Environment
from engine.errors import InvalidInput
from engine.scoring import wildlife_score
from engine.scoring.corridors import largest_corridors
from engine.scoring.sheet import PlayerScore, ScoreSheet, final_scores
from tests.engine.helpers import random_environment, state_at_turn, turned

ALL_A = CardSet.parse("A")
PAIR = Environment.parse("0,0 M/b=b; 1,0 M/b=b")  # bear A: 4; mountain corridor 2
BARE = Environment.parse("0,0 M/b; 1,0 M/b")  # mountain corridor 2
LONGER = Environment.parse("0,0 M/b=b; 1,0 M/b=b; 2,0 M/b")  # bear A: 4; mountain 3


def test_totals_add_up() -> None:
    sheet = final_scores(ALL_A, [("alice", PAIR, 0), ("bob", BARE, 4)])
    alice, bob = sheet.players
    assert alice.wildlife == {Wildlife.BEAR: 4, **dict.fromkeys(list(Wildlife)[1:], 0)}
    assert alice.habitats[Habitat.MOUNTAIN] == 2
    assert alice.habitat_bonus[Habitat.MOUNTAIN] == 1  # a two-player tie
    assert (alice.wildlife_total, alice.habitat_total, alice.total) == (4, 3, 7)
    assert (bob.wildlife_total, bob.habitat_total, bob.nature_tokens, bob.total) == (0, 3, 4, 7)


def test_higher_total_ranks_first() -> None:
    sheet = final_scores(ALL_A, [("alice", PAIR, 0), ("dave", LONGER, 0)])
    # dave: 4 + 3 + 2 (larger mountain corridor) = 9; alice: 4 + 2 = 6.
    assert [p.total for p in sheet.players] == [6, 9]
    assert sheet.ranking == ("dave", "alice")
    assert sheet.winners == ("dave",)


def test_tie_broken_by_nature_tokens() -> None:
    sheet = final_scores(ALL_A, [("alice", PAIR, 0), ("bob", BARE, 4)])
    assert [p.total for p in sheet.players] == [7, 7]
    assert sheet.ranking == ("bob", "alice")
    assert sheet.winners == ("bob",)


def test_still_tied_is_a_shared_victory_in_seat_order() -> None:
    sheet = final_scores(ALL_A, [("carol", PAIR, 0), ("alice", PAIR, 0)])
    assert sheet.ranking == ("carol", "alice")
    assert sheet.winners == ("carol", "alice")


def test_three_players_tie_break_then_seat_order() -> None:
    # Three corridors of 2 tied for largest: +1 each. Everyone totals 7.
    sheet = final_scores(ALL_A, [("alice", PAIR, 0), ("bob", BARE, 4), ("carol", PAIR, 0)])
    assert [p.total for p in sheet.players] == [7, 7, 7]
    assert sheet.ranking == ("bob", "alice", "carol")
    assert sheet.winners == ("bob",)


def test_solo_bonus() -> None:
    row = Environment.parse("; ".join(f"{q},0 M/b" for q in range(7)))
    sheet = final_scores(ALL_A, [("solo", row, 3)])
    (solo,) = sheet.players
    assert solo.habitat_bonus[Habitat.MOUNTAIN] == 2
    assert solo.total == 7 + 2 + 3


def test_to_json_is_the_table_json_output() -> None:
    sheet = final_scores(ALL_A, [("alice", PAIR, 0), ("bob", BARE, 4)])
    zero_habitats = {h.value: 0 for h in Habitat}
    assert sheet.to_json() == {
        "players": [
            {
                "name": "alice",
                "wildlife": {"bear": 4, "elk": 0, "salmon": 0, "hawk": 0, "fox": 0},
                "wildlife_total": 4,
                "habitats": {**zero_habitats, "mountain": 2},
                "habitat_bonus": {**zero_habitats, "mountain": 1},
                "habitat_total": 3,
                "nature_tokens": 0,
                "total": 7,
            },
            {
                "name": "bob",
                "wildlife": {"bear": 0, "elk": 0, "salmon": 0, "hawk": 0, "fox": 0},
                "wildlife_total": 0,
                "habitats": {**zero_habitats, "mountain": 2},
                "habitat_bonus": {**zero_habitats, "mountain": 1},
                "habitat_total": 3,
                "nature_tokens": 4,
                "total": 7,
            },
        ],
        "ranking": ["bob", "alice"],
    }
    assert list(sheet.to_json()["players"][0]) == [
        "name",
        "wildlife",
        "wildlife_total",
        "habitats",
        "habitat_bonus",
        "habitat_total",
        "nature_tokens",
        "total",
    ]


def test_sheet_values() -> None:
    score = PlayerScore(
        "x", {Wildlife.ELK: 5}, {Habitat.RIVER: 4}, {Habitat.RIVER: 2}, nature_tokens=1
    )
    assert (score.wildlife_total, score.habitat_total, score.total) == (5, 6, 12)
    sheet = ScoreSheet((score,))
    assert sheet.player("x") is score
    assert ScoreSheet(()).winners == ()
    with pytest.raises(KeyError):
        sheet.player("y")


@pytest.mark.parametrize(
    "players",
    [
        [],
        [(f"p{i}", BARE, 0) for i in range(5)],
        [("alice", BARE, 0), ("alice", PAIR, 0)],
        [("alice", BARE, -1)],
    ],
    ids=["no players", "five players", "one name twice", "negative nature tokens"],
)
def test_final_scores_refuses_bad_players(players: list[tuple[str, Environment, int]]) -> None:
    with pytest.raises(InvalidInput):
        final_scores(ALL_A, players)


# Turning or moving a whole environment changes no score.


EVERY_CARD = [CardSet.parse(name) for name in ("A", "B", "C", "D", "family", "intermediate")]


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(1, 23),
    st.integers(1, 5),
    st.integers(-9, 9),
    st.integers(-9, 9),
)
def test_scores_survive_turning_and_moving(
    seed: int, size: int, turns: int, dq: int, dr: int
) -> None:
    env = random_environment(seed, size)
    other = turned(env, turns, dq, dr)
    for cards in EVERY_CARD:
        assert wildlife_score(cards, other) == wildlife_score(cards, env), cards
    assert largest_corridors(other) == largest_corridors(env)


def test_far_away_environments_score_the_same() -> None:
    env = random_environment(7, 23)
    far = turned(env, 0, 10**9, -(10**12))
    for cards in EVERY_CARD:
        assert wildlife_score(cards, far) == wildlife_score(cards, env)
    assert largest_corridors(far) == largest_corridors(env)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_seat_score_is_the_sheet_without_the_majority_bonuses(players: int) -> None:
    state = state_at_turn(players, 7, 6 * players, cards="A")
    sheet = score_state(state)
    for seat, column in enumerate(sheet.players):
        # Solo, the bonus is the seat's own (a corridor of 7): it stays in.
        majority = 0 if players == 1 else sum(column.habitat_bonus.values())
        assert seat_score(state, seat) == column.total - majority
    if players > 1:
        assert any(sum(c.habitat_bonus.values()) for c in sheet.players)
