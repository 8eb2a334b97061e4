"""Elk cards A-D: point tables, the formation traps, and the best-partition search checked
against an exhaustive search written from the card texts."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.elk import elk_a, elk_b, elk_c, elk_d
from tests.engine.helpers import tokens

# Seven elk shaped like an H on its side: a line of three (row 0) whose ends each start a
# line of three up the q axis. Taking the row first (9 + 5 + 5) loses to the two columns
# (9 + 9 + 2): elk A needs the search.
H_SHAPE = "e 0,0 1,0 2,0 0,-1 0,-2 2,-1 2,-2"
FLOWER = "e 0,0 1,0 1,-1 0,-1 -1,0 -1,1 0,1"  # a centre and its whole ring
RING = "e 1,0 1,-1 0,-1 -1,0 -1,1 0,1"

CASES = [
    # spec, elk A, elk B, elk C, elk D
    pytest.param("b 0,0", 0, 0, 0, 0, id="no elk"),
    pytest.param("e 0,0", 2, 2, 2, 2, id="one elk"),
    pytest.param("e 0,0 1,0", 5, 5, 4, 5, id="a pair"),
    pytest.param("e 0,0 1,0 2,0", 9, 7, 7, 7, id="straight three: not a triangle, not an arc"),
    pytest.param("e 0,0 1,-1 2,-2", 9, 7, 7, 7, id="straight three on the NE axis"),
    pytest.param("e 0,0 1,0 1,-1", 7, 9, 7, 7, id="triangle"),
    pytest.param("e 1,0 1,-1 0,-1", 7, 7, 7, 8, id="bent three: an arc"),
    pytest.param("e 0,1 1,0 1,-1", 7, 7, 7, 8, id="bent three across the ring's wrap"),
    pytest.param("e 0,0 1,0 2,0 3,0", 13, 10, 10, 10, id="straight four"),
    pytest.param("e 0,0 1,0 2,0 3,0 4,0", 15, 12, 14, 12, id="straight five: 4 + 1"),
    pytest.param("e 0,0 1,0 2,0 3,0 4,0 5,0", 18, 15, 18, 15, id="straight six"),
    pytest.param(
        "e 0,0 0,-1 0,-2 0,-3 0,-4 0,-5 0,-6 0,-7 0,-8", 28, 22, 28, 22, id="straight nine"
    ),
    pytest.param("e 0,0 1,0 1,-1 0,1", 10, 13, 10, 10, id="diamond"),
    pytest.param("e 0,0 1,0 2,0 1,-1 2,-1", 14, 15, 14, 14, id="trapezoid of five"),
    pytest.param("e 1,0 1,-1 0,-1 -1,0", 10, 10, 10, 12, id="arc of four"),
    pytest.param("e 1,0 1,-1 0,-1 -1,0 -1,1", 12, 12, 14, 16, id="arc of five"),
    pytest.param(RING, 15, 15, 18, 21, id="whole ring"),
    pytest.param(FLOWER, 19, 20, 23, 23, id="ring and centre"),
    pytest.param(H_SHAPE, 20, 18, 23, 20, id="H shape: partitions need search"),
    pytest.param("e 0,0 1,0; e 0,2", 7, 7, 6, 7, id="two groups"),
    pytest.param("e 0,0 1,0; b 2,0; e 3,0", 7, 7, 6, 7, id="a bear breaks the line"),
    pytest.param("e 0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0", 26, 20, 28, 20, id="eight: C tops out"),
]


@pytest.mark.parametrize(("spec", "a", "b", "c", "d"), CASES)
def test_elk_cards(spec: str, a: int, b: int, c: int, d: int) -> None:
    found = tokens(spec)
    assert (elk_a(found), elk_b(found), elk_c(found), elk_d(found)) == (a, b, c, d)


def test_elk_c_table() -> None:
    for size, points in enumerate((2, 4, 7, 10, 14, 18, 23, 28, 28, 28), start=1):
        line = " ".join(f"{q},0" for q in range(size))
        assert elk_c(tokens(f"e {line}")) == points


# An exhaustive search written straight from the card texts, to check the fast one.

ELK_A = {1: 2, 2: 5, 3: 9, 4: 13}
ELK_B = {1: 2, 2: 5, 3: 9, 4: 13}
ELK_D = {1: 2, 2: 5, 3: 8, 4: 12, 5: 16, 6: 21}


def is_line(hexes: frozenset[Hex]) -> bool:
    """Straight and unbroken along one axis, at most four long."""
    if len(hexes) > 4:
        return False
    ordered = sorted(hexes)
    first = ordered[0]
    directions = {first.direction_to(h) for h in ordered[1:]}
    if len(directions) > 1 or None in directions:
        return False
    return max(first.distance(h) for h in hexes) == len(hexes) - 1


def is_elk_b_shape(hexes: frozenset[Hex]) -> bool:
    """1 elk, 2 adjacent, 3 mutually adjacent, or 4 with five adjacencies (a diamond)."""
    touching = sum(1 for a, b in combinations(hexes, 2) if a.distance(b) == 1)
    return {1: 0, 2: 1, 3: 3, 4: 5}.get(len(hexes)) == touching


def is_arc(hexes: frozenset[Hex]) -> bool:
    """Consecutive hexes of the ring around some centre."""
    if len(hexes) == 1:
        return True
    if len(hexes) > 6:
        return False
    for centre in {n for h in hexes for n in h.neighbors()}:
        ring = centre.neighbors()
        if not hexes <= set(ring):
            continue
        held = [h in hexes for h in ring]
        if all(held):
            return True
        start = held.index(False)
        runs = "".join("x" if held[(start + i) % 6] else "." for i in range(6)).split(".")
        if sum(1 for run in runs if run) == 1:
            return True
    return False


def brute_force(
    elk: frozenset[Hex], fits: Callable[[frozenset[Hex]], bool], table: dict[int, int]
) -> int:
    @cache
    def best(left: frozenset[Hex]) -> int:
        if not left:
            return 0
        first = min(left)
        others = sorted(left - {first})
        result = 0
        for size in range(0, min(len(others), max(table) - 1) + 1):
            for rest in combinations(others, size):
                chosen = frozenset((first, *rest))
                if fits(chosen):
                    result = max(result, table[len(chosen)] + best(left - chosen))
        return result

    return best(elk)


small_fields = st.sets(st.tuples(st.integers(-2, 2), st.integers(-2, 1)), max_size=9)


@settings(max_examples=150, deadline=None)
@given(small_fields)
def test_partitions_match_exhaustive_search(cells: set[tuple[int, int]]) -> None:
    elk = frozenset(Hex(q, r) for q, r in cells)
    found = dict.fromkeys(elk, Wildlife.ELK)
    assert elk_a(found) == brute_force(elk, is_line, ELK_A)
    assert elk_b(found) == brute_force(elk, is_elk_b_shape, ELK_B)
    assert elk_d(found) == brute_force(elk, is_arc, ELK_D)
