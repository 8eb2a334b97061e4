"""Elk cards A-D: elk score in lines, shapes, groups or arcs.

Cards A, B and D ask for formations: each elk joins at most one, and the partition that
scores most is taken. Every elk can always stand alone as a formation of one (2 points on
each of these cards), so the search is for the formations of two or more that add the most
over scoring every elk alone (:func:`engine.scoring.tokens.best_packing`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from engine.components import Wildlife
from engine.hexes import Hex
from engine.scoring.tokens import Shape, TokenGrid, best_packing, points

ELK_A_POINTS = (0, 2, 5, 9, 13)
"""Elk A by the length of a straight line (1-4)."""

ELK_B_POINTS = (0, 2, 5, 9, 13)
"""Elk B by shape: 1 elk, 2 adjacent, a triangle of 3, a diamond of 4."""

ELK_C_POINTS = (0, 2, 4, 7, 10, 14, 18, 23, 28)
"""Elk C by group size (the last entry is for 8 or more)."""

ELK_D_POINTS = (0, 2, 5, 8, 12, 16, 21)
"""Elk D by the length of an arc around one centre (1-6)."""

_LONGEST_LINE = 4
_PAIR = 2


def _formations(
    tokens: Mapping[Hex, Wildlife],
    table: tuple[int, ...],
    shapes_of: Callable[[set[int], tuple[int, ...]], list[Shape]],
) -> int:
    """Score elk formations group by group: each elk alone, plus the best packing of the
    larger formations ``shapes_of(group, steps)`` finds (their gains over lone elk)."""
    grid = TokenGrid.of(tokens)
    single = table[1]
    score = 0
    for group in grid.groups(Wildlife.ELK):
        score += single * len(group)
        if len(group) == _PAIR:  # two adjacent elk are a formation on every card
            score += table[_PAIR] - _PAIR * single
        elif len(group) > _PAIR:
            score += best_packing(shapes_of(set(group), grid.steps), split=False)
    return score


def _lines(elk: set[int], steps: tuple[int, ...]) -> list[Shape]:
    single = ELK_A_POINTS[1]
    shapes: list[Shape] = []
    for start in elk:
        for step in steps[:3]:  # one way along each axis
            line = [start]
            key = start + step
            while key in elk and len(line) < _LONGEST_LINE:
                line.append(key)
                shapes.append((tuple(line), ELK_A_POINTS[len(line)] - single * len(line)))
                key += step
    return shapes


def _exact_shapes(elk: set[int], steps: tuple[int, ...]) -> list[Shape]:
    single = ELK_B_POINTS[1]
    pair_gain = ELK_B_POINTS[2] - 2 * single
    triangle_gain = ELK_B_POINTS[3] - 3 * single
    diamond_gain = ELK_B_POINTS[4] - 4 * single
    east, north_east, south_east = steps[0], steps[1], steps[5]
    shapes: list[Shape] = []
    for a in elk:
        for d in range(3):
            b = a + steps[d]
            if b not in elk:
                continue
            shapes.append(((a, b), pair_gain))
            # The two hexes touching both a and b; with them the pair makes a diamond.
            c, e = a + steps[d - 1], a + steps[d + 1]
            if c in elk and e in elk:
                shapes.append(((a, b, c, e), diamond_gain))
        # Every triangle once: from its west corner, pointing up or down.
        if a + east in elk:
            if a + north_east in elk:
                shapes.append(((a, a + east, a + north_east), triangle_gain))
            if a + south_east in elk:
                shapes.append(((a, a + east, a + south_east), triangle_gain))
    return shapes


_ARC_GAINS = tuple(points - n * ELK_D_POINTS[1] for n, points in enumerate(ELK_D_POINTS))
_SHORTEST_ARC = 3  # shorter arcs are single elk and adjacent pairs, found directly


def _arcs(elk: set[int], steps: tuple[int, ...]) -> list[Shape]:
    shapes: list[Shape] = [
        ((a, a + step), _ARC_GAINS[2]) for a in elk for step in steps[:3] if a + step in elk
    ]
    # Arcs of three or more have one centre only: a hex next to three or more of the elk.
    around = Counter(a + step for a in elk for step in steps)
    for centre, count in around.items():
        if count < _SHORTEST_ARC:
            continue
        ring = [centre + step for step in steps]
        held = [key in elk for key in ring]
        if count == len(ring):
            shapes.append((tuple(ring), _ARC_GAINS[6]))
            starts = range(6)
        else:
            # Arcs may not wrap through an empty ring hex: start after one.
            gap = held.index(False)
            starts = range(gap + 1, gap + 7)
        for i in starts:
            if not held[i % 6]:
                continue
            arc = [ring[i % 6]]
            for j in range(i + 1, i + 5):  # up to five: the whole ring is added above
                if not held[j % 6]:
                    break
                arc.append(ring[j % 6])
                if len(arc) >= _SHORTEST_ARC:
                    shapes.append((tuple(arc), _ARC_GAINS[len(arc)]))
    return shapes


def elk_a(tokens: Mapping[Hex, Wildlife]) -> int:
    """Elk A: straight lines of elk along the three axes (a lone elk is a line of 1);
    1: 2, 2: 5, 3: 9, 4: 13. Longer lines are split; each elk is in one line, and the
    partition scoring most is taken (a line of 5 scores 4 + 1)."""
    return _formations(tokens, ELK_A_POINTS, _lines)


def elk_b(tokens: Mapping[Hex, Wildlife]) -> int:
    """Elk B: exact shapes in any orientation: 1 elk, 2 adjacent, 3 in a triangle, 4 in a
    diamond (two triangles sharing an edge); 2 / 5 / 9 / 13. Each elk is in one shape and the
    partition scoring most is taken (a straight line of 3 is not a triangle: 5 + 2)."""
    return _formations(tokens, ELK_B_POINTS, _exact_shapes)


def elk_c(tokens: Mapping[Hex, Wildlife]) -> int:
    """Elk C: each group of elk by size, any shape; 1: 2, 2: 4, 3: 7, 4: 10, 5: 14, 6: 18,
    7: 23, 8+: 28."""
    groups = TokenGrid.of(tokens).groups(Wildlife.ELK)
    return sum(points(ELK_C_POINTS, len(group)) for group in groups)


def elk_d(tokens: Mapping[Hex, Wildlife]) -> int:
    """Elk D: circular formations: 1-6 elk on a contiguous arc of the ring of six hexes
    around one centre (the centre need not hold a tile or token); 1: 2, 2: 5, 3: 8, 4: 12,
    5: 16, 6: 21. Each elk is in one arc and the partition scoring most is taken."""
    return _formations(tokens, ELK_D_POINTS, _arcs)


CARDS = {"A": elk_a, "B": elk_b, "C": elk_c, "D": elk_d}
"""The elk cards by letter."""
