"""Hex coordinates, directions and the environment's text form."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.components import STARTERS, Wildlife
from engine.environment import Environment
from engine.errors import InvalidInput
from engine.hexes import Direction, Hex

coords = st.integers(min_value=-30, max_value=30)
hexes = st.builds(Hex, coords, coords)


def test_directions_follow_table_json_order() -> None:
    origin = Hex(0, 0)
    assert [origin.neighbor(d) for d in Direction] == [
        Hex(1, 0),
        Hex(1, -1),
        Hex(0, -1),
        Hex(-1, 0),
        Hex(-1, 1),
        Hex(0, 1),
    ]
    assert Direction.NE.opposite is Direction.SW


@given(hexes)
def test_text_form_round_trips(hex_: Hex) -> None:
    assert Hex.parse(str(hex_)) == hex_


@pytest.mark.parametrize("text", ["(1, -2)", " 1,-2 ", "1 -2", "+1,-2"])
def test_parse_accepts_common_spellings(text: str) -> None:
    assert Hex.parse(text) == Hex(1, -2)


@pytest.mark.parametrize("text", ["", "1", "a,b", "1,2,3", "1.5,2", "99999,1"])
def test_parse_refuses_garbage(text: str) -> None:
    with pytest.raises(InvalidInput):
        Hex.parse(text)


@given(hexes, hexes)
def test_distance_is_symmetric_and_neighbours_are_one_step(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert all(a.distance(n) == 1 for n in a.neighbors())
    assert a.s == -a.q - a.r


@given(hexes, st.sampled_from(list(Direction)), st.integers(min_value=1, max_value=9))
def test_direction_to_finds_the_axis(a: Hex, d: Direction, steps: int) -> None:
    line = a.line(d)
    target = next(h for i, h in enumerate(line, start=1) if i == steps)
    assert a.direction_to(target) is d


def test_direction_to_off_axis_is_none() -> None:
    assert Hex(0, 0).direction_to(Hex(2, 1)) is None
    assert Hex(0, 0).direction_to(Hex(0, 0)) is None


def test_environment_text_round_trips_and_tracks_tokens() -> None:
    env = Environment.from_starter(STARTERS[0])
    assert Environment.parse(env.text()) == env
    center = Hex(0, 0)
    with_bear = env.with_token(center, Wildlife.BEAR)
    assert with_bear.tokens() == {center: Wildlife.BEAR}
    assert env.tokens() == {}
    assert center not in with_bear.token_targets(Wildlife.BEAR)
    assert Environment.parse("0,0 M/b=b; 1,0 FR/es@2") == Environment.parse(
        "1,0 FR/es@2\n0,0 M/b=b"
    )


def test_frontier_is_every_empty_neighbour() -> None:
    env = Environment.parse("0,0 M/b")
    assert env.frontier() == sorted(Hex(0, 0).neighbors())
    assert not env.is_frontier(Hex(0, 0))
    assert not env.is_frontier(Hex(5, 5))


@pytest.mark.parametrize(
    "text",
    ["0,0 M/x", "0,0 M/b; 0,0 F/e", "0,0 FR/es@9", "0,0 M/b=e", "zz M/b", "0,0 #x M/b"],
)
def test_environment_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(InvalidInput):
        Environment.parse(text)
