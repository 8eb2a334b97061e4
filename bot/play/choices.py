"""Autocomplete choices for positions: only what the engine would accept, filtered by what
was typed. Pure functions of a state, so they are tested without Discord."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.captions import MAX_CHOICES
from bot.game.kernel import as_seat
from bot.game.messages import tile_text
from bot.panel.draft import DIRECTION_NAMES
from bot.panel.gains import place_gains
from engine import (
    CascadiaError,
    GameState,
    Hex,
    MoveScorer,
    PlaceTile,
    PlaceToken,
    Take,
    apply,
    legal_actions,
    tile_positions,
)
from i18n import _

RETURN = "return"
"""The ``token_at`` value that returns the token to the bag."""
MAX_NAME = 100
"""The longest choice name Discord shows; a longer one (a long translation) is cut."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One autocomplete entry: what the list shows and the value the option receives."""

    name: str
    value: str


def tile_choices(
    state: GameState, seat: int, *, pair: int | None = None, token: int | None = None
) -> list[Choice]:
    """Every empty position touching ``seat``'s environment. Once the pair (and the token
    of a free choice) is known, each with the best score change of the whole move there and
    the rotation that gives it, best first, as the turn panel lists them; else nearest the
    centre first."""
    start = as_seat(state, seat)
    take = _take(pair, token)
    if take is not None:
        try:
            found = place_gains(start, take)
        except CascadiaError:
            pass  # an empty pair, or a free choice without a nature token: the play refuses
        else:
            turns = _turns(start, take.tile)
            return [
                Choice(_place_name(g.at, g.gain, g.rotation if turns else None), str(g.at))
                for g in found
            ]
    positions = tile_positions(start)
    return [Choice(str(h), str(h)) for h in sorted(positions, key=_centre_first)]


def rotation_choices(
    state: GameState,
    seat: int,
    *,
    pair: int | None,
    tile_at: Hex | None,
    token: int | None,
) -> list[Choice]:
    """The rotations 0-5 in words: which way each habitat of the pair's tile faces and,
    once the tile has a place, what the turn adds to the corridors there. A one-habitat tile
    looks the same every way: one choice. Without a pair, where the first habitat faces."""
    start = as_seat(state, seat)
    take = _take(pair, token)
    tile = None if take is None else start.display_tiles[take.tile - 1]
    if tile is None:
        return [
            Choice(
                _("{rotation}: the first habitat faces {side}", rotation=k, side=_facing(k)),
                str(k),
            )
            for k in range(6)
        ]
    if len(tile.rotations) == 1:
        return [Choice(_("0: one habitat, every way is the same"), "0")]
    gains: tuple[int, ...] | None = None
    if tile_at is not None and tile_at in tile_positions(start):
        gains = MoveScorer(start).corridors.gains(tile, tile_at)
    # The habitats and sides are worded as the rest of the game words them.
    first, second = (_(h.value) for h in tile.habitats)
    found = []
    for k in tile.rotations:
        fields = {
            "rotation": k,
            "first": first,
            "side": _facing(k),
            "second": second,
            "other_side": _facing(k + 3),
        }
        if gains is None:
            name = _("{rotation}: {first} faces {side}, {second} {other_side}", **fields)
        else:
            name = _(
                "{rotation}: {first} faces {side}, {second} {other_side} (corridors {gain})",
                gain=format(gains[k], "+d"),
                **fields,
            )
        found.append(Choice(name, str(k)))
    return found


def _place_name(at: Hex, gain: int, rotation: int | None) -> str:
    """A free place with the best score change of the move there, and the rotation that
    gives it when the tile turns."""
    if rotation is None:
        return _("{place}: up to {gain}", place=str(at), gain=format(gain, "+d"))
    return _(
        "{place}: up to {gain} with rotation {rotation}",
        place=str(at),
        gain=format(gain, "+d"),
        rotation=rotation,
    )


def _facing(rotation: int) -> str:
    """The side the first habitat of a two-habitat tile turned ``rotation`` faces: the
    middle of its three edges, worded in the reader's language."""
    return _(DIRECTION_NAMES[(rotation + 1) % 6])


def _turns(state: GameState, pair: int) -> bool:
    tile = state.display_tiles[pair - 1]
    return tile is not None and len(tile.rotations) > 1


def _take(pair: int | None, token: int | None) -> Take | None:
    if pair is None or pair not in (1, 2, 3, 4):
        return None
    return Take(pair, token if token in (1, 2, 3, 4) else pair)


def token_choices(
    state: GameState,
    seat: int,
    *,
    pair: int | None,
    tile_at: Hex | None,
    rotation: int | None,
    token: int | None,
) -> list[Choice]:
    """Where the token of this turn may go, given the other options as far as they are
    filled in, then "return". Without a valid pair, every display token is considered;
    without a valid tile position, only the tiles already placed."""
    start = as_seat(state, seat)
    env = start.current_player.environment
    targets: set[Hex] = set()
    slots = (pair,) if pair is not None and pair in (1, 2, 3, 4) else (1, 2, 3, 4)
    for slot in slots:
        species = start.display_tokens[(token if token in (1, 2, 3, 4) else slot) - 1]
        placed = _after_tile(start, slot, token, tile_at, rotation)
        if placed is not None:
            targets.update(
                a.at
                for a in legal_actions(placed)
                if isinstance(a, PlaceToken) and a.at is not None
            )
        elif species is not None:
            targets.update(env.token_targets(species))
    choices = [
        Choice(_token_name(start, h, tile_at), str(h)) for h in sorted(targets, key=_centre_first)
    ]
    return [*choices, Choice(_("return the token to the bag"), RETURN)]


def _after_tile(
    state: GameState, pair: int, token: int | None, tile_at: Hex | None, rotation: int | None
) -> GameState | None:
    if tile_at is None:
        return None
    try:
        taken = apply(state, Take(pair, token if token in (1, 2, 3, 4) else pair))
        return apply(taken, PlaceTile(tile_at, rotation if rotation is not None else 0))
    except CascadiaError:
        return None


def _token_name(state: GameState, hex_: Hex, tile_at: Hex | None) -> str:
    placed = state.current_player.environment.get(hex_)
    if placed is None or hex_ == tile_at:
        return _("{place}: the tile you place", place=str(hex_))
    return f"{hex_}: {tile_text(placed.tile)}"


def _centre_first(hex_: Hex) -> tuple[int, Hex]:
    return (hex_.distance(Hex(0, 0)), hex_)


def matching(choices: Sequence[Choice], typed: str, limit: int = MAX_CHOICES) -> list[Choice]:
    """The choices that contain what was typed (spaces ignored), those starting with it
    first, at most ``limit``. Digits look for a position (a name's score change is not
    one); a word may be in the name too."""
    needle = "".join(typed.split()).lower()
    words = any(ch.isalpha() for ch in needle)
    hits = [
        c
        for c in choices
        if needle in "".join(c.value.split()).lower() or (words and needle in c.name.lower())
    ]
    hits.sort(key=lambda c: not c.value.lower().startswith(needle))
    return [Choice(fit(c.name), c.value) for c in hits[:limit]]


def fit(name: str) -> str:
    """``name`` as Discord takes it: at most :data:`MAX_NAME` characters."""
    return name if len(name) <= MAX_NAME else f"{name[: MAX_NAME - 1]}…"


def parse_hex(text: str | None) -> Hex | None:
    """A position typed in another option, or ``None`` if it is missing or unreadable."""
    if not text:
        return None
    try:
        return Hex.parse(text)
    except CascadiaError:
        return None
