"""Bear cards A-D, from the rules table; expected values worked out by hand."""

from __future__ import annotations

import pytest

from engine.scoring.bear import bear_a, bear_b, bear_c, bear_d
from tests.engine.helpers import tokens

# Pairs two rows apart never touch: (0,r),(1,r) and (0,r+2),(1,r+2).
ONE_PAIR = "b 0,0 1,0"
TWO_PAIRS = "b 0,0 1,0 0,2 1,2"
THREE_PAIRS = "b 0,0 1,0 0,2 1,2 0,4 1,4"
FOUR_PAIRS = "b 0,0 1,0 0,2 1,2 0,4 1,4 0,6 1,6"
FIVE_PAIRS = "b 0,0 1,0 0,2 1,2 0,4 1,4 0,6 1,6 0,8 1,8"
SIZES_1_2_3 = "b 0,0 0,2 1,2 0,4 1,4 2,4"

CASES = [
    # spec, bear A, bear B, bear C, bear D
    pytest.param("e 0,0", 0, 0, 0, 0, id="no bears"),
    pytest.param("b 0,0", 0, 0, 2, 0, id="one bear"),
    pytest.param(ONE_PAIR, 4, 0, 5, 5, id="a pair"),
    pytest.param("b 0,0 0,1", 4, 0, 5, 5, id="a pair along another axis"),
    pytest.param(TWO_PAIRS, 11, 0, 10, 10, id="two pairs"),
    pytest.param(THREE_PAIRS, 19, 0, 15, 15, id="three pairs"),
    pytest.param(FOUR_PAIRS, 27, 0, 20, 20, id="four pairs"),
    pytest.param(FIVE_PAIRS, 27, 0, 25, 25, id="five pairs: A tops out at 4+"),
    pytest.param("b 0,0 1,0 2,0", 0, 10, 8, 8, id="a line of three"),
    pytest.param("b 0,0 1,0 1,-1", 0, 10, 8, 8, id="a triangle of three"),
    pytest.param("b 0,0 1,0 2,0 3,0", 0, 0, 0, 13, id="a group of four"),
    pytest.param("b 0,0 1,0 2,0 3,0 4,0", 0, 0, 0, 0, id="a group of five scores 0 everywhere"),
    pytest.param("b 0,0 1,0 2,0 0,2 1,2 2,2", 0, 20, 16, 16, id="two groups of three"),
    pytest.param("b 0,0 1,0 0,2 1,2 2,2", 4, 10, 13, 13, id="a pair and a three"),
    pytest.param(SIZES_1_2_3, 4, 10, 18, 13, id="sizes 1, 2 and 3: C bonus"),
    pytest.param(SIZES_1_2_3 + " 0,6 1,6 2,6 3,6", 4, 10, 18, 26, id="1, 2, 3 and a four"),
    pytest.param("b 0,0 0,2 0,4 1,4", 4, 0, 9, 5, id="sizes 1, 1, 2: no C bonus"),
    pytest.param("b 0,0 0,2 1,2 2,2 3,2", 0, 0, 2, 13, id="a one and a four"),
    pytest.param("b 0,0 1,0; e 2,0; b 3,0 4,0", 11, 0, 10, 10, id="an elk keeps pairs apart"),
]


@pytest.mark.parametrize(("spec", "a", "b", "c", "d"), CASES)
def test_bear_cards(spec: str, a: int, b: int, c: int, d: int) -> None:
    found = tokens(spec)
    assert (bear_a(found), bear_b(found), bear_c(found), bear_d(found)) == (a, b, c, d)


def test_groups_touching_diagonally_are_separate() -> None:
    # (1,0) and (0,2) are two steps apart: two pairs, not a group of four.
    assert bear_a(tokens("b 0,0 1,0 0,2 1,2")) == 11
    # (1,0) and (1,1) touch: one group of four.
    assert bear_a(tokens("b 0,0 1,0 1,1 2,1")) == 0
