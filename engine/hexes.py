"""Axial hex coordinates and the six directions, as fixed by the table-json format."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

from engine.errors import InvalidInput


class Direction(IntEnum):
    """The six neighbour directions, numbered as the table-json format numbers edges.

    Drawn pointy-top with r growing downwards: E, NE, NW, W, SW, SE.
    """

    E = 0
    NE = 1
    NW = 2
    W = 3
    SW = 4
    SE = 5

    @property
    def opposite(self) -> Direction:
        """The direction pointing back."""
        return Direction((self + 3) % 6)

    @property
    def vector(self) -> tuple[int, int]:
        """The (dq, dr) step of this direction."""
        return VECTORS[self]


VECTORS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The three axes along which straight lines run, as the direction of one way along each.
AXES: tuple[Direction, Direction, Direction] = (Direction.E, Direction.NE, Direction.NW)

_HEX_TEXT = re.compile(r"^\s*\(?\s*([+-]?\d{1,4})\s*[,;\s]\s*([+-]?\d{1,4})\s*\)?\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """A hex in axial coordinates; ``s`` is implied (``q + r + s == 0``).

    Its text form ``"q,r"`` (for example ``"-1,2"``) is also the label players type.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The implicit third cube coordinate."""
        return -self.q - self.r

    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0..5)."""
        dq, dr = VECTORS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order."""
        found = _NEIGHBORS.get(self)
        if found is None:
            q, r = self.q, self.r
            found = tuple(Hex(q + dq, r + dr) for dq, dr in VECTORS)
            if len(_NEIGHBORS) < _NEIGHBOR_CACHE_LIMIT:
                _NEIGHBORS[self] = found
        return found

    def distance(self, other: Hex) -> int:
        """Steps between two hexes."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line(self, direction: int) -> Iterator[Hex]:
        """The hexes after this one going straight in ``direction``, without end."""
        dq, dr = VECTORS[direction]
        q, r = self.q, self.r
        while True:
            q += dq
            r += dr
            yield Hex(q, r)

    def direction_to(self, other: Hex) -> Direction | None:
        """The direction of ``other`` when it lies on one of the three axes through this hex."""
        dq, dr = other.q - self.q, other.r - self.r
        if dq == dr == 0:
            return None
        n = max(abs(dq), abs(dr), abs(dq + dr))
        if (dq, dr) in ((n, 0), (n, -n), (0, -n), (-n, 0), (-n, n), (0, n)):
            return Direction(VECTORS.index((dq // n, dr // n)))
        return None

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read the text form ``"q,r"`` (also ``"(q, r)"`` or ``"q r"``)."""
        match = _HEX_TEXT.match(text)
        if match is None:
            raise InvalidInput(f"not a position: {text[:40]!r} (expected q,r such as -1,2)")
        return cls(int(match.group(1)), int(match.group(2)))


ORIGIN = Hex(0, 0)

# Environments only ever use a few hundred hexes near the origin, and neighbour lists are the
# hot path of placement and scoring, so they are kept once computed (bounded, to stay small).
_NEIGHBORS: dict[Hex, tuple[Hex, ...]] = {}
_NEIGHBOR_CACHE_LIMIT = 20_000


def sort_key(hex_: Hex) -> tuple[int, int]:
    """A fast key giving the same order as comparing hexes."""
    return (hex_.q, hex_.r)
