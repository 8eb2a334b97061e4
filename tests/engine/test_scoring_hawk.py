"""Hawk cards A-D: standing alone, lines of sight (blocked by hawks, not by empty hexes,
never between neighbours) and the best pairing of hawk D."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.components import Wildlife
from engine.hexes import AXES, Hex
from engine.scoring.hawk import hawk_a, hawk_b, hawk_c, hawk_d, sight_lines
from engine.scoring.tokens import TokenGrid
from tests.engine.helpers import tokens

STAR = "h 0,0 2,0 0,2 -2,2"  # five lines of sight: three from the centre, two between tips

CASES = [
    # spec, hawk A, hawk B, hawk C, hawk D
    pytest.param("b 0,0", 0, 0, 0, 0, id="no hawks"),
    pytest.param("h 0,0", 2, 0, 0, 0, id="one hawk"),
    pytest.param("h 0,0 1,0", 0, 0, 0, 0, id="adjacent hawks: no line of sight"),
    pytest.param("h 0,0 2,0", 5, 5, 3, 0, id="sight across a hex without a tile"),
    pytest.param("h 0,0 4,0", 5, 5, 3, 0, id="sight across three empty hexes"),
    pytest.param("h 0,0 2,1", 5, 0, 0, 0, id="off every axis: no sight"),
    pytest.param("h 0,0 3,-3; e 1,-1; b 2,-2", 5, 5, 3, 7, id="NE axis"),
    pytest.param("h 0,0 0,-4; s 0,-2", 5, 5, 3, 4, id="NW axis"),
    pytest.param("h 0,0 2,0 4,0", 8, 9, 6, 0, id="a hawk between blocks the outer two"),
    pytest.param("h 0,0 1,0 3,0", 2, 0, 3, 0, id="blocked by an adjacent hawk; B count 1"),
    pytest.param("h 0,0 1,0 3,0 5,0", 5, 5, 6, 0, id="B: sight to a hawk that is not alone"),
    pytest.param(STAR, 11, 12, 15, 0, id="several lines per hawk"),
    pytest.param(
        "h 0,0 2,0 5,0 7,0; s 1,0; b 3,0; e 4,0; f 6,0", 11, 12, 9, 8, id="D: 4 + 4 beats 7"
    ),
    pytest.param("h 0,0 2,0 4,0; b 3,0", 8, 9, 6, 4, id="D: an empty pair is never needed"),
    pytest.param("h 0,0 3,0; b 1,0 2,0", 5, 5, 3, 4, id="D: one species twice"),
    pytest.param("h 0,0 3,0; e 2,0", 5, 5, 3, 4, id="D: one species, one empty hex"),
    pytest.param("h 0,0 4,0; b 1,0; e 2,0; s 3,0", 5, 5, 3, 9, id="D: three species"),
    pytest.param("h 0,0 5,0; b 1,0; e 2,0; s 3,0; f 4,0", 5, 5, 3, 9, id="D: four species"),
    pytest.param("h 0,0 2,0; h 0,1 2,1", 0, 0, 6, 0, id="two adjacent columns"),
]


@pytest.mark.parametrize(("spec", "a", "b", "c", "d"), CASES)
def test_hawk_cards(spec: str, a: int, b: int, c: int, d: int) -> None:
    found = tokens(spec)
    assert (hawk_a(found), hawk_b(found), hawk_c(found), hawk_d(found)) == (a, b, c, d)


HAWK_A = (0, 2, 5, 8, 11, 14, 18, 22, 26, 26)
HAWK_B = (0, 0, 5, 9, 12, 16, 20, 24, 28, 28)


@pytest.mark.parametrize("count", range(1, 10))
def test_point_tables_with_spread_out_hawks(count: int) -> None:
    found = tokens("h " + " ".join(f"{2 * i},0" for i in range(count)))
    assert hawk_a(found) == HAWK_A[count]
    assert hawk_b(found) == HAWK_B[count]
    assert hawk_c(found) == 3 * (count - 1)


def test_sight_lines_list_each_pair_once() -> None:
    pairs = {
        frozenset((Hex(0, 0), Hex(2, 0))),
        frozenset((Hex(0, 0), Hex(0, 2))),
        frozenset((Hex(0, 0), Hex(-2, 2))),
        frozenset((Hex(2, 0), Hex(0, 2))),
        frozenset((Hex(0, 2), Hex(-2, 2))),
    }
    grid = TokenGrid(tokens(STAR))
    lines = sight_lines(grid)
    assert {frozenset((grid.hex(s.first), grid.hex(s.second))) for s in lines} == pairs
    assert all(len(s.between()) == 1 for s in lines)


# Hawk D checked against all pairings, with line of sight found by walking each axis.

HAWK_D = {0: 0, 1: 4, 2: 7}


def seen_from(hawk: Hex, hawks: set[Hex], span: int) -> list[tuple[Hex, list[Hex]]]:
    """The hawks ``hawk`` sees (forwards along each axis) with the hexes in between."""
    found = []
    for axis in AXES:
        between: list[Hex] = []
        for step, there in enumerate(hawk.line(axis), start=1):
            if step > span:
                break
            if there in hawks:
                if step > 1:
                    found.append((there, between))
                break
            between.append(there)
    return found


def best_pairing(field: dict[Hex, Wildlife]) -> int:
    hawks = {h for h, w in field.items() if w is Wildlife.HAWK}
    pairs = []
    for hawk in hawks:
        for other, between in seen_from(hawk, hawks, span=12):
            species = {field[h] for h in between if h in field}
            pairs.append((frozenset((hawk, other)), HAWK_D.get(len(species), 9)))

    @cache
    def best(used: frozenset[Hex], start: int) -> int:
        result = 0
        for i in range(start, len(pairs)):
            pair, points = pairs[i]
            if not pair & used:
                result = max(result, points + best(used | pair, i + 1))
        return result

    return best(frozenset(), 0)


species = st.sampled_from(list(Wildlife))
fields = st.dictionaries(
    st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3)),
    st.one_of(st.just(Wildlife.HAWK), species),
    max_size=20,
)


@settings(max_examples=200, deadline=None)
@given(fields)
def test_hawk_d_matches_all_pairings(field: dict[Hex, Wildlife]) -> None:
    assert hawk_d(field) == best_pairing(field)
