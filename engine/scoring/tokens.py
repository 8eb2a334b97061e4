"""One environment's tokens indexed for scoring, and the best-partition search cards share.

Scoring walks neighbours many times, so a :class:`TokenGrid` gives every hex an integer key
once; a neighbour is then one addition and one dictionary lookup, with no ``Hex`` built.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from engine.components import Wildlife
from engine.hexes import Hex

Shape = tuple[tuple[int, ...], int]
"""A formation a card may score: the keys of its hexes and what choosing it adds."""


class TokenGrid(Mapping[Hex, Wildlife]):
    """The tokens of one environment (read-only), each hex also known by an integer key.

    The key of ``Hex(q, r)`` is ``q * width + r``. The width leaves room for every hex within
    two steps of a token, so ``key + steps[d]`` is the key of the neighbour in direction ``d``
    for every hex a card looks at. Groups are worked out once per species and kept.
    """

    __slots__ = ("_groups", "_tokens", "at", "reach", "steps", "width")

    def __init__(self, tokens: Mapping[Hex, Wildlife]) -> None:
        self._tokens: dict[Hex, Wildlife] = dict(tokens)
        self.reach: int = max((abs(h.r) for h in self._tokens), default=0) + 3
        """The largest ``|r|`` a key stands for without ambiguity."""
        width = 2 * self.reach + 1
        self.width: int = width
        """The key distance between hexes one column apart."""
        self.steps: tuple[int, int, int, int, int, int] = (
            width,
            width - 1,
            -1,
            -width,
            1 - width,
            1,
        )
        """The key offset of each of the six directions, in direction order."""
        self.at: dict[int, Wildlife] = {
            h.q * width + h.r: wildlife for h, wildlife in self._tokens.items()
        }
        """The token on each key that has one."""
        self._groups: dict[Wildlife, list[list[int]]] = {}

    @classmethod
    def of(cls, tokens: Mapping[Hex, Wildlife]) -> TokenGrid:
        """``tokens`` itself when it already is a grid, else a grid of it."""
        return tokens if isinstance(tokens, TokenGrid) else cls(tokens)

    def __getitem__(self, key: Hex) -> Wildlife:
        return self._tokens[key]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._tokens)

    def __len__(self) -> int:
        return len(self._tokens)

    def __repr__(self) -> str:
        return f"TokenGrid({self._tokens!r})"

    def key(self, hex_: Hex) -> int:
        """The integer key of ``hex_`` (meaningful while ``|r| <= reach``)."""
        return hex_.q * self.width + hex_.r

    def hex(self, key: int) -> Hex:
        """The hex of an integer key."""
        q, r = self.coordinates(key)
        return Hex(q, r)

    def coordinates(self, key: int) -> tuple[int, int]:
        """The ``(q, r)`` of an integer key."""
        q = (key + self.reach) // self.width
        return q, key - q * self.width

    def keys_of(self, wildlife: Wildlife) -> list[int]:
        """The keys holding a ``wildlife`` token."""
        return [key for key, found in self.at.items() if found == wildlife]

    def groups(self, wildlife: Wildlife) -> list[list[int]]:
        """The groups (maximal edge-connected sets) of ``wildlife`` tokens, as key lists."""
        found = self._groups.get(wildlife)
        if found is None:
            found = self._groups[wildlife] = self._find_groups(wildlife)
        return found

    def _find_groups(self, wildlife: Wildlife) -> list[list[int]]:
        at = self.at
        steps = self.steps
        seen: set[int] = set()
        groups: list[list[int]] = []
        for start in self.keys_of(wildlife):
            if start in seen:
                continue
            seen.add(start)
            group = [start]
            for key in group:  # the list grows while it is walked: a breadth-first search
                for step in steps:
                    other = key + step
                    if other not in seen and at.get(other) == wildlife:
                        seen.add(other)
                        group.append(other)
            groups.append(group)
        return groups


def points(table: Sequence[int], count: int) -> int:
    """``table[count]``, where the last entry stands for that count and any larger one."""
    return table[count] if count < len(table) else table[-1]


def best_packing(shapes: Iterable[Shape], *, split: bool = True) -> int:
    """The most that pairwise disjoint shapes chosen from ``shapes`` add up to.

    With ``split`` the shapes are first parted into clusters that share no hex, each searched
    on its own; pass ``split=False`` when they are known to form one cluster (the formations
    of one group of tokens, linked by its adjacent pairs).
    """
    useful = [(keys, gain) for keys, gain in shapes if gain > 0]
    if len(useful) <= 1:
        return useful[0][1] if useful else 0
    if not split:
        return _best_in_cluster(useful)
    return sum(_best_in_cluster(cluster) for cluster in _clusters(useful))


def _clusters(shapes: list[Shape]) -> list[list[Shape]]:
    """Split shapes into clusters that share no hex (union-find on the hexes)."""
    parent: dict[int, int] = {}

    def root(key: int) -> int:
        parent.setdefault(key, key)
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for keys, _ in shapes:
        first = root(keys[0])
        for key in keys[1:]:
            other = root(key)
            if other != first:
                parent[other] = first
    clusters: dict[int, list[Shape]] = {}
    for shape in shapes:
        clusters.setdefault(root(shape[0][0]), []).append(shape)
    return list(clusters.values())


def _best_in_cluster(shapes: list[Shape]) -> int:
    """A depth-first search over the hexes in order: the lowest open hex is either left out
    or covered by each shape that starts there, memoised on the set of open hexes (which,
    going lowest first, only differ near the hex being decided)."""
    if len(shapes) == 1:
        return shapes[0][1]
    cells = sorted({key for keys, _ in shapes for key in keys})
    bit = {key: 1 << i for i, key in enumerate(cells)}
    # Shapes by their lowest hex: when that hex is the lowest open one, every other hex of
    # the shape is still open or the shape cannot be chosen any more.
    by_lowest: dict[int, list[tuple[int, int]]] = {}
    for keys, gain in shapes:
        mask = 0
        for key in keys:
            mask |= bit[key]
        by_lowest.setdefault(mask & -mask, []).append((mask, gain))
    memo: dict[int, int] = {}

    def best(open_: int) -> int:
        # Hexes that start no shape are left out at once.
        while open_ and (open_ & -open_) not in by_lowest:
            open_ ^= open_ & -open_
        if not open_:
            return 0
        known = memo.get(open_)
        if known is not None:
            return known
        lowest = open_ & -open_
        result = best(open_ ^ lowest)
        for mask, gain in by_lowest[lowest]:
            if open_ & mask == mask:
                score = gain + best(open_ ^ mask)
                if score > result:
                    result = score
        memo[open_] = result
        return result

    return best((1 << len(cells)) - 1)
