"""A player's environment: placed tiles keyed by hex, with their rotation and token."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter

from engine.components import Habitat, StarterTile, Tile, Wildlife
from engine.errors import InvalidInput
from engine.hexes import Hex

_POSITION = attrgetter("q", "r")
"""The order of hexes (as :func:`engine.hexes.sort_key`), as a key that runs no Python code."""


@dataclass(frozen=True, slots=True, init=False)
class PlacedTile:
    """A tile in an environment: the printed tile, its rotation (0..5) and its token, if any."""

    tile: Tile
    rotation: int = 0
    token: Wildlife | None = None
    edges: tuple[Habitat, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, tile: Tile, rotation: int = 0, token: Wildlife | None = None) -> None:
        if not 0 <= rotation <= 5:
            raise InvalidInput(f"rotation must be 0..5, not {rotation}")
        if token is not None and token not in tile.wildlife:
            raise InvalidInput(f"tile {tile.code} cannot hold a {token}")
        if len(tile.habitats) != 2:
            rotation = 0
        # Every placement builds one: setting the slots directly is much quicker than the
        # frozen dataclass's object.__setattr__ per field.
        _SET_PLACED_TILE(self, tile)
        _SET_PLACED_ROTATION(self, rotation)
        _SET_PLACED_TOKEN(self, token)
        _SET_PLACED_EDGES(self, tile.edges(rotation))

    def can_take(self, wildlife: Wildlife) -> bool:
        """Whether a ``wildlife`` token may be placed here now."""
        return self.token is None and wildlife in self.tile.wildlife

    @property
    def code(self) -> str:
        """Compact text form, e.g. ``"FR/es@2=e"`` (rotation 2, an elk on it)."""
        text = self.tile.code
        if len(self.tile.habitats) == 2:
            text += f"@{self.rotation}"
        if self.token is not None:
            text += f"={self.token.letter}"
        return text

    @classmethod
    def from_code(cls, code: str, *, tile_id: int = 0) -> PlacedTile:
        """Read the compact form written by :attr:`code`."""
        text, _, token_text = code.strip().partition("=")
        text, _, rotation_text = text.partition("@")
        try:
            rotation = int(rotation_text) if rotation_text else 0
        except ValueError:
            raise InvalidInput(f"not a rotation: {rotation_text!r}") from None
        token = Wildlife.from_letter(token_text) if token_text else None
        return cls(Tile.from_code(text, tile_id=tile_id), rotation, token)


def slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    """What sets the slot ``name`` of a ``cls`` value (its member descriptor's setter): for
    the frozen values built by the thousand, quicker than ``object.__setattr__``."""
    setter: Callable[[object, object], None] = vars(cls)[name].__set__
    return setter


_SET_PLACED_TILE = slot_setter(PlacedTile, "tile")
_SET_PLACED_ROTATION = slot_setter(PlacedTile, "rotation")
_SET_PLACED_TOKEN = slot_setter(PlacedTile, "token")
_SET_PLACED_EDGES = slot_setter(PlacedTile, "edges")


class Environment(Mapping[Hex, PlacedTile]):
    """An immutable map from hex to placed tile. Changes return a new environment."""

    __slots__ = ("_frontier", "_tiles")

    def __init__(self, tiles: Mapping[Hex, PlacedTile] | None = None) -> None:
        self._tiles: dict[Hex, PlacedTile] = dict(tiles or {})
        self._frontier: frozenset[Hex] | None = None

    def __getitem__(self, key: Hex) -> PlacedTile:
        return self._tiles[key]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, key: object) -> bool:
        return key in self._tiles

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Environment):
            return self._tiles == other._tiles
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._tiles.items()))

    def __repr__(self) -> str:
        return f"Environment.parse({self.text()!r})"

    @classmethod
    def from_starter(cls, starter: StarterTile) -> Environment:
        """The environment a starter tile begins."""
        return cls({hex_: PlacedTile(tile, rotation) for hex_, tile, rotation in starter.hexes})

    def with_tile(self, hex_: Hex, placed: PlacedTile) -> Environment:
        """A copy with ``placed`` at ``hex_`` (replacing whatever was there)."""
        tiles = dict(self._tiles)
        tiles[hex_] = placed
        env = Environment.__new__(Environment)  # without __init__'s second copy of the tiles
        env._tiles = tiles
        env._frontier = None
        if self._frontier is not None and hex_ not in self._tiles:
            grown = {n for n in hex_.neighbors() if n not in tiles}
            env._frontier = (self._frontier - {hex_}) | grown
        elif hex_ in self._tiles:
            env._frontier = self._frontier
        return env

    def with_token(self, hex_: Hex, wildlife: Wildlife) -> Environment:
        """A copy with a ``wildlife`` token on the tile at ``hex_``."""
        placed = self._tiles[hex_]
        return self.with_tile(hex_, PlacedTile(placed.tile, placed.rotation, wildlife))

    def frontier(self) -> list[Hex]:
        """Empty hexes that touch at least one tile, sorted: where a new tile may go."""
        return sorted(self._frontier_set(), key=_POSITION)

    def _frontier_set(self) -> frozenset[Hex]:
        if self._frontier is None:
            tiles = self._tiles
            self._frontier = frozenset(n for h in tiles for n in h.neighbors() if n not in tiles)
        return self._frontier

    def is_frontier(self, hex_: Hex) -> bool:
        """Whether a tile may be placed at ``hex_``: empty and next to a tile."""
        return hex_ in self._frontier_set()

    def tokens(self) -> dict[Hex, Wildlife]:
        """Every placed token by hex."""
        return {h: p.token for h, p in self._tiles.items() if p.token is not None}

    def token_targets(self, wildlife: Wildlife) -> list[Hex]:
        """Hexes whose tile could take a ``wildlife`` token now, sorted."""
        return sorted((h for h, p in self._tiles.items() if p.can_take(wildlife)), key=_POSITION)

    def is_connected(self) -> bool:
        """Whether the tiles form one edge-connected group (an empty environment is)."""
        if not self._tiles:
            return True
        start = next(iter(self._tiles))
        seen = {start}
        stack = [start]
        while stack:
            for n in stack.pop().neighbors():
                if n in self._tiles and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return len(seen) == len(self._tiles)

    def text(self) -> str:
        """Compact text form: ``"q,r [#id ]CODE"`` entries sorted by hex, joined by ``"; "``."""
        parts = []
        for h in sorted(self._tiles):
            placed = self._tiles[h]
            tile_id = f"#{placed.tile.id} " if placed.tile.id else ""
            parts.append(f"{h} {tile_id}{placed.code}")
        return "; ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Environment:
        """Read :meth:`text`: entries such as ``"0,0 M/b=b; 1,0 FR/es@2"`` (``;`` or newlines)."""
        tiles: dict[Hex, PlacedTile] = {}
        for raw in text.replace("\n", ";").split(";"):
            entry = raw.strip()
            if not entry:
                continue
            where, _, code = entry.rpartition(" ")
            tile_id = 0
            where, _, id_text = where.partition("#")
            if id_text:
                if not id_text.strip().isdigit():
                    raise InvalidInput(f"not a tile id: {id_text!r}")
                tile_id = int(id_text)
            hex_ = Hex.parse(where)
            if hex_ in tiles:
                raise InvalidInput(f"two tiles at {hex_}")
            tiles[hex_] = PlacedTile.from_code(code, tile_id=tile_id)
        return cls(tiles)
