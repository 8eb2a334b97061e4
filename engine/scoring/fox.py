"""Fox cards A-D: foxes score for the wildlife around them.

A "pair" of a species is 2 or more tokens of one non-fox species among the neighbours: each
species counts once, however many of its tokens there are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import TokenGrid, points

FOX_A_POINTS_PER_SPECIES = 1
"""Fox A for each distinct species next to a fox, foxes included."""

FOX_B_POINTS = (0, 3, 5, 7)
"""Fox B per fox by the number of non-fox species with 2+ tokens among its neighbours."""

FOX_C_POINTS_PER_TOKEN = 1
"""Fox C per token of the most common non-fox species next to a fox."""

FOX_D_POINTS = (0, 5, 7, 9, 11)
"""Fox D per pair of foxes by the non-fox species with 2+ tokens around the pair."""

_PAIR = 2


def _around(grid: TokenGrid, keys: list[int]) -> dict[Wildlife, int]:
    """The non-fox tokens on the hexes next to any of ``keys`` (each hex once), by species."""
    at = grid.at
    hexes: Iterable[int]
    if len(keys) == 1:
        # The six neighbours of one hex are six other hexes: no set needed.
        key = keys[0]
        hexes = [key + step for step in grid.steps]
    else:
        hexes = {key + step for key in keys for step in grid.steps}.difference(keys)
    counts: dict[Wildlife, int] = {}
    for key in hexes:
        wildlife = at.get(key)
        if wildlife is not None and wildlife != Wildlife.FOX:
            counts[wildlife] = counts.get(wildlife, 0) + 1
    return counts


def _pairs(counts: dict[Wildlife, int]) -> int:
    return sum(1 for count in counts.values() if count >= _PAIR)


def fox_a(tokens: Mapping[Hex, Wildlife]) -> int:
    """Fox A: per fox, 1 for each distinct species among its neighbours, foxes included."""
    grid = TokenGrid.of(tokens)
    at = grid.at
    steps = grid.steps
    return FOX_A_POINTS_PER_SPECIES * sum(
        len({at[key + step] for step in steps if key + step in at})
        for key in grid.keys_of(Wildlife.FOX)
    )


def fox_b(tokens: Mapping[Hex, Wildlife]) -> int:
    """Fox B: per fox, the distinct non-fox species with 2+ tokens among its neighbours;
    1: 3, 2: 5, 3: 7."""
    grid = TokenGrid.of(tokens)
    return sum(
        points(FOX_B_POINTS, _pairs(_around(grid, [key]))) for key in grid.keys_of(Wildlife.FOX)
    )


def fox_c(tokens: Mapping[Hex, Wildlife]) -> int:
    """Fox C: per fox, 1 for each token of its most common non-fox neighbour species."""
    grid = TokenGrid.of(tokens)
    return FOX_C_POINTS_PER_TOKEN * sum(
        max(_around(grid, [key]).values(), default=0) for key in grid.keys_of(Wildlife.FOX)
    )


def fox_d(tokens: Mapping[Hex, Wildlife]) -> int:
    """Fox D: per group of exactly 2 foxes, the distinct non-fox species with 2+ tokens on
    the hexes around the pair (the foxes themselves excluded); 1: 5, 2: 7, 3: 9, 4: 11."""
    grid = TokenGrid.of(tokens)
    return sum(
        points(FOX_D_POINTS, _pairs(_around(grid, group)))
        for group in grid.groups(Wildlife.FOX)
        if len(group) == _PAIR
    )


CARDS = {"A": fox_a, "B": fox_b, "C": fox_c, "D": fox_d}
"""The fox cards by letter."""
