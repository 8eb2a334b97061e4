"""Salmon cards A-D: runs, the groups that are not runs, and the point tables."""

from __future__ import annotations

import pytest

from engine.scoring.salmon import salmon_a, salmon_b, salmon_c, salmon_d
from tests.engine.helpers import tokens


def line(length: int, r: int = 0) -> str:
    """``length`` salmon in a row."""
    return "s " + " ".join(f"{q},{r}" for q in range(length))


RING = "s 1,0 1,-1 0,-1 -1,0 -1,1 0,1"

CASES = [
    # spec, salmon A, salmon B, salmon C, salmon D
    pytest.param("b 0,0", 0, 0, 0, 0, id="no salmon"),
    pytest.param(line(1), 2, 2, 0, 0, id="run of 1"),
    pytest.param(line(2), 5, 4, 0, 0, id="run of 2"),
    pytest.param(line(3), 8, 9, 10, 3, id="run of 3"),
    pytest.param(line(4), 12, 11, 12, 4, id="run of 4"),
    pytest.param(line(5), 16, 17, 15, 5, id="run of 5"),
    pytest.param(line(6), 20, 17, 15, 6, id="run of 6"),
    pytest.param(line(7), 25, 17, 15, 7, id="run of 7"),
    pytest.param(line(9), 25, 17, 15, 9, id="run of 9"),
    pytest.param("s 0,0 1,0 1,1 2,1 2,2", 16, 17, 15, 5, id="a winding run"),
    pytest.param("s 0,0 1,0 1,-1", 8, 9, 10, 3, id="a triangle is a run"),
    pytest.param(RING, 20, 17, 15, 6, id="a ring of six is a run"),
    pytest.param(RING + "; b 0,0", 20, 17, 15, 7, id="ring around a bear"),
    pytest.param(RING + " 0,0", 0, 0, 0, 0, id="ring with a salmon in the centre"),
    pytest.param("s 0,0 1,0 0,-1 -1,1", 0, 0, 0, 0, id="a branch: one salmon touches three"),
    pytest.param("s 0,0 1,0 2,0 1,-1", 0, 0, 0, 0, id="a triangle with a tail"),
    pytest.param("s 0,0 1,0 1,-1 0,1", 0, 0, 0, 0, id="a diamond is not a run"),
    pytest.param(
        "s 0,0 1,0 2,0 1,-1 0,2 1,2", 5, 4, 0, 0, id="a branching group and a separate pair"
    ),
    pytest.param(line(2) + "; " + line(3, r=2), 13, 13, 10, 3, id="two runs"),
    pytest.param(line(3) + "; b 1,-1", 8, 9, 10, 4, id="D: a bear touching two salmon"),
    pytest.param(
        line(3) + "; b 1,-1; h 0,1; e 3,0; f 5,0", 8, 9, 10, 6, id="D: neighbours, once each"
    ),
    pytest.param(line(2) + "; b 0,-1 1,-1", 5, 4, 0, 0, id="D: a run of two scores nothing"),
]


@pytest.mark.parametrize(("spec", "a", "b", "c", "d"), CASES)
def test_salmon_cards(spec: str, a: int, b: int, c: int, d: int) -> None:
    found = tokens(spec)
    assert (salmon_a(found), salmon_b(found), salmon_c(found), salmon_d(found)) == (a, b, c, d)


def test_salmon_d_counts_a_token_for_each_run_it_touches() -> None:
    # The bear at 3,0 touches both runs (2,0 and 4,0): each run counts it once.
    found = tokens("s 0,0 1,0 2,0 4,0 5,0 6,0; b 3,0")
    assert salmon_d(found) == (3 + 1) * 2
