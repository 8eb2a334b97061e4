"""Largest habitat corridors (under every rotation and direction) and majority bonuses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.components import Habitat
from engine.environment import Environment
from engine.errors import InvalidInput
from engine.hexes import Hex
from engine.scoring.corridors import habitat_bonuses, largest_corridors
from tests.engine.helpers import random_environment, turned

M, F, P, W, R = Habitat


def corridors(text: str) -> dict[str, int]:
    """The nonzero largest corridors of an environment given in its text form, by letter."""
    return {
        h.letter: size for h, size in largest_corridors(Environment.parse(text)).items() if size
    }


@pytest.mark.parametrize("rotation", range(6))
def test_split_tile_joins_when_its_mountain_side_faces_the_mountain(rotation: int) -> None:
    # The split tile at 1,0 shows mountain on edges k..k+2; its edge 3 faces the tile at 0,0.
    joined = rotation in (1, 2, 3)
    assert corridors(f"0,0 M/b; 1,0 MF/be@{rotation}") == {"M": 2 if joined else 1, "F": 1}


@pytest.mark.parametrize("direction", range(6))
def test_each_direction_connects_through_facing_edges(direction: int) -> None:
    there = Hex(0, 0).neighbor(direction)
    facing = (direction + 3) % 6
    # Rotation ``facing`` puts mountain on the facing edge; rotation ``direction`` puts forest.
    assert corridors(f"0,0 M/b; {there} MF/be@{facing}") == {"M": 2, "F": 1}
    assert corridors(f"0,0 M/b; {there} MF/be@{direction}") == {"M": 1, "F": 1}


CASES = [
    pytest.param("", {}, id="empty"),
    pytest.param("0,0 M/b", {"M": 1}, id="one tile"),
    pytest.param("0,0 M/b; 1,0 F/b", {"M": 1, "F": 1}, id="different habitats touch"),
    pytest.param("0,0 M/b; 1,0 MF/be@1; 2,0 F/b", {"M": 2, "F": 2}, id="through a split tile"),
    pytest.param("0,0 M/b; 1,0 M/b; 2,0 M/b; 0,2 M/b", {"M": 3}, id="largest of two corridors"),
    pytest.param("1,0 W/s; 1,-1 W/s; 0,-1 W/s; -1,0 W/s; -1,1 W/s; 0,1 W/s", {"W": 6}, id="a ring"),
    pytest.param(
        # Mountain faces east at 0,0 (edges 0,1,2) and west at 1,0 (edges 3,4,5): joined.
        # Their river sides are on the far edges and do not touch.
        "0,0 MR/be@0; 1,0 MR/be@3",
        {"M": 2, "R": 1},
        id="two split tiles meet on one habitat",
    ),
    pytest.param(
        # Edge 0 of 0,0 is mountain, edge 3 of 1,0 is river: no corridor joins them.
        "0,0 MR/be@0; 1,0 MR/be@0",
        {"M": 1, "R": 1},
        id="two split tiles that do not match",
    ),
    pytest.param(
        # A row of prairie with one forest tile in the middle: two corridors of two.
        "0,0 P/e; 1,0 P/e; 2,0 F/b; 3,0 P/e; 4,0 P/e",
        {"P": 2, "F": 1},
        id="a broken row",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_largest_corridors(text: str, expected: dict[str, int]) -> None:
    assert corridors(text) == expected


def test_every_habitat_is_reported_in_order() -> None:
    assert list(largest_corridors(Environment())) == list(Habitat)


# Whole environments: rotating or moving them changes nothing, and an independent walk over
# facing edges agrees.


def walked_corridors(env: Environment) -> dict[Habitat, int]:
    best = dict.fromkeys(Habitat, 0)
    for habitat in Habitat:
        seen: set[Hex] = set()
        for start, placed in env.items():
            if start in seen or habitat not in placed.edges:
                continue
            seen.add(start)
            group = [start]
            for hex_ in group:
                for d in range(6):
                    there = hex_.neighbor(d)
                    if (
                        there in env
                        and there not in seen
                        and env[hex_].edges[d] == habitat
                        and env[there].edges[(d + 3) % 6] == habitat
                    ):
                        seen.add(there)
                        group.append(there)
            best[habitat] = max(best[habitat], len(group))
    return best


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(1, 23),
    st.integers(0, 5),
    st.integers(-5, 5),
    st.integers(-5, 5),
)
def test_corridors_survive_turning_and_moving(
    seed: int, size: int, turns: int, dq: int, dr: int
) -> None:
    env = random_environment(seed, size)
    found = largest_corridors(env)
    assert found == walked_corridors(env)
    assert largest_corridors(turned(env, turns, dq, dr)) == found


@pytest.mark.parametrize("direction", range(6))
def test_turning_maps_directions_as_claimed(direction: int) -> None:
    # Turned once, the neighbour in direction d is the neighbour in direction d + 1, and a
    # tile's edge d becomes its edge d + 1.
    env = Environment.parse(f"{Hex(0, 0).neighbor(direction)} MF/be@2")
    moved = turned(env, 1, 0, 0)
    placed = next(iter(env.values()))
    new_hex, new_placed = next(iter(moved.items()))
    assert new_hex == Hex(0, 0).neighbor((direction + 1) % 6)
    assert all(new_placed.edges[(d + 1) % 6] == placed.edges[d] for d in range(6))


# Majority bonuses, one habitat at a time (the others are all 0).


def bonuses(*sizes: int) -> list[int]:
    return [bonus[M] for bonus in habitat_bonuses([{M: size} for size in sizes])]


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        # solo: +2 from 7 tiles
        ((7,), [2]),
        ((12,), [2]),
        ((6,), [0]),
        ((0,), [0]),
        # two players
        ((5, 3), [2, 0]),
        ((3, 5), [0, 2]),
        ((4, 4), [1, 1]),
        ((0, 3), [0, 2]),
        ((0, 0), [0, 0]),
        # three players
        ((5, 3, 1), [3, 1, 0]),
        ((1, 3, 5), [0, 1, 3]),
        ((5, 5, 1), [2, 2, 0]),
        ((5, 5, 5), [1, 1, 1]),
        ((5, 3, 3), [3, 0, 0]),
        ((5, 2, 0), [3, 1, 0]),
        ((5, 0, 0), [3, 0, 0]),
        ((0, 0, 0), [0, 0, 0]),
        ((2, 2, 0), [2, 2, 0]),
        # four players
        ((6, 4, 2, 1), [3, 1, 0, 0]),
        ((1, 6, 4, 2), [0, 3, 1, 0]),
        ((6, 6, 2, 1), [2, 2, 0, 0]),
        ((6, 6, 2, 2), [2, 2, 0, 0]),
        ((6, 6, 6, 1), [1, 1, 1, 0]),
        ((6, 6, 6, 6), [1, 1, 1, 1]),
        ((6, 4, 4, 1), [3, 0, 0, 0]),
        ((6, 4, 4, 4), [3, 0, 0, 0]),
        ((6, 0, 0, 0), [3, 0, 0, 0]),
        ((1, 1, 0, 0), [2, 2, 0, 0]),
        ((0, 0, 0, 0), [0, 0, 0, 0]),
    ],
)
def test_majority_bonuses(sizes: tuple[int, ...], expected: list[int]) -> None:
    assert bonuses(*sizes) == expected


def test_bonuses_are_per_habitat() -> None:
    found = habitat_bonuses([{M: 5, F: 2}, {M: 3, F: 4}])
    assert found == [
        {M: 2, F: 0, P: 0, W: 0, R: 0},
        {M: 0, F: 2, P: 0, W: 0, R: 0},
    ]


def test_no_players_no_bonuses_and_five_is_too_many() -> None:
    assert habitat_bonuses([]) == []
    with pytest.raises(InvalidInput):
        habitat_bonuses([{M: 1}] * 5)
