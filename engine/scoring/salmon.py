"""Salmon cards A-D: salmon score in runs.

A run is a group of salmon in which no salmon touches more than two other salmon (so a
triangle of three is a run); a group where any salmon touches three or more scores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import TokenGrid, points

SALMON_A_POINTS = (0, 2, 5, 8, 12, 16, 20, 25)
"""Salmon A by run length (the last entry is for 7 or more)."""

SALMON_B_POINTS = (0, 2, 4, 9, 11, 17)
"""Salmon B by run length (the last entry is for 5 or more)."""

SALMON_C_POINTS = (0, 0, 0, 10, 12, 15)
"""Salmon C by run length: runs of 1 or 2 score nothing (the last entry is for 5 or more)."""

SALMON_D_SHORTEST = 3
"""Salmon D scores only runs of at least this many salmon."""

_MOST_SALMON_NEIGHBOURS = 2


def runs(grid: TokenGrid) -> list[list[int]]:
    """The salmon runs of ``grid`` as lists of its keys (groups that are not runs left out)."""
    at = grid.at
    steps = grid.steps
    salmon = Wildlife.SALMON
    found = []
    for group in grid.groups(salmon):
        if len(group) > _MOST_SALMON_NEIGHBOURS and any(
            sum(1 for step in steps if at.get(key + step) == salmon) > _MOST_SALMON_NEIGHBOURS
            for key in group
        ):
            continue
        found.append(group)
    return found


def salmon_a(tokens: Mapping[Hex, Wildlife]) -> int:
    """Salmon A: each run by length; 1: 2, 2: 5, 3: 8, 4: 12, 5: 16, 6: 20, 7+: 25."""
    return sum(points(SALMON_A_POINTS, len(run)) for run in runs(TokenGrid.of(tokens)))


def salmon_b(tokens: Mapping[Hex, Wildlife]) -> int:
    """Salmon B: each run by length; 1: 2, 2: 4, 3: 9, 4: 11, 5+: 17."""
    return sum(points(SALMON_B_POINTS, len(run)) for run in runs(TokenGrid.of(tokens)))


def salmon_c(tokens: Mapping[Hex, Wildlife]) -> int:
    """Salmon C: each run of 3 or more by length; 3: 10, 4: 12, 5+: 15."""
    return sum(points(SALMON_C_POINTS, len(run)) for run in runs(TokenGrid.of(tokens)))


def salmon_d(tokens: Mapping[Hex, Wildlife]) -> int:
    """Salmon D: each run of 3 or more scores 1 per salmon in it plus 1 per non-salmon token
    adjacent to the run (each token counted once for the run)."""
    grid = TokenGrid.of(tokens)
    at = grid.at
    steps = grid.steps
    score = 0
    for run in runs(grid):
        if len(run) < SALMON_D_SHORTEST:
            continue
        around = {
            key + step
            for key in run
            for step in steps
            if key + step in at and at[key + step] != Wildlife.SALMON
        }
        score += len(run) + len(around)
    return score


CARDS = {"A": salmon_a, "B": salmon_b, "C": salmon_c, "D": salmon_d}
"""The salmon cards by letter."""
