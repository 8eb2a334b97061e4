"""The Family and Intermediate variant cards: one card for all five wildlife, scoring every
group of a species by its size."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.components import Variant, Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import TokenGrid, points

FAMILY_POINTS = (0, 2, 5, 9)
"""Family: each group by size; 1: 2, 2: 5, 3+: 9."""

INTERMEDIATE_POINTS = (0, 0, 5, 8, 12)
"""Intermediate: each group by size; 1: 0, 2: 5, 3: 8, 4+: 12."""


@dataclass(frozen=True, slots=True)
class GroupSizeCard:
    """A variant card applied to one species: each group of ``wildlife`` scores
    ``table[size]`` (the last entry for that size and larger)."""

    wildlife: Wildlife
    table: tuple[int, ...]

    def __call__(self, tokens: Mapping[Hex, Wildlife], /) -> int:
        """The points the groups of this species earn."""
        groups = TokenGrid.of(tokens).groups(self.wildlife)
        return sum(points(self.table, len(group)) for group in groups)


def family(wildlife: Wildlife) -> GroupSizeCard:
    """The Family card for one species: each group by size; 1: 2, 2: 5, 3+: 9."""
    return GroupSizeCard(wildlife, FAMILY_POINTS)


def intermediate(wildlife: Wildlife) -> GroupSizeCard:
    """The Intermediate card for one species: each group by size; 1: 0, 2: 5, 3: 8, 4+: 12."""
    return GroupSizeCard(wildlife, INTERMEDIATE_POINTS)


CARDS = {
    Variant.FAMILY: {wildlife: family(wildlife) for wildlife in Wildlife},
    Variant.INTERMEDIATE: {wildlife: intermediate(wildlife) for wildlife in Wildlife},
}
"""The variant cards by variant, then by species."""
