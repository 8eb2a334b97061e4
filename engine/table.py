"""The table-json interchange format: card choice and every player's environment.

:func:`read_table` reads a document (text) and :func:`table_from_json` an already decoded
one; both check everything and raise :class:`~engine.errors.InvalidInput` with a one-line
message naming the problem and where it is (player and coordinate). :func:`table_to_json`
and :func:`environment_to_table` write the same shapes. The format is described in
``table-json.md``; a tile may also carry its printed ``"id"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from engine.components import (
    CARD_LETTERS,
    MAX_PLAYERS,
    TILES_BY_ID,
    TOKENS_PER_SPECIES,
    CardLetter,
    CardSet,
    Habitat,
    Tile,
    Variant,
    Wildlife,
)
from engine.environment import Environment, PlacedTile
from engine.errors import InvalidInput
from engine.hexes import Hex
from engine.serialize import decode_json

PlayerEntry = tuple[str, Environment, int]
"""One player of a table: name, environment, unspent nature tokens."""

_TABLE_FIELDS = ({"cards", "players"}, set[str]())
_PLAYER_FIELDS = ({"name", "tiles"}, {"nature_tokens"})
_TILE_FIELDS = ({"q", "r", "habitats", "wildlife"}, {"rotation", "token", "keystone", "id"})
_ECHO = 40  # characters of a bad value echoed in a message
_TWO = 2  # habitats on a split tile
_ROTATIONS = range(6)
_Name = TypeVar("_Name", Habitat, Wildlife)


class _JSONObject(dict[str, Any]):
    """A decoded JSON object that remembers the keys the text gave more than once."""

    repeated: tuple[str, ...] = ()


def _json_object(pairs: list[tuple[str, Any]]) -> _JSONObject:
    result = _JSONObject(pairs)
    if len(result) != len(pairs):
        counts = Counter(key for key, _ in pairs)
        result.repeated = tuple(sorted(key for key, count in counts.items() if count > 1))
    return result


def read_table(text: str) -> tuple[CardSet, list[PlayerEntry]]:
    """Read a table-json document: the cards and ``(name, environment, nature tokens)`` per
    player, in seat order."""
    return table_from_json(decode_json(text, object_pairs_hook=_json_object))


def table_from_json(data: object) -> tuple[CardSet, list[PlayerEntry]]:
    """Check and read a decoded table-json document (see :func:`read_table`)."""
    table = _fields(data, "the table", _TABLE_FIELDS)
    cards = _cards(table["cards"])
    players_data = table["players"]
    if not isinstance(players_data, list):
        raise InvalidInput(f"players must be a list, not {_kind(players_data)}")
    if not players_data:
        raise InvalidInput("the table has no players")
    if len(players_data) > MAX_PLAYERS:
        raise InvalidInput(f"{len(players_data)} players; a game has at most {MAX_PLAYERS}")
    players = [_player(entry, seat) for seat, entry in enumerate(players_data, start=1)]
    names = Counter(name for name, _, _ in players)
    for name, count in names.items():
        if count > 1:
            raise InvalidInput(f"{count} players are called {name!r}")
    _check_ids(players)
    tokens = Counter(t for _, env, _ in players for t in env.tokens().values())
    for wildlife, count in tokens.items():
        if count > TOKENS_PER_SPECIES:
            raise InvalidInput(
                f"{count} {wildlife} tokens on the table; the game has {TOKENS_PER_SPECIES}"
            )
    return cards, players


def environment_to_table(
    name: str, env: Mapping[Hex, PlacedTile], nature_tokens: int
) -> dict[str, Any]:
    """One player's entry of a table: name, nature tokens and tiles sorted by hex."""
    return {
        "name": name,
        "nature_tokens": nature_tokens,
        "tiles": [_tile_to_json(hex_, env[hex_]) for hex_ in sorted(env)],
    }


def table_to_json(
    cards: CardSet, players: Sequence[tuple[str, Environment, int]]
) -> dict[str, Any]:
    """A table-json document (as JSON-ready values) for ``cards`` and ``players``."""
    return {
        "cards": _cards_to_json(cards),
        "players": [environment_to_table(name, env, tokens) for name, env, tokens in players],
    }


def _cards_to_json(cards: CardSet) -> str | dict[str, str]:
    if cards.variant is not None:
        return cards.variant.value
    return {wildlife.value: cards.card(wildlife) for wildlife in Wildlife}


def _tile_to_json(hex_: Hex, placed: PlacedTile) -> dict[str, Any]:
    tile = placed.tile
    entry: dict[str, Any] = {"q": hex_.q, "r": hex_.r}
    if tile.id:
        entry["id"] = tile.id
    entry["habitats"] = [habitat.value for habitat in tile.habitats]
    if len(tile.habitats) == _TWO:
        entry["rotation"] = placed.rotation
    entry["wildlife"] = [wildlife.value for wildlife in tile.wildlife]
    entry["token"] = placed.token.value if placed.token is not None else None
    entry["keystone"] = tile.keystone
    return entry


# Reading, piece by piece. ``where`` always names the place for messages.


def _echo(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _ECHO else text[: _ECHO - 3] + "..."


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a fractional number"
    if isinstance(value, str):
        return f"the string {_echo(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _fields(
    data: object, where: str, fields: tuple[set[str], set[str]], *, closed: bool = False
) -> dict[str, Any]:
    """``data`` as an object with all the required fields; with ``closed``, no others.

    Only the cards object is closed (its keys are wildlife names, and an unknown name is bad
    input); elsewhere the format names no error for extra fields, so they are ignored.
    """
    required, optional = fields
    if not isinstance(data, dict):
        raise InvalidInput(f"{where} must be an object, not {_kind(data)}")
    repeated = getattr(data, "repeated", ())
    if repeated:
        if "token" in repeated and "token" in optional:
            raise InvalidInput(f"{where}: a second token on the tile")
        raise InvalidInput(f"{where}: field {repeated[0]!r} given twice")
    for key in data:
        if closed and key not in required and key not in optional:
            raise InvalidInput(f"{where}: unknown field {_echo(key)}")
    for key in sorted(required):
        if key not in data:
            raise InvalidInput(f"{where}: missing field {key!r}")
    return data


def _int(value: object, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{where}: {what} must be a whole number, not {_kind(value)}")
    return value


def _cards(data: object) -> CardSet:
    if isinstance(data, str):
        for variant in Variant:
            if data == variant.value:
                return CardSet(variant=variant)
        raise InvalidInput(
            f"unknown cards {_echo(data)} (expected family, intermediate or a letter per wildlife)"
        )
    if not isinstance(data, dict):
        raise InvalidInput(f"cards must be an object or a variant name, not {_kind(data)}")
    cards = _fields(data, "cards", ({w.value for w in Wildlife}, set()), closed=True)
    letters = []
    for wildlife in Wildlife:
        letter = cards[wildlife.value]
        if not isinstance(letter, str) or letter not in CARD_LETTERS:
            raise InvalidInput(
                f"cards: the {wildlife} card must be A, B, C or D, not {_kind(letter)}"
            )
        letters.append(CardLetter(letter))
    a, b, c, d, e = letters
    return CardSet(letters=(a, b, c, d, e))


def _player(data: object, seat: int) -> PlayerEntry:
    where = f"player {seat}"
    if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"]:
        where = f"player {_echo(data['name'])}"
    player = _fields(data, where, _PLAYER_FIELDS)
    name = player["name"]
    if not isinstance(name, str) or not name:
        raise InvalidInput(f"{where}: name must be a non-empty string, not {_kind(name)}")
    nature_tokens = _int(player.get("nature_tokens", 0), where, "nature_tokens")
    if nature_tokens < 0:
        raise InvalidInput(f"{where}: nature_tokens cannot be negative ({nature_tokens})")
    tiles_data = player["tiles"]
    if not isinstance(tiles_data, list):
        raise InvalidInput(f"{where}: tiles must be a list, not {_kind(tiles_data)}")
    if not tiles_data:
        raise InvalidInput(f"{where}: no tiles")
    tiles: dict[Hex, PlacedTile] = {}
    for number, entry in enumerate(tiles_data, start=1):
        hex_, placed = _tile(entry, f"{where} tile #{number}", where)
        if hex_ in tiles:
            raise InvalidInput(f"{where}: two tiles at {hex_}")
        tiles[hex_] = placed
    env = Environment(tiles)
    if not env.is_connected():
        cut_off = _cut_off(env)
        raise InvalidInput(
            f"{where}: tiles are not one edge-connected group ({cut_off} is cut off from "
            f"{min(env)})"
        )
    return name, env, nature_tokens


def _tile(data: object, where: str, player: str) -> tuple[Hex, PlacedTile]:
    if isinstance(data, dict):
        q, r = data.get("q"), data.get("r")
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (q, r)):
            where = f"{player} tile {q},{r}"
    tile = _fields(data, where, _TILE_FIELDS)
    hex_ = Hex(_int(tile["q"], where, "q"), _int(tile["r"], where, "r"))
    habitats = tuple(_names(tile["habitats"], Habitat, where, "habitats", 2))
    wildlife = tuple(_names(tile["wildlife"], Wildlife, where, "wildlife", 3))
    if "rotation" in tile:
        rotation = _int(tile["rotation"], where, "rotation")
        if rotation not in _ROTATIONS:
            raise InvalidInput(f"{where}: rotation must be 0..5, not {rotation}")
    elif len(habitats) == _TWO:
        raise InvalidInput(f"{where}: missing field 'rotation' (the tile shows two habitats)")
    else:
        rotation = 0
    keystone = tile.get("keystone", len(habitats) == 1 and len(wildlife) == 1)
    if not isinstance(keystone, bool):
        raise InvalidInput(f"{where}: keystone must be true or false, not {_kind(keystone)}")
    printed = Tile(0, habitats, wildlife, keystone)
    if "id" in tile:
        printed = _printed(tile["id"], habitats, wildlife, where)
    token = tile.get("token")
    if isinstance(token, list) and len(token) > 1:
        raise InvalidInput(f"{where}: a tile holds one token, not {len(token)}")
    if token is not None:
        if not isinstance(token, str):
            raise InvalidInput(
                f"{where}: token must be a wildlife name or null, not {_kind(token)}"
            )
        species = _name(token, Wildlife, where)
        if species not in wildlife:
            shown = ", ".join(w.value for w in wildlife)
            raise InvalidInput(
                f"{where}: token {token!r} is not shown on the tile (it shows {shown})"
            )
        return hex_, PlacedTile(printed, rotation, species)
    return hex_, PlacedTile(printed, rotation)


def _names(data: object, kind: type[_Name], where: str, what: str, most: int) -> list[_Name]:
    if not isinstance(data, list):
        raise InvalidInput(f"{where}: {what} must be a list, not {_kind(data)}")
    if not 1 <= len(data) <= most:
        raise InvalidInput(f"{where}: {what} must list 1 to {most} names, not {len(data)}")
    names = [_name(item, kind, where) for item in data]
    if len(set(names)) != len(names):
        raise InvalidInput(f"{where}: {what} lists a name twice")
    return names


def _name(value: object, kind: type[_Name], where: str) -> _Name:
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: expected a {kind.__name__.lower()} name, not {_kind(value)}")
    try:
        return kind(value)
    except ValueError:
        raise InvalidInput(f"{where}: unknown {kind.__name__.lower()} {_echo(value)}") from None


def _printed(
    value: object, habitats: tuple[Habitat, ...], wildlife: tuple[Wildlife, ...], where: str
) -> Tile:
    tile_id = _int(value, where, "id")
    printed = TILES_BY_ID.get(tile_id)
    if printed is None:
        raise InvalidInput(f"{where}: no tile has id {tile_id}")
    if printed.habitats != habitats or set(printed.wildlife) != set(wildlife):
        raise InvalidInput(
            f"{where}: tile #{tile_id} is {printed.code}, not {Tile(0, habitats, wildlife).code}"
        )
    return printed


def _check_ids(players: list[PlayerEntry]) -> None:
    seen: set[int] = set()
    for name, env, _ in players:
        for hex_ in sorted(env):
            tile_id = env[hex_].tile.id
            if tile_id and tile_id in seen:
                raise InvalidInput(
                    f"player {_echo(name)} tile {hex_}: tile #{tile_id} appears twice"
                )
            seen.add(tile_id)


def _cut_off(env: Environment) -> Hex:
    """The first hex (in sorted order) not connected to the first tile."""
    start = min(env)
    seen = {start}
    stack = [start]
    while stack:
        for neighbour in stack.pop().neighbors():
            if neighbour in env and neighbour not in seen:
                seen.add(neighbour)
                stack.append(neighbour)
    return min(hex_ for hex_ in env if hex_ not in seen)
