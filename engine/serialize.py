"""Versioned JSON for game states and game records, and the public view of a state.

A state's JSON holds everything (including the seed and the stack order) so that a stored
game resumes exactly; :func:`public_view` is what players may see. A game record holds the
settings, the seed and the ordered actions, and replays to the identical state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.actions import Action, parse_action
from engine.components import TILES_BY_ID, TURNS_PER_PLAYER, CardSet, Tile, Wildlife
from engine.environment import Environment, PlacedTile
from engine.errors import CascadiaError, InvalidInput
from engine.game import SPECIES, Bag, GameState, Phase, PlayerState, apply_all, new_game
from engine.hexes import Hex

STATE_VERSION = 1
RECORD_VERSION = 1

JSON = dict[str, Any]


def decode_json(
    text: str, *, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None
) -> Any:
    """``json.loads(text)`` for text from outside: whatever it cannot read (malformed, nested
    too deep, a number too long to convert) raises :class:`InvalidInput`, ``malformed JSON:``
    and the first line of the reason."""
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        reason = (str(error) or type(error).__name__).splitlines()[0][:200]
        raise InvalidInput(f"malformed JSON: {reason}") from None


def _tile_id(tile: Tile | None) -> int | None:
    return None if tile is None else tile.id


def _tile(value: object) -> Tile:
    if not isinstance(value, int) or value not in TILES_BY_ID:
        raise InvalidInput(f"unknown tile id: {value!r}")
    return TILES_BY_ID[value]


def _maybe_tile(value: object) -> Tile | None:
    return None if value is None else _tile(value)


def _wildlife(value: object) -> Wildlife:
    if not isinstance(value, str):
        raise InvalidInput(f"not a wildlife name: {value!r}")
    try:
        return Wildlife(value)
    except ValueError:
        raise InvalidInput(f"unknown wildlife: {value!r}") from None


def _maybe_wildlife(value: object) -> Wildlife | None:
    return None if value is None else _wildlife(value)


def environment_to_json(env: Environment) -> list[JSON]:
    """An environment as a list of ``{q, r, id, rotation, token}``, sorted by hex."""
    return [
        {
            "q": hex_.q,
            "r": hex_.r,
            "id": env[hex_].tile.id,
            "rotation": env[hex_].rotation,
            "token": env[hex_].token,
        }
        for hex_ in sorted(env)
    ]


def environment_from_json(items: Iterable[Mapping[str, Any]]) -> Environment:
    """Read :func:`environment_to_json`."""
    tiles: dict[Hex, PlacedTile] = {}
    for item in items:
        hex_ = Hex(int(item["q"]), int(item["r"]))
        tiles[hex_] = PlacedTile(
            _tile(item["id"]), int(item["rotation"]), _maybe_wildlife(item["token"])
        )
    return Environment(tiles)


def state_to_json(state: GameState) -> JSON:
    """The whole state, private parts included, as versioned JSON-ready data."""
    return {
        "version": STATE_VERSION,
        "seed": state.seed,
        "cards": str(state.cards),
        "starters": list(state.starters),
        "first_player": state.first_player,
        "current": state.current,
        "turn": state.turn,
        "phase": state.phase.value,
        "display": {
            "tiles": [_tile_id(t) for t in state.display_tiles],
            "tokens": list(state.display_tokens),
        },
        "stack": [t.id for t in state.stack],
        "bag": dict(zip(SPECIES, state.bag.counts, strict=True)),
        "draws": state.draws,
        "three_wipe_used": state.three_wipe_used,
        "held": {"tile": _tile_id(state.held_tile), "token": state.held_token},
        "placed_at": None if state.placed_at is None else str(state.placed_at),
        "discarded": {
            "tiles": [t.id for t in state.discarded_tiles],
            "tokens": list(state.discarded_tokens),
        },
        "seats": [
            {
                "nature_tokens": seat.nature_tokens,
                "turns_taken": seat.turns_taken,
                "environment": environment_to_json(seat.environment),
            }
            for seat in state.seats
        ],
    }


def state_from_json(data: Mapping[str, Any]) -> GameState:
    """Read :func:`state_to_json`; raises :class:`InvalidInput` on anything unreadable."""
    try:
        if data.get("version") != STATE_VERSION:
            raise InvalidInput(f"unsupported state version: {data.get('version')!r}")
        bag = data["bag"]
        a, b, c, d, e = (int(bag[s.value]) for s in SPECIES)
        placed_at = data["placed_at"]
        return GameState(
            seed=int(data["seed"]),
            cards=CardSet.parse(data["cards"]),
            seats=tuple(
                PlayerState(
                    environment_from_json(seat["environment"]),
                    int(seat["nature_tokens"]),
                    int(seat["turns_taken"]),
                )
                for seat in data["seats"]
            ),
            first_player=int(data["first_player"]),
            current=int(data["current"]),
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            display_tiles=tuple(_maybe_tile(t) for t in data["display"]["tiles"]),
            display_tokens=tuple(_maybe_wildlife(t) for t in data["display"]["tokens"]),
            stack=tuple(_tile(t) for t in data["stack"]),
            bag=Bag((a, b, c, d, e)),
            draws=int(data["draws"]),
            three_wipe_used=bool(data["three_wipe_used"]),
            held_tile=_maybe_tile(data["held"]["tile"]),
            held_token=_maybe_wildlife(data["held"]["token"]),
            placed_at=None if placed_at is None else Hex.parse(placed_at),
            discarded_tiles=tuple(_tile(t) for t in data["discarded"]["tiles"]),
            discarded_tokens=tuple(_wildlife(t) for t in data["discarded"]["tokens"]),
            starters=tuple(str(s) for s in data["starters"]),
        )
    except CascadiaError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"unreadable game state: {exc!r}"[:200]) from None


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a game is, read from its stored state without building it: whose turn, which
    turn, whether it is over. Equal to the same properties of the whole :class:`GameState`."""

    players: int
    current: int
    turn: int
    is_over: bool

    @property
    def round(self) -> int:
        """The current round, 1-20 (20 once the game is over), as :attr:`GameState.round`."""
        return min(self.turn // self.players + 1, TURNS_PER_PLAYER)


def progress_from_json(data: Mapping[str, Any]) -> Progress:
    """The :class:`Progress` of a :func:`state_to_json` document; a fraction of the cost of
    :func:`state_from_json` for a listing of many games. Raises :class:`InvalidInput`."""
    try:
        if data.get("version") != STATE_VERSION:
            raise InvalidInput(f"unsupported state version: {data.get('version')!r}")
        return Progress(
            players=len(data["seats"]),
            current=int(data["current"]),
            turn=int(data["turn"]),
            is_over=Phase(data["phase"]) is Phase.OVER,
        )
    except CascadiaError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"unreadable game state: {exc!r}"[:200]) from None


def public_view(state: GameState) -> JSON:
    """What every player may see: no seed, no stack order (only its size)."""
    data = state_to_json(state)
    del data["seed"]
    del data["draws"]
    data["stack"] = len(state.stack)
    data["discarded"]["tiles"] = len(state.discarded_tiles)
    return data


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Settings, seed and ordered actions: enough to replay a game exactly."""

    players: int
    cards: CardSet
    seed: int
    actions: tuple[Action, ...] = ()
    names: tuple[str, ...] = ()
    """The players' names in seat order, when known (not needed to replay)."""

    def with_actions(self, actions: Sequence[Action]) -> GameRecord:
        """The record with ``actions`` appended."""
        return replace(self, actions=(*self.actions, *actions))

    def to_json(self) -> JSON:
        """Versioned JSON-ready data; actions in their text form."""
        data: JSON = {
            "version": RECORD_VERSION,
            "players": self.players,
            "cards": str(self.cards),
            "seed": self.seed,
            "actions": [str(a) for a in self.actions],
        }
        if self.names:
            data["names"] = list(self.names)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read :meth:`to_json`."""
        try:
            if data.get("version") != RECORD_VERSION:
                raise InvalidInput(f"unsupported record version: {data.get('version')!r}")
            players = data["players"]
            seed = data["seed"]
            if not isinstance(players, int) or not isinstance(seed, int):
                raise InvalidInput("players and seed must be whole numbers")
            names = tuple(str(n) for n in data.get("names", ()))
            if names and len(names) != players:
                raise InvalidInput(f"{len(names)} names for {players} players")
            return cls(
                players,
                CardSet.parse(data["cards"]),
                seed,
                tuple(parse_action(a) for a in data["actions"]),
                names,
            )
        except CascadiaError:
            raise
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidInput(f"unreadable game record: missing or wrong {exc}") from None

    def replay(self) -> GameState:
        """The state reached by playing every action from the start."""
        start = new_game(players=self.players, seed=self.seed, cards=self.cards)
        return apply_all(start, self.actions)


def record_for(
    state: GameState, actions: Sequence[Action] = (), names: Sequence[str] = ()
) -> GameRecord:
    """A record of the game ``state`` was set up as, with ``actions`` played."""
    return GameRecord(state.players, state.cards, state.seed, tuple(actions), tuple(names))
