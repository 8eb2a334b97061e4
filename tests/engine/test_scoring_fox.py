"""Fox cards A-D: the wildlife around each fox, and around each pair for card D."""

from __future__ import annotations

import pytest

from engine.scoring.fox import fox_a, fox_b, fox_c, fox_d
from tests.engine.helpers import tokens

# Two foxes at 0,0 and 1,0 have eight hexes around them:
# 1,-1 and 0,1 (touching both), 0,-1 -1,0 -1,1 (the first only), 2,0 2,-1 1,1 (the second).
PAIR_THREE_KINDS = "f 0,0 1,0; b 1,-1 2,0; e 0,-1 1,1; s -1,0; h -1,1 0,1"

CASES = [
    # spec, fox A, fox B, fox C, fox D
    pytest.param("b 0,0", 0, 0, 0, 0, id="no foxes"),
    pytest.param("f 0,0", 0, 0, 0, 0, id="a fox alone"),
    pytest.param("f 0,0; b 1,0 1,-1; e 0,-1; s -1,0", 3, 3, 2, 0, id="one pair, three kinds"),
    pytest.param(
        "f 0,0; b 1,0 1,-1; e 0,-1 -1,0; h -1,1 0,1", 3, 7, 2, 0, id="three pairs around a fox"
    ),
    pytest.param("f 0,0; b 1,0 1,-1 0,-1 -1,0", 1, 3, 4, 0, id="four bears: one pair"),
    pytest.param("f 0,0; b 1,0 1,-1; e 0,-1 -1,0", 2, 5, 2, 0, id="two pairs"),
    pytest.param("f 0,0 1,0; b 0,-1", 3, 0, 1, 0, id="A counts a neighbouring fox"),
    pytest.param("f 0,0 1,0; b 1,-1; e 0,-1; s -1,0; h -1,1", 7, 0, 2, 0, id="A: five kinds"),
    pytest.param(PAIR_THREE_KINDS, 9, 6, 4, 9, id="D: three kinds in pairs"),
    pytest.param(PAIR_THREE_KINDS + "; s 2,-1", 10, 6, 4, 11, id="D: four kinds in pairs"),
    pytest.param("f 0,0 1,0; b 1,-1", 4, 0, 2, 0, id="D: a bear touching both foxes is one"),
    pytest.param("f 0,0 1,0; b 1,-1 0,1", 4, 6, 4, 5, id="D: two bears"),
    pytest.param(
        "f 0,0 1,0 2,0; b 0,-1 1,-1; e 0,1 1,1", 8, 6, 5, 0, id="D: three foxes are no pair"
    ),
    pytest.param("f 0,0 1,0 0,3 1,3; b 1,-1 0,1; e 1,2 0,4", 8, 12, 8, 10, id="D: two pairs"),
]


@pytest.mark.parametrize(("spec", "a", "b", "c", "d"), CASES)
def test_fox_cards(spec: str, a: int, b: int, c: int, d: int) -> None:
    found = tokens(spec)
    assert (fox_a(found), fox_b(found), fox_c(found), fox_d(found)) == (a, b, c, d)
