"""Habitat corridors and the majority bonuses for them.

Two tiles are connected for a habitat when the two edges that touch both show it. A
corridor is a maximal connected set of tiles for one habitat; each habitat scores 1 point
per tile of its largest corridor, and the players compare those sizes for bonuses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.components import MAX_PLAYERS, Habitat
from engine.environment import PlacedTile
from engine.errors import InvalidInput
from engine.hexes import VECTORS, Hex

SOLO_BONUS = 2
"""Solo: for each habitat whose largest corridor has at least :data:`SOLO_BONUS_SIZE` tiles."""

SOLO_BONUS_SIZE = 7
"""The smallest corridor that earns the solo bonus."""

TWO_PLAYER_BONUS = (2, 1)
"""Two players: the larger corridor; each of two tied."""

MULTIPLAYER_BONUS = (3, 1)
"""Three or four players: the largest corridor, the second largest."""

MULTIPLAYER_TIED_BONUS = (2, 1)
"""Three or four players: each of two tied for largest; each of three or more tied."""

_TWO_PLAYERS = 2


def largest_corridors(env: Mapping[Hex, PlacedTile]) -> dict[Habitat, int]:
    """The size (in tiles) of the largest corridor of each habitat, in score-pad order."""
    habitats = list(Habitat)
    slot = {habitat: i for i, habitat in enumerate(habitats)}
    count = len(habitats)
    tiles = list(env.items())
    index = {(hex_.q, hex_.r): i for i, (hex_, _) in enumerate(tiles)}
    # Union-find over (tile, habitat) nodes, numbered tile * count + habitat slot.
    parent = list(range(len(tiles) * count))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, (hex_, placed) in enumerate(tiles):
        edges = placed.edges
        for direction in range(3):  # each touching pair once
            dq, dr = VECTORS[direction]
            j = index.get((hex_.q + dq, hex_.r + dr))
            if j is None:
                continue
            habitat = edges[direction]
            if tiles[j][1].edges[direction + 3] == habitat:
                a, b = root(i * count + slot[habitat]), root(j * count + slot[habitat])
                if a != b:
                    parent[a] = b
    sizes: Counter[int] = Counter()
    for i, (_, placed) in enumerate(tiles):
        for habitat in set(placed.edges):
            sizes[root(i * count + slot[habitat])] += 1
    largest = dict.fromkeys(habitats, 0)
    for node, size in sizes.items():
        habitat = habitats[node % count]
        if size > largest[habitat]:
            largest[habitat] = size
    return largest


def habitat_bonuses(corridors: Sequence[Mapping[Habitat, int]]) -> list[dict[Habitat, int]]:
    """Each player's bonus per habitat, from every player's largest corridor sizes.

    One player: +2 for each habitat of 7 or more tiles. Two players: the larger +2, a tie +1
    each. Three or four: the largest +3 and the second +1; two tied for largest +2 each and
    no second; three or more tied for largest +1 each; a tie for second earns nothing. A
    corridor of size 0 never earns a bonus.
    """
    players = len(corridors)
    if players > MAX_PLAYERS:
        raise InvalidInput(f"at most {MAX_PLAYERS} players, not {players}")
    bonuses = [dict.fromkeys(Habitat, 0) for _ in corridors]
    for habitat in Habitat:
        sizes = [sizes.get(habitat, 0) for sizes in corridors]
        for player, bonus in enumerate(_bonus(sizes)):
            bonuses[player][habitat] = bonus
    return bonuses


def _bonus(sizes: list[int]) -> list[int]:
    """The bonus of each player for one habitat."""
    if len(sizes) == 1:
        return [SOLO_BONUS if sizes[0] >= SOLO_BONUS_SIZE else 0]
    bonus = [0] * len(sizes)
    best = max(sizes, default=0)
    if best == 0:
        return bonus
    leaders = [i for i, size in enumerate(sizes) if size == best]
    if len(sizes) == _TWO_PLAYERS:
        for i in leaders:
            bonus[i] = TWO_PLAYER_BONUS[0] if len(leaders) == 1 else TWO_PLAYER_BONUS[1]
        return bonus
    if len(leaders) == 1:
        bonus[leaders[0]] = MULTIPLAYER_BONUS[0]
        second = max((size for size in sizes if size < best), default=0)
        runners_up = [i for i, size in enumerate(sizes) if size == second]
        if second > 0 and len(runners_up) == 1:
            bonus[runners_up[0]] = MULTIPLAYER_BONUS[1]
    else:
        tied = (
            MULTIPLAYER_TIED_BONUS[0] if len(leaders) == _TWO_PLAYERS else MULTIPLAYER_TIED_BONUS[1]
        )
        for i in leaders:
            bonus[i] = tied
    return bonus
