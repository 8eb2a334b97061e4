"""The game's pieces: habitats, wildlife, tiles, scoring cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import InvalidInput
from engine.hexes import Hex
from engine.tiles_data import HABITAT_TILES, STARTER_TILES


class Habitat(StrEnum):
    """The five habitats, in score-pad order."""

    MOUNTAIN = "mountain"
    FOREST = "forest"
    PRAIRIE = "prairie"
    WETLAND = "wetland"
    RIVER = "river"

    @property
    def letter(self) -> str:
        """One upper-case letter used by the compact text forms."""
        return _HABITAT_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Habitat:
        """The habitat of a text-form letter."""
        for habitat, known in _HABITAT_LETTERS.items():
            if known == letter.upper():
                return habitat
        raise InvalidInput(f"unknown habitat letter: {letter!r}")


class Wildlife(StrEnum):
    """The five wildlife species, in score-pad order."""

    BEAR = "bear"
    ELK = "elk"
    SALMON = "salmon"
    HAWK = "hawk"
    FOX = "fox"

    @property
    def letter(self) -> str:
        """One lower-case letter used by the compact text forms."""
        return self.value[0]

    @classmethod
    def from_letter(cls, letter: str) -> Wildlife:
        """The species of a text-form letter."""
        for wildlife in cls:
            if wildlife.letter == letter.lower():
                return wildlife
        raise InvalidInput(f"unknown wildlife letter: {letter!r}")


_HABITAT_LETTERS = {
    Habitat.MOUNTAIN: "M",
    Habitat.FOREST: "F",
    Habitat.PRAIRIE: "P",
    Habitat.WETLAND: "W",
    Habitat.RIVER: "R",
}


def parse_habitat(name: str) -> Habitat:
    """A habitat from its lowercase name."""
    try:
        return Habitat(name)
    except ValueError:
        raise InvalidInput(f"unknown habitat: {name!r}") from None


def parse_wildlife(name: str) -> Wildlife:
    """A species from its lowercase name."""
    try:
        return Wildlife(name)
    except ValueError:
        raise InvalidInput(f"unknown wildlife: {name!r}") from None


_EDGES: dict[tuple[tuple[Habitat, ...], int], tuple[Habitat, ...]] = {}
"""The edges of each habitat pair and rotation, worked out once (every tile placed asks)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A habitat tile (or one hex of a starter tile) as printed: no position, no rotation.

    ``id`` is 1-15 for starter hexes, 16-100 for habitat tiles, 0 for a tile read from a
    table that carries no id. A two-habitat tile shows ``habitats[0]`` on edges k..k+2 and
    ``habitats[1]`` on edges k+3..k+5 when placed with rotation k.
    """

    id: int
    habitats: tuple[Habitat, ...]
    wildlife: tuple[Wildlife, ...]
    keystone: bool = False

    def __post_init__(self) -> None:
        if len(self.habitats) not in (1, 2) or len(set(self.habitats)) != len(self.habitats):
            raise InvalidInput(f"a tile shows one or two habitats, not {self.habitats!r}")
        if not 1 <= len(self.wildlife) <= 3 or len(set(self.wildlife)) != len(self.wildlife):
            raise InvalidInput(f"a tile shows one to three species, not {self.wildlife!r}")

    def edges(self, rotation: int) -> tuple[Habitat, ...]:
        """The habitat on each of the six edges (direction order) for ``rotation``."""
        key = (self.habitats, rotation % 6)
        found = _EDGES.get(key)
        if found is None:
            if len(self.habitats) == 1:
                found = self.habitats * 6
            else:
                a, b = self.habitats
                found = tuple(a if (edge - rotation) % 6 < 3 else b for edge in range(6))
            _EDGES[key] = found
        return found

    @property
    def rotations(self) -> tuple[int, ...]:
        """The rotations that look different: one for a single-habitat tile, else six."""
        return (0,) if len(self.habitats) == 1 else (0, 1, 2, 3, 4, 5)

    @property
    def code(self) -> str:
        """Compact text form without id, e.g. ``"FR/es"`` (forest+river, elk or salmon)."""
        habitats = "".join(h.letter for h in self.habitats)
        wildlife = "".join(w.letter for w in self.wildlife)
        return f"{habitats}/{wildlife}"

    def __str__(self) -> str:
        return f"#{self.id} {self.code}" if self.id else self.code

    @classmethod
    def from_code(cls, code: str, *, tile_id: int = 0) -> Tile:
        """Read a compact form such as ``"M/b"`` or ``"FR/es"``; single-species single-habitat
        tiles are keystones."""
        habitats_text, sep, wildlife_text = code.strip().partition("/")
        if not sep or not habitats_text or not wildlife_text:
            raise InvalidInput(f"not a tile: {code!r} (expected e.g. FR/es)")
        habitats = tuple(Habitat.from_letter(c) for c in habitats_text)
        wildlife = tuple(Wildlife.from_letter(c) for c in wildlife_text)
        keystone = len(habitats) == 1 and len(wildlife) == 1
        return cls(tile_id, habitats, wildlife, keystone)


@dataclass(frozen=True, slots=True)
class StarterTile:
    """A starter tile: three hexes at fixed positions and rotations around the origin."""

    name: str
    hexes: tuple[tuple[Hex, Tile, int], ...] = field(default=())


def _build_habitat_tiles() -> tuple[Tile, ...]:
    return tuple(
        Tile(
            tile_id,
            tuple(Habitat(h) for h in habitats),
            tuple(Wildlife(w) for w in wildlife),
            keystone,
        )
        for tile_id, habitats, wildlife, keystone in HABITAT_TILES
    )


def _build_starters() -> tuple[StarterTile, ...]:
    starters = []
    for name, hexes in STARTER_TILES:
        placed = tuple(
            (
                Hex(q, r),
                Tile(
                    tile_id,
                    tuple(Habitat(h) for h in habitats),
                    tuple(Wildlife(w) for w in wildlife),
                    keystone,
                ),
                rotation,
            )
            for tile_id, q, r, habitats, rotation, wildlife, keystone in hexes
        )
        starters.append(StarterTile(name, placed))
    return tuple(starters)


HABITAT_TILES_ALL: tuple[Tile, ...] = _build_habitat_tiles()
"""The 85 habitat tiles, ids 16-100."""

STARTERS: tuple[StarterTile, ...] = _build_starters()
"""The 5 starter tiles."""

TILES_BY_ID: dict[int, Tile] = {
    tile.id: tile for tile in (*HABITAT_TILES_ALL, *(t for s in STARTERS for _, t, _ in s.hexes))
}
"""Every printed tile and starter hex by id."""

TOKENS_PER_SPECIES = 20
NATURE_TOKEN_SUPPLY = 25
TURNS_PER_PLAYER = 20
MAX_PLAYERS = 4
"""The most players a game can have."""


def tiles_in_play(players: int) -> int:
    """How many habitat tiles a game uses: 43 for one or two players, 63 for three, 83 for four."""
    return 20 * max(players, 2) + 3


class Variant(StrEnum):
    """The variant card used for all five wildlife instead of A-D cards."""

    FAMILY = "family"
    INTERMEDIATE = "intermediate"


class CardLetter(StrEnum):
    """The letter of a wildlife's scoring card, A to D (the cards of the base game)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"


CARD_LETTERS = tuple(CardLetter)
"""Every card letter, A to D in order."""

CardLetters = tuple[CardLetter, CardLetter, CardLetter, CardLetter, CardLetter]
"""A card letter per wildlife, in the order bear, elk, salmon, hawk, fox."""


@dataclass(frozen=True, slots=True)
class CardSet:
    """The scoring cards in play: one letter A-D per wildlife, or one variant for all.

    Text form: five letters in the order bear, elk, salmon, hawk, fox (``"ABCDA"``), or
    ``"family"`` / ``"intermediate"``.
    """

    letters: CardLetters | None = None
    variant: Variant | None = None

    def __post_init__(self) -> None:
        if (self.letters is None) == (self.variant is None):
            raise InvalidInput("a card set is five letters or one variant")
        if self.letters is not None:
            if len(self.letters) != 5 or any(c not in CARD_LETTERS for c in self.letters):
                raise InvalidInput(f"card letters must be five of A-D, not {self.letters!r}")
            # Plain "A"-"D" strings are accepted and kept as their card letters.
            object.__setattr__(self, "letters", tuple(CardLetter(c) for c in self.letters))

    def card(self, wildlife: Wildlife) -> CardLetter | Variant:
        """The card for ``wildlife``: a letter A-D, or the variant for all."""
        if self.variant is not None:
            return self.variant
        letters = self.letters or ()
        return letters[list(Wildlife).index(wildlife)]

    def __str__(self) -> str:
        return self.variant.value if self.variant is not None else "".join(self.letters or ())

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read ``"ABCDA"``, one letter for all (``"A"``), ``"family"`` or ``"intermediate"``."""
        cleaned = text.strip()
        lowered = cleaned.lower()
        for variant in Variant:
            if lowered == variant.value:
                return cls(variant=variant)
        upper = cleaned.upper()
        if len(upper) == 1:
            upper *= 5
        if len(upper) != 5 or any(c not in CARD_LETTERS for c in upper):
            raise InvalidInput(
                f"not a card choice: {text[:40]!r} "
                "(expected five letters A-D such as ABCDA, one letter, family or intermediate)"
            )
        a, b, c, d, e = (CardLetter(letter) for letter in upper)
        return cls(letters=(a, b, c, d, e))
