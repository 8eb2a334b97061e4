"""One whole turn as a value: :class:`Move`, with its text form.

A :class:`Move` is a turn after any wipes: take a pair (or a free choice), place the tile,
place or return the token. ``str(move)`` writes it as its actions' text forms joined by
:data:`MOVE_SEPARATOR` and :meth:`Move.parse` reads it back. Pricing moves is
:mod:`engine.scorer`'s work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, PlaceTile, PlaceToken, Take, parse_action
from engine.environment import slot_setter
from engine.errors import InvalidInput
from engine.game import GameState, apply_all
from engine.hexes import Hex

MOVE_SEPARATOR = "; "
"""Joins the text forms of a move's actions (no action's text form contains it)."""


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """One whole turn after any wipes: take the tile of pair ``tile`` and the token of pair
    ``token`` (a free choice, paid with a nature token, when they differ), place the tile at
    ``at`` with ``rotation``, then put the token on the tile at ``token_at`` or, when that is
    None, return it to the bag.

    Its text form is its actions' text forms joined by :data:`MOVE_SEPARATOR`, such as
    ``"take 2 4; tile -1,2 3; token return"``: ``str(move)`` writes it and :meth:`parse`
    reads it back.
    """

    tile: int
    token: int
    at: Hex
    rotation: int
    token_at: Hex | None

    def __init__(self, tile: int, token: int, at: Hex, rotation: int, token_at: Hex | None) -> None:
        # A turn's listing builds a thousand or more moves: setting the slots directly is much
        # quicker than the frozen dataclass's object.__setattr__ per field.
        _SET_MOVE_TILE(self, tile)
        _SET_MOVE_TOKEN(self, token)
        _SET_MOVE_AT(self, at)
        _SET_MOVE_ROTATION(self, rotation)
        _SET_MOVE_TOKEN_AT(self, token_at)

    @property
    def free_choice(self) -> bool:
        """Whether the move splits a pair (and so spends a nature token)."""
        return self.tile != self.token

    def actions(self) -> tuple[Take, PlaceTile, PlaceToken]:
        """The engine actions of this move, in the order they are applied."""
        return (
            Take(self.tile, self.token),
            PlaceTile(self.at, self.rotation),
            PlaceToken(self.token_at),
        )

    def play(self, state: GameState, seat: int | None = None) -> GameState:
        """The state after this move on ``state``, by ``seat`` (default: the seat to move);
        raises as :func:`engine.apply` does, leaving ``state`` as it was."""
        return apply_all(state, self.actions(), seat=seat)

    @classmethod
    def from_actions(cls, actions: Sequence[Action]) -> Move:
        """The move made of a whole turn's three actions: a take, a tile, a token;
        :class:`InvalidInput` for anything else."""
        match tuple(actions):
            case (Take() as take, PlaceTile() as place, PlaceToken() as token):
                return cls(take.tile, take.token, place.at, place.rotation, token.at)
        shown = MOVE_SEPARATOR.join(map(str, actions))
        raise InvalidInput(f"not a whole move (take, tile, token): {shown[:80]!r}")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move's text form (see :class:`Move`); :class:`InvalidInput` when it is not
        one."""
        return cls.from_actions([parse_action(part) for part in text.split(";")])

    def __str__(self) -> str:
        return MOVE_SEPARATOR.join(str(action) for action in self.actions())


def turn_actions(
    pair: int, tile_at: Hex, rotation: int, token_at: Hex | None, token: int | None = None
) -> tuple[Take, PlaceTile, PlaceToken]:
    """The actions of the :class:`Move` that takes ``pair`` (or, with ``token`` differing
    from ``pair``, makes a free choice), places the tile, then places or returns the token."""
    return Move(pair, pair if token is None else token, tile_at, rotation, token_at).actions()


def play_turn(
    state: GameState,
    *,
    pair: int,
    tile_at: Hex,
    rotation: int,
    token_at: Hex | None,
    token: int | None = None,
    seat: int | None = None,
) -> GameState:
    """The state after the whole turn :func:`turn_actions` describes, played by ``seat``."""
    move = Move(pair, pair if token is None else token, tile_at, rotation, token_at)
    return move.play(state, seat)


_SET_MOVE_TILE = slot_setter(Move, "tile")
_SET_MOVE_TOKEN = slot_setter(Move, "token")
_SET_MOVE_AT = slot_setter(Move, "at")
_SET_MOVE_ROTATION = slot_setter(Move, "rotation")
_SET_MOVE_TOKEN_AT = slot_setter(Move, "token_at")
