"""The actions of a turn, one frozen dataclass each, with a text form that round-trips.

Display pairs are numbered 1-4, as players name them.

Text forms::

    wipe                  optional three-of-a-kind wipe (once per turn)
    nature-wipe 1 3       spend a nature token to wipe the tokens of pairs 1 and 3
    take 2                take pair 2
    take 2 4              spend a nature token: tile 2 with token 4
    tile -1,2 3           place the taken tile at -1,2 with rotation 3
    token 0,1             place the taken token on the tile at 0,1
    token return          return the taken token to the bag
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidInput
from engine.hexes import Hex

SLOTS = (1, 2, 3, 4)


def _check_slot(slot: int) -> None:
    if slot not in SLOTS:
        raise InvalidInput(f"pair must be 1-4, not {slot}")


@dataclass(frozen=True, slots=True)
class WipeThree:
    """Wipe the three matching display tokens (the optional overpopulation wipe)."""

    def __str__(self) -> str:
        return "wipe"


@dataclass(frozen=True, slots=True)
class NatureWipe:
    """Spend a nature token to replace the tokens of the given pairs."""

    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.slots:
            raise InvalidInput("name at least one token to wipe")
        for slot in self.slots:
            _check_slot(slot)
        if len(set(self.slots)) != len(self.slots):
            raise InvalidInput(f"a token is named twice: {' '.join(map(str, self.slots))}")
        object.__setattr__(self, "slots", tuple(sorted(self.slots)))

    def __str__(self) -> str:
        return "nature-wipe " + " ".join(map(str, self.slots))


@dataclass(frozen=True, slots=True)
class Take:
    """Take the tile of pair ``tile`` and the token of pair ``token``.

    When the two differ, a nature token is spent for the free choice.
    """

    tile: int
    token: int

    def __post_init__(self) -> None:
        _check_slot(self.tile)
        _check_slot(self.token)

    @property
    def free_choice(self) -> bool:
        """Whether this take splits a pair (and so costs a nature token)."""
        return self.tile != self.token

    def __str__(self) -> str:
        return f"take {self.tile}" if self.tile == self.token else f"take {self.tile} {self.token}"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Place the taken tile at ``at`` with ``rotation`` (0-5)."""

    at: Hex
    rotation: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.rotation <= 5:
            raise InvalidInput(f"rotation must be 0-5, not {self.rotation}")

    def __str__(self) -> str:
        return f"tile {self.at} {self.rotation}"


@dataclass(frozen=True, slots=True)
class PlaceToken:
    """Place the taken token on the tile at ``at``, or return it to the bag (``at`` None)."""

    at: Hex | None

    def __str__(self) -> str:
        return f"token {self.at if self.at is not None else 'return'}"


Action = WipeThree | NatureWipe | Take | PlaceTile | PlaceToken


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInput(f"{what} must be a number, not {text[:20]!r}") from None


def parse_action(text: str) -> Action:
    """Read an action's text form (see the module docstring)."""
    words = text.split()
    if not words:
        raise InvalidInput("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb == "wipe" and not args:
        return WipeThree()
    if verb == "nature-wipe":
        return NatureWipe(tuple(_int(a, "pair") for a in args))
    if verb == "take" and len(args) in (1, 2):
        tile = _int(args[0], "pair")
        return Take(tile, _int(args[1], "pair") if len(args) == 2 else tile)
    if verb == "tile" and len(args) == 2:
        return PlaceTile(Hex.parse(args[0]), _int(args[1], "rotation"))
    if verb == "token" and len(args) == 1:
        return PlaceToken(None if args[0].lower() == "return" else Hex.parse(args[0]))
    raise InvalidInput(f"not an action: {text[:60]!r}")
