"""A learned value of a position for one seat: the points it is likely still to score.

The value of the board a move leaves is a linear function of a few features of that board
(:data:`FEATURES`), each also scaled by the seat's turns left after the move, plus a small
curve in the turns left alone. The weights are fitted by least squares on self-play
positions labelled with their *score to go* (the seat's base score at the end of the game
minus its score right after the move; see :mod:`engine.players.train`) and shipped as
``weights/*.json`` beside this module, each file recording the command and seed that made it.

The features (all of the seat's own board after the move, public facts only):

- ``token``, ``tile``: the fast player's opportunity terms, the expected best gain of one
  more token (four drawn from the public supply) and of one more tile (four of the unseen);
- ``best <species>``: the best gain one more token of each species could make now;
- ``open <habitat>``: free positions where a tile of that habitat alone would grow its
  largest corridor;
- ``slots <species>``: tiles without a token that could take one of that species;
- ``lone bears``: bears with no bear beside them and a free place for one more;
- ``elk ends``: open places that continue a straight elk line (or start one from a lone
  elk);
- ``salmon ends``: ends of unbranched salmon runs with a free place beside them;
- ``safe hawk slots``: tiles that could take a hawk with no hawk beside them;
- ``fox room``: for each fox, how many more species its free neighbours could still add;
- ``empty tiles``, ``nature``: tiles without a token, nature tokens held.

Evaluating a model is a dot product over about fifty numbers: microseconds per candidate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.components import TURNS_PER_PLAYER, CardSet, Habitat, Wildlife
from engine.environment import Environment
from engine.errors import InvalidInput
from engine.hexes import Hex

SPECIES = tuple(Wildlife)
HABITATS = tuple(Habitat)
_BEAR, _ELK, _SALMON, _HAWK, _FOX = SPECIES

BOARD_FEATURES: tuple[str, ...] = (
    "token",
    "tile",
    *(f"best {species}" for species in SPECIES),
    *(f"open {habitat}" for habitat in HABITATS),
    *(f"slots {species}" for species in SPECIES),
    "lone bears",
    "elk ends",
    "salmon ends",
    "safe hawk slots",
    "fox room",
    "empty tiles",
    "nature",
)
"""The features of a board, in order (see the module docstring)."""

FEATURES: tuple[str, ...] = (
    "constant",
    "turns",
    "turns squared",
    *BOARD_FEATURES,
    *(f"{name} x turns" for name in BOARD_FEATURES),
)
"""Every input of the linear model: a constant, the turns left after the move (as a share of
a game's turns) and its square, each board feature, and each board feature times that share."""

CONTROLS: tuple[str, ...] = (
    "first move",
    *(f"before {name}" for name in BOARD_FEATURES),
    *(f"before {name} x turns" for name in BOARD_FEATURES),
)
"""Inputs fitted beside :data:`FEATURES` but never needed to choose a move: the board
features the seat's previous move left (none before its first), alone and times the share of
turns left. They are the same for every move of a turn, and fitting them keeps what a seat's
board already was from being credited to the move (boards of seats that did well before
tend to do well after, whatever the move)."""

WEIGHTS_VERSION = 1
"""The layout of a weights file this code reads (bumped when :data:`FEATURES` changes)."""


def pattern_features(env: Environment) -> list[float]:
    """The token-pattern features of ``env``, in :data:`BOARD_FEATURES` order from
    ``slots bear`` to ``empty tiles`` (see the module docstring)."""
    tiles = env
    tokens = env.tokens()
    slots = [0, 0, 0, 0, 0]
    empty_tiles = 0
    safe_hawk = 0
    for at, placed in tiles.items():
        if placed.token is not None:
            continue
        empty_tiles += 1
        kinds = placed.tile.wildlife
        for index, species in enumerate(SPECIES):
            if species in kinds:
                slots[index] += 1
        if _HAWK in kinds and not any(tokens.get(n) is _HAWK for n in at.neighbors()):
            safe_hawk += 1

    def free(at: Hex, species: Wildlife) -> bool:
        placed = tiles.get(at)
        if placed is None:
            return True
        return placed.token is None and species in placed.tile.wildlife

    lone_bears = elk_ends = salmon_ends = fox_room = 0
    for at, species in tokens.items():
        around = at.neighbors()
        if species is _BEAR:
            if not any(tokens.get(n) is _BEAR for n in around) and any(
                free(n, _BEAR) for n in around
            ):
                lone_bears += 1
        elif species is _ELK:
            lone = not any(tokens.get(n) is _ELK for n in around)
            for direction in range(6):
                ahead = around[direction]
                behind = around[(direction + 3) % 6]
                if (lone or tokens.get(behind) is _ELK) and free(ahead, _ELK):
                    elk_ends += 1
        elif species is _SALMON:
            same = [n for n in around if tokens.get(n) is _SALMON]
            unbranched = all(_salmon_neighbours(tokens, n) <= 2 for n in same)
            if len(same) <= 1 and unbranched and any(free(n, _SALMON) for n in around):
                salmon_ends += 1
        elif species is _FOX:
            seen = {tokens[n] for n in around if n in tokens}
            room = sum(1 for n in around if n not in tokens)
            fox_room += min(room, len(SPECIES) - len(seen))
    return [
        *map(float, slots),
        float(lone_bears),
        float(elk_ends),
        float(salmon_ends),
        float(safe_hawk),
        float(fox_room),
        float(empty_tiles),
    ]


def _salmon_neighbours(tokens: Mapping[Hex, Wildlife], at: Hex) -> int:
    return sum(1 for n in at.neighbors() if tokens.get(n) is _SALMON)


def model_inputs(board: Sequence[float], turns_after: int) -> list[float]:
    """The model's inputs (:data:`FEATURES`) from a board's features and the seat's turns
    left after the move."""
    share = turns_after / TURNS_PER_PLAYER
    return [1.0, share, share * share, *board, *(value * share for value in board)]


def control_inputs(before: Sequence[float] | None, turns_after: int) -> list[float]:
    """The :data:`CONTROLS` inputs from the board features the seat's previous move left
    (None before its first move)."""
    share = turns_after / TURNS_PER_PLAYER
    if before is None:
        return [1.0] + [0.0] * (2 * len(BOARD_FEATURES))
    return [0.0, *before, *(value * share for value in before)]


@dataclass(frozen=True, slots=True)
class ValueModel:
    """Weights for :data:`FEATURES` and :data:`CONTROLS`, and where they came from
    (``provenance``: the command, seed, games and fit figures recorded by the training run).
    """

    weights: tuple[float, ...]
    controls: tuple[float, ...]
    provenance: Mapping[str, Any]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise InvalidInput(f"{len(self.weights)} weights for {len(FEATURES)} features")
        if len(self.controls) != len(CONTROLS):
            raise InvalidInput(f"{len(self.controls)} weights for {len(CONTROLS)} controls")

    def value(self, board: Sequence[float], turns_after: int) -> float:
        """The expected score to go of a board with these features (0 with no turns left),
        up to the controls' term, which is the same for every move of a turn."""
        if turns_after <= 0:
            return 0.0
        share = turns_after / TURNS_PER_PLAYER
        weights = self.weights
        total = weights[0] + share * (weights[1] + share * weights[2])
        count = len(board)
        for i, feature in enumerate(board):
            total += feature * (weights[3 + i] + share * weights[3 + count + i])
        return total

    def to_json(self) -> dict[str, Any]:
        """The weights file's content: version, inputs by name, weights, provenance."""
        return {
            "version": WEIGHTS_VERSION,
            "provenance": dict(self.provenance),
            "features": list(FEATURES),
            "weights": list(self.weights),
            "controls": list(CONTROLS),
            "control_weights": list(self.controls),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValueModel:
        """Read :meth:`to_json`'s form; :class:`InvalidInput` when it does not fit this code."""
        if data.get("version") != WEIGHTS_VERSION:
            raise InvalidInput(f"weights version {data.get('version')!r}, not {WEIGHTS_VERSION}")
        if list(data.get("features", ())) != list(FEATURES) or list(
            data.get("controls", ())
        ) != list(CONTROLS):
            raise InvalidInput("the weights name other features than this code computes")
        weights = tuple(float(w) for w in data["weights"])
        controls = tuple(float(w) for w in data["control_weights"])
        return cls(weights, controls, dict(data.get("provenance", {})))


WEIGHTS_FILES: dict[str, str] = {"AAAAA": "aaaaa-v2.json"}
"""The shipped weights by the cards they were trained for."""

_LOADED: dict[str, ValueModel | None] = {}


def shipped_model(name: str) -> ValueModel:
    """The model of the weights file ``name`` shipped in ``weights/``; :class:`InvalidInput`
    when there is none of that name."""
    found = resources.files("engine.players") / "weights" / name
    if "/" in name or "\\" in name or not found.is_file():
        raise InvalidInput(f"no shipped weights named {name!r}")
    return ValueModel.from_json(json.loads(found.read_text("utf-8")))


def model_for(cards: CardSet) -> ValueModel | None:
    """The shipped model for games with ``cards``, or None when none was trained for them
    (the fast player then values boards by its opportunity terms alone)."""
    key = str(cards)
    if key not in _LOADED:
        name = WEIGHTS_FILES.get(key)
        _LOADED[key] = None if name is None else shipped_model(name)
    return _LOADED[key]
