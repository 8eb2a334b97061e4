"""Hawk cards A-D: hawks score for standing apart and for lines of sight.

Two hawks have line of sight when they lie on one straight line along a hex axis with no
hawk between them and are not adjacent. Hexes without a tile do not block it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import Shape, TokenGrid, best_packing, points

HAWK_A_POINTS = (0, 2, 5, 8, 11, 14, 18, 22, 26)
"""Hawk A by the number of hawks next to no other hawk (the last entry is for 8 or more)."""

HAWK_B_POINTS = (0, 0, 5, 9, 12, 16, 20, 24, 28)
"""Hawk B by the number of hawks next to no other hawk and with line of sight to another
(a count of 1 scores nothing; the last entry is for 8 or more)."""

HAWK_C_POINTS_PER_LINE = 3
"""Hawk C for each line of sight."""

HAWK_D_POINTS = (0, 4, 7, 9)
"""Hawk D for a pair by the distinct non-hawk species between them (the last is for 3+)."""


@dataclass(frozen=True, slots=True)
class Sight:
    """A line of sight between the hawks on keys ``first`` and ``second`` of a
    :class:`TokenGrid`: ``second == first + length * step``, with no hawk in between."""

    first: int
    second: int
    step: int
    length: int

    def between(self) -> range:
        """The keys of the hexes strictly between the two hawks."""
        return range(self.first + self.step, self.second, self.step)


def sight_lines(grid: TokenGrid) -> list[Sight]:
    """Every line of sight between two hawks of ``grid``, each once."""
    hawks = [grid.coordinates(key) for key in grid.keys_of(Wildlife.HAWK)]
    if len(hawks) < 2:
        return []
    width = grid.width
    # For each axis, the hawks on each line by their position along it; consecutive hawks on a
    # line see each other unless they are adjacent. Axis E keeps r, NE keeps q + r, NW keeps q.
    axes: tuple[dict[int, list[tuple[int, int]]], ...] = ({}, {}, {})
    for q, r in hawks:
        key = q * width + r
        axes[0].setdefault(r, []).append((q, key))
        axes[1].setdefault(q + r, []).append((q, key))
        axes[2].setdefault(q, []).append((-r, key))
    found = []
    for step, lines in zip(grid.steps[:3], axes, strict=True):
        for on_line in lines.values():
            on_line.sort()
            for (position, key), (next_position, next_key) in pairwise(on_line):
                length = next_position - position
                if length > 1:
                    found.append(Sight(key, next_key, step, length))
    return found


def _alone(grid: TokenGrid) -> list[int]:
    """The hawks adjacent to no other hawk."""
    at = grid.at
    steps = grid.steps
    hawk = Wildlife.HAWK
    return [key for key in grid.keys_of(hawk) if all(at.get(key + step) != hawk for step in steps)]


def hawk_a(tokens: Mapping[Hex, Wildlife]) -> int:
    """Hawk A: the number of hawks adjacent to no other hawk; 1: 2, 2: 5, 3: 8, 4: 11,
    5: 14, 6: 18, 7: 22, 8+: 26."""
    return points(HAWK_A_POINTS, len(_alone(TokenGrid.of(tokens))))


def hawk_b(tokens: Mapping[Hex, Wildlife]) -> int:
    """Hawk B: the number of hawks adjacent to no other hawk and with line of sight to
    another hawk (any hawk); 2: 5, 3: 9, 4: 12, 5: 16, 6: 20, 7: 24, 8+: 28 (1 scores 0)."""
    grid = TokenGrid.of(tokens)
    seeing = set()
    for sight in sight_lines(grid):
        seeing.add(sight.first)
        seeing.add(sight.second)
    return points(HAWK_B_POINTS, sum(1 for key in _alone(grid) if key in seeing))


def hawk_c(tokens: Mapping[Hex, Wildlife]) -> int:
    """Hawk C: 3 for each line of sight between two hawks (a hawk may be in several)."""
    return HAWK_C_POINTS_PER_LINE * len(sight_lines(TokenGrid.of(tokens)))


def hawk_d(tokens: Mapping[Hex, Wildlife]) -> int:
    """Hawk D: pairs of hawks with line of sight, each hawk in at most one pair, chosen to
    score most; a pair scores by the distinct non-hawk species on the hexes strictly
    between them: 1: 4, 2: 7, 3+: 9 (none: 0, so such a pair is never worth making)."""
    grid = TokenGrid.of(tokens)
    at = grid.at
    shapes: list[Shape] = []
    for sight in sight_lines(grid):
        between = sight.between()
        if len(between) <= len(at):
            species = {at[key] for key in between if key in at}
        else:  # far apart: fewer tokens to check than hexes between
            species = {wildlife for key, wildlife in at.items() if key in between}
        gain = points(HAWK_D_POINTS, len(species))
        if gain:
            shapes.append(((sight.first, sight.second), gain))
    return best_packing(shapes)


CARDS = {"A": hawk_a, "B": hawk_b, "C": hawk_c, "D": hawk_d}
"""The hawk cards by letter."""
