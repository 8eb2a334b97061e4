"""Bear cards A-D: bears score in groups of a given size."""

from __future__ import annotations

from collections.abc import Mapping

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import TokenGrid, points

BEAR_A_POINTS = (0, 4, 11, 19, 27)
"""Bear A by the number of groups of exactly two bears (the last entry is for 4 or more)."""

BEAR_B_POINTS_PER_GROUP = 10
"""Bear B for each group of exactly three bears."""

BEAR_C_POINTS = {1: 2, 2: 5, 3: 8}
"""Bear C by group size; larger groups score nothing."""

BEAR_C_BONUS = 3
"""Bear C, once, when there are groups of all three sizes."""

BEAR_D_POINTS = {2: 5, 3: 8, 4: 13}
"""Bear D by group size; other sizes score nothing."""


def _sizes(tokens: Mapping[Hex, Wildlife]) -> list[int]:
    return [len(group) for group in TokenGrid.of(tokens).groups(Wildlife.BEAR)]


def bear_a(tokens: Mapping[Hex, Wildlife]) -> int:
    """Bear A: count the groups of exactly 2 bears; 1: 4, 2: 11, 3: 19, 4+: 27."""
    return points(BEAR_A_POINTS, _sizes(tokens).count(2))


def bear_b(tokens: Mapping[Hex, Wildlife]) -> int:
    """Bear B: 10 for each group of exactly 3 bears."""
    return BEAR_B_POINTS_PER_GROUP * _sizes(tokens).count(3)


def bear_c(tokens: Mapping[Hex, Wildlife]) -> int:
    """Bear C: each group of 1, 2 or 3 bears scores 2 / 5 / 8 (larger groups 0); +3 once when
    there are groups of all three sizes."""
    sizes = _sizes(tokens)
    score = sum(BEAR_C_POINTS.get(size, 0) for size in sizes)
    if BEAR_C_POINTS.keys() <= set(sizes):
        score += BEAR_C_BONUS
    return score


def bear_d(tokens: Mapping[Hex, Wildlife]) -> int:
    """Bear D: each group of 2, 3 or 4 bears scores 5 / 8 / 13; other sizes 0."""
    return sum(BEAR_D_POINTS.get(size, 0) for size in _sizes(tokens))


CARDS = {"A": bear_a, "B": bear_b, "C": bear_c, "D": bear_d}
"""The bear cards by letter."""
