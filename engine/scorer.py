"""Every move of a turn with its exact score change, without building a state per move.

:class:`MoveScorer` prices every :class:`~engine.move.Move` of the current seat from the
state as it stands. Its *gain* is the change of the seat's own score:

- the five wildlife cards (every card the new token can change: its own species', the fox
  card, and Salmon D or Hawk D when they are in play);
- the largest corridor of each habitat the new tile shows (1 point per tile);
- in a solo game, the +2 solo bonus of a habitat whose largest corridor reaches 7 tiles;
- nature tokens: +1 for a token placed on a keystone tile, -1 for a free choice.

Majority bonuses (two or more players) are not part of it: they depend on the other seats.
The gain is exactly ``own_score(after) - own_score(before)`` (see :func:`own_score`).

It stays cheap because the parts are independent: corridors depend only on tiles and wildlife
cards only on tokens, so a move's gain is its tile's gain (per position and rotation) plus its
token's gain (per species and target hex). Each part is worked out once per turn, and only
from the corridors and token groups the move touches.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.actions import SLOTS, Take
from engine.components import CardSet, Habitat, Tile, Wildlife
from engine.environment import Environment, slot_setter
from engine.errors import IllegalAction, Reason
from engine.game import GameState, Phase, PlayerState
from engine.hexes import Hex, sort_key
from engine.move import Move
from engine.scoring import ScoringCard, TokenGrid, card_for
from engine.scoring.corridors import SOLO_BONUS, SOLO_BONUS_SIZE, largest_corridors
from engine.scoring.hawk import sight_lines

_ALL_EDGES = 0b111111
_HABITAT_INDEX = {habitat: i for i, habitat in enumerate(Habitat)}
_HABITAT_COUNT = len(_HABITAT_INDEX)
_FACING_BIT = tuple(1 << (direction + 3) % 6 for direction in range(6))
"""The edge of a new tile that faces a tile's edge in each direction (the opposite one)."""
_HALVES = tuple(sum(1 << ((rotation + i) % 6) for i in range(3)) for rotation in range(6))
"""The edges of each rotation's first half: a two-habitat tile shows its first habitat there."""


@dataclass(frozen=True, slots=True, init=False)
class ScoredMove:
    """A move and its exact score change for the seat that makes it."""

    gain: int
    move: Move

    def __init__(self, gain: int, move: Move) -> None:
        # As for Move: one per move of a listing.
        _SET_SCORED_GAIN(self, gain)
        _SET_SCORED_MOVE(self, move)


_SET_SCORED_GAIN = slot_setter(ScoredMove, "gain")
_SET_SCORED_MOVE = slot_setter(ScoredMove, "move")


@dataclass(frozen=True, slots=True)
class PositionGain:
    """Where a pair's tile may go: the best ``rotation`` there (the lowest of equals) with its
    corridor change ``tile_gain``, and ``gain``, the best whole-move change with the tile
    there (best rotation and best token target, the take's cost included)."""

    at: Hex
    rotation: int
    tile_gain: int
    gain: int


@dataclass(frozen=True, slots=True)
class TargetGain:
    """A token target for a placed tile (``at`` None: return the token) and the whole move's
    change with it."""

    at: Hex | None
    gain: int


def own_score(cards: CardSet, environment: Environment, nature_tokens: int, *, solo: bool) -> int:
    """One seat's score from its own pieces only: the wildlife cards, the largest corridors,
    unspent nature tokens and, when ``solo``, the solo corridor bonus (no majority bonuses).

    This is the full scoring the gains of :class:`MoveScorer` are exact differences of.
    """
    tokens = TokenGrid(environment.tokens())
    wildlife = sum(card_for(cards, w)(tokens) for w in Wildlife)
    corridors = largest_corridors(environment)
    bonus = sum(SOLO_BONUS for size in corridors.values() if size >= SOLO_BONUS_SIZE) if solo else 0
    return wildlife + sum(corridors.values()) + nature_tokens + bonus


class Corridors:
    """The corridors of one environment, ready to say what a new tile would add.

    Each (tile, habitat) belongs to one corridor; for every empty hex next to the tiles it
    keeps, per habitat, the directions facing that habitat and their corridors. A new tile
    joins the corridors its matching edges face, so its corridor is one plus theirs.
    """

    __slots__ = ("_facing", "_halves", "_memo", "_sizes", "largest", "solo")

    def __init__(self, environment: Environment, *, solo: bool = False) -> None:
        self.solo = solo
        # Union-find over (tile, habitat) nodes numbered tile * 5 + the habitat's index.
        tiles = list(environment.items())
        index = {hex_: i for i, (hex_, _) in enumerate(tiles)}
        parent = list(range(len(tiles) * _HABITAT_COUNT))

        def root(node: int) -> int:
            while (up := parent[node]) != node:
                parent[node] = parent[up]
                node = up
            return node

        for i, (hex_, placed) in enumerate(tiles):
            edges = placed.edges
            for direction, neighbour in enumerate(hex_.neighbors()[:3]):
                j = index.get(neighbour)
                habitat = edges[direction]
                if j is not None and tiles[j][1].edges[direction + 3] == habitat:
                    slot = _HABITAT_INDEX[habitat]
                    a, b = root(i * _HABITAT_COUNT + slot), root(j * _HABITAT_COUNT + slot)
                    if a != b:
                        parent[a] = b
        sizes: dict[int, int] = {}
        largest = dict.fromkeys(Habitat, 0)
        for i, (_, placed) in enumerate(tiles):
            for habitat in set(placed.edges):
                top = root(i * _HABITAT_COUNT + _HABITAT_INDEX[habitat])
                size = sizes[top] = sizes.get(top, 0) + 1
                if size > largest[habitat]:
                    largest[habitat] = size
        self.largest: dict[Habitat, int] = largest
        """The size of the largest corridor of each habitat now."""
        # For each empty hex next to a tile, per habitat facing it: the edges (bits) of a new
        # tile there that face each corridor, by the corridor's root.
        facing: dict[Hex, dict[Habitat, dict[int, int]]] = {}
        for i, (hex_, placed) in enumerate(tiles):
            for direction, neighbour in enumerate(hex_.neighbors()):
                if neighbour in index:
                    continue
                habitat = placed.edges[direction]
                top = root(i * _HABITAT_COUNT + _HABITAT_INDEX[habitat])
                corridors = facing.setdefault(neighbour, {}).setdefault(habitat, {})
                corridors[top] = corridors.get(top, 0) | _FACING_BIT[direction]
        self._facing = facing
        self._sizes = sizes
        self._memo: dict[tuple[Hex, tuple[Habitat, ...]], tuple[int, ...]] = {}
        self._halves: dict[tuple[Hex, Habitat], list[int]] = {}

    def size(self, at: Hex, habitat: Habitat, mask: int) -> int:
        """The size of the corridor of ``habitat`` a new tile at ``at`` would be in, when it
        shows ``habitat`` on the edges of ``mask`` (bit d for direction d)."""
        sizes = self._sizes
        faced = self._facing.get(at, {}).get(habitat, {})
        return 1 + sum(sizes[corridor] for corridor, bits in faced.items() if bits & mask)

    def _half_gains(
        self, facing: dict[Habitat, dict[int, int]], at: Hex, habitat: Habitat
    ) -> list[int]:
        """The gain of ``habitat`` shown on each half of a tile at ``at``, by rotation."""
        faced = facing.get(habitat)
        if faced is None:
            return [self._habitat_gain(habitat, 1)] * 6
        key = (at, habitat)
        found = self._halves.get(key)
        if found is None:
            sizes = self._sizes
            joined = [(bits, sizes[corridor]) for corridor, bits in faced.items()]
            gain = self._habitat_gain
            if len(joined) == 1:
                [(bits, size)] = joined
                found = [gain(habitat, 1 + size if half & bits else 1) for half in _HALVES]
            else:
                found = [
                    gain(habitat, 1 + sum(size for bits, size in joined if half & bits))
                    for half in _HALVES
                ]
            self._halves[key] = found
        return found

    def single_gain(self, habitat: Habitat, at: Hex) -> int:
        """The score change of a tile showing only ``habitat`` placed at ``at`` (the most any
        tile showing ``habitat`` could add to its corridors there)."""
        return self._habitat_gain(habitat, self.size(at, habitat, _ALL_EDGES))

    def _habitat_gain(self, habitat: Habitat, size: int) -> int:
        before = self.largest[habitat]
        if size <= before:
            return 0
        if self.solo and size >= SOLO_BONUS_SIZE > before:
            return size - before + SOLO_BONUS
        return size - before

    def gains(self, tile: Tile, at: Hex) -> tuple[int, ...]:
        """The score change of placing ``tile`` at ``at`` for each of its distinct
        rotations (:attr:`Tile.rotations`): growth of the largest corridors (and of the solo
        bonus in a solo game)."""
        key = (at, tile.habitats)
        found = self._memo.get(key)
        if found is None:
            facing = self._facing.get(at, {})
            habitats = tile.habitats
            if len(habitats) == 1:
                habitat = habitats[0]
                found = (self._habitat_gain(habitat, self.size(at, habitat, _ALL_EDGES)),)
            else:
                first, second = habitats
                one = self._half_gains(facing, at, first)
                two = self._half_gains(facing, at, second)
                found = (
                    one[0] + two[3],
                    one[1] + two[4],
                    one[2] + two[5],
                    one[3] + two[0],
                    one[4] + two[1],
                    one[5] + two[2],
                )
            self._memo[key] = found
        return found

    def matching_edges(self, tile: Tile, at: Hex) -> tuple[int, ...]:
        """How many edges of ``tile`` at ``at`` would match the habitat they touch, for each
        of its distinct rotations (corridors to grow later even when none grows now)."""
        facing = self._facing.get(at, {})
        masks = {habitat: 0 for habitat in tile.habitats}
        for habitat in masks:
            for bits in facing.get(habitat, {}).values():
                masks[habitat] |= bits
        if len(tile.habitats) == 1:
            return (masks[tile.habitats[0]].bit_count(),)
        first, second = (masks[h] for h in tile.habitats)
        return tuple((first & half).bit_count() + (second & ~half).bit_count() for half in _HALVES)

    def gain(self, tile: Tile, at: Hex, rotation: int) -> int:
        """The score change of placing ``tile`` at ``at`` with ``rotation``."""
        gains = self.gains(tile, at)
        return gains[rotation] if len(gains) > 1 else gains[0]


# How far a card looks from a new token, for the score change to be worked out locally.
_GROUPS = "groups"  # a sum over the groups of its own species (each group scored alone)
_SALMON_D = "salmon-d"  # runs and the tokens next to them
_FOX_NEAR = "fox-near"  # a sum over foxes of what their neighbours are
_OWN = "own"  # rescored over the tokens of its own species (no other species counts)
_WHOLE = "whole"  # rescored over every token

_BEAR, _ELK, _SALMON, _HAWK, _FOX = Wildlife


def _reach(wildlife: Wildlife, card: str) -> str:
    if card in ("family", "intermediate") or wildlife is _ELK:
        return _GROUPS
    if wildlife is _SALMON:
        return _SALMON_D if card == "D" else _GROUPS
    if wildlife is _FOX and card in ("A", "B", "C"):
        return _FOX_NEAR
    if wildlife is _BEAR or (wildlife is _HAWK and card != "D"):
        return _OWN
    return _WHOLE


def _lone_is_constant(wildlife: Wildlife, card: str) -> bool:
    """Whether a token with no neighbour of its species always changes its card by the same
    amount (the card scores its species' groups only, or Hawk A's lone hawks)."""
    return wildlife is not _FOX and (wildlife is not _HAWK or card == "A")


class WildlifeGains:
    """The score change of one more token, for one environment's tokens and the cards.

    Group cards (elk, salmon A-C, the variants) are rescored on the groups the new token
    touches; fox A-C on the tokens within two steps; Salmon D on the runs it touches and the
    tokens around them; bear and hawk A-C on the tokens of their species; hawk D and fox D
    on every token. A token next to none
    of its species changes most cards by one fixed amount, worked out once. Gains are kept.
    """

    __slots__ = (
        "_base",
        "_cards",
        "_groups",
        "_hawk_d_between",
        "_lone",
        "_lone_constant",
        "_memo",
        "_near",
        "_own_tokens",
        "_reach",
        "_salmon_d",
        "_tokens",
        "cards",
    )

    def __init__(self, cards: CardSet, environment: Environment) -> None:
        self.cards = cards
        self._tokens: dict[Hex, Wildlife] = environment.tokens()
        self._cards: dict[Wildlife, ScoringCard] = {w: card_for(cards, w) for w in Wildlife}
        self._reach = {w: _reach(w, cards.card(w)) for w in Wildlife}
        self._lone_constant = {w: _lone_is_constant(w, cards.card(w)) for w in Wildlife}
        self._salmon_d = cards.card(_SALMON) == "D"
        # Hawk D changes with another species only between two hawks that see each other.
        self._hawk_d_between: set[Hex] = set()
        if cards.card(_HAWK) == "D":
            grid = TokenGrid(self._tokens)
            for sight in sight_lines(grid):
                self._hawk_d_between.update(grid.hex(key) for key in sight.between())
        self._lone: dict[Wildlife, int] = {}
        self._base: dict[Wildlife, int] = {}
        self._groups: dict[Wildlife, dict[Hex, list[Hex]]] = {}
        self._own_tokens: dict[Wildlife, dict[Hex, Wildlife]] = {}
        self._memo: dict[Wildlife, dict[Hex, int]] = {w: {} for w in Wildlife}
        self._near: dict[Hex, set[Wildlife | None]] = {}

    def _group_of(self, wildlife: Wildlife) -> dict[Hex, list[Hex]]:
        found = self._groups.get(wildlife)
        if found is None:
            tokens = self._tokens
            found = {}
            for start, species in tokens.items():
                if species != wildlife or start in found:
                    continue
                group = [start]
                found[start] = group
                for hex_ in group:
                    for n in hex_.neighbors():
                        if n not in found and tokens.get(n) == wildlife:
                            found[n] = group
                            group.append(n)
            self._groups[wildlife] = found
        return found

    def _own(self, wildlife: Wildlife) -> dict[Hex, Wildlife]:
        """The ``wildlife`` tokens alone."""
        found = self._own_tokens.get(wildlife)
        if found is None:
            found = self._own_tokens[wildlife] = {
                hex_: species for hex_, species in self._tokens.items() if species is wildlife
            }
        return found

    def _touching(self, wildlife: Wildlife, at: Hex) -> dict[Hex, Wildlife]:
        """The tokens of the ``wildlife`` groups next to ``at``."""
        group_of = self._group_of(wildlife)
        near: dict[Hex, Wildlife] = {}
        for n in at.neighbors():
            group = group_of.get(n)
            if group is not None and n not in near:
                near.update(dict.fromkeys(group, wildlife))
        return near

    def _card_gain(self, card: Wildlife, wildlife: Wildlife, at: Hex) -> int:
        """What placing ``wildlife`` at ``at`` changes on the card of ``card``."""
        score = self._cards[card]
        reach = self._reach[card]
        tokens = self._tokens
        if reach == _GROUPS:
            local = self._touching(wildlife, at)
        elif reach == _FOX_NEAR:
            # The foxes whose neighbourhood changes, with their neighbours (others cancel).
            local = {n: tokens[n] for n in at.neighbors() if n in tokens}
            for fox in [n for n, w in local.items() if w is _FOX]:
                local.update((n, tokens[n]) for n in fox.neighbors() if n in tokens)
        elif reach == _SALMON_D:
            local = self._touching(_SALMON, at)
            local.update((n, tokens[n]) for h in (*local, at) for n in h.neighbors() if n in tokens)
        else:
            if reach == _OWN:
                # Only the card's own species counts.
                if wildlife is not card:
                    return 0
                tokens = self._own(card)
            base = self._base.get(card)
            if base is None:
                base = self._base[card] = score(TokenGrid(tokens))
            return score(TokenGrid({**tokens, at: wildlife})) - base
        before = score(TokenGrid(local)) if local else 0
        local[at] = wildlife
        return score(TokenGrid(local)) - before

    def gain(self, wildlife: Wildlife, at: Hex) -> int:
        """The change of all five cards when a ``wildlife`` token goes on the empty hex
        ``at`` (any hex: cards look at tokens only)."""
        memo = self._memo[wildlife]
        found = memo.get(at)
        if found is not None:
            return found
        near = self._near.get(at)
        if near is None:
            tokens = self._tokens
            near = self._near[at] = {tokens.get(n) for n in at.neighbors()}
        if self._lone_constant[wildlife] and wildlife not in near:
            gain = self._lone.get(wildlife)
            if gain is None:
                gain = self._lone[wildlife] = self._card_gain(wildlife, wildlife, at)
        else:
            gain = self._card_gain(wildlife, wildlife, at)
        if wildlife is not _FOX and _FOX in near:
            gain += self._card_gain(_FOX, wildlife, at)
        if wildlife is not _SALMON and self._salmon_d and _SALMON in near:
            gain += self._card_gain(_SALMON, wildlife, at)
        if wildlife is not _HAWK and at in self._hawk_d_between:
            gain += self._card_gain(_HAWK, wildlife, at)
        memo[at] = gain
        return gain


@dataclass(frozen=True, slots=True)
class _Take:
    take: Take
    tile: Tile
    token: Wildlife
    cost: int


def scorer_parts(
    environment: Environment, cards: CardSet, *, solo: bool
) -> tuple[Corridors, WildlifeGains]:
    """What :class:`MoveScorer` works out of an environment before pricing moves."""
    return Corridors(environment, solo=solo), WildlifeGains(cards, environment)


class Table(Protocol):
    """What :class:`MoveScorer` reads of a game: a :class:`GameState`, or a
    :class:`engine.simulation.Simulation` between two turns."""

    @property
    def phase(self) -> Phase:
        """Where the current turn stands."""
        ...

    @property
    def cards(self) -> CardSet:
        """The game's wildlife cards."""
        ...

    @property
    def solo(self) -> bool:
        """Whether this is a one-player game."""
        ...

    @property
    def current_player(self) -> PlayerState:
        """The seat whose turn it is."""
        ...

    @property
    def display_tiles(self) -> Sequence[Tile | None]:
        """The display's tiles by slot."""
        ...

    @property
    def display_tokens(self) -> Sequence[Wildlife | None]:
        """The display's tokens by slot."""
        ...


class MoveScorer:
    """Every move of the seat to play, priced exactly (see the module docstring).

    Built once per state at the start of a turn (phase ``choose``); every question after that
    reuses what the first ones worked out. Moves come in a fixed order: takes as
    :meth:`takes` lists them, positions by hex, rotations upwards, then token targets by hex
    (the new tile's among them) and returning the token last.
    """

    def __init__(
        self, state: Table, *, parts: tuple[Corridors, WildlifeGains] | None = None
    ) -> None:
        """``parts``: the seat's environment's corridors and wildlife gains when already at
        hand (they depend on the environment alone, so a search that meets the same board
        in many sampled worlds builds them once)."""
        if state.phase is not Phase.CHOOSE:
            raise IllegalAction(Reason.WRONG_PHASE, "moves are listed before taking a pair")
        seat = state.current_player
        self.state = state
        self.environment: Environment = seat.environment
        self.nature_tokens = seat.nature_tokens
        if parts is None:
            parts = scorer_parts(seat.environment, state.cards, solo=state.solo)
        self.corridors, self.wildlife = parts
        self.frontier: list[Hex] = seat.environment.frontier()
        self._targets: dict[Wildlife, list[tuple[Hex, int]]] = {}
        self._target_keys: dict[Wildlife, list[tuple[int, int]]] = {}
        self._best_target: dict[Wildlife, tuple[int, Hex | None]] = {}

    def takes(self, *, free_choices: bool = True) -> list[Take]:
        """The takes allowed now: each pair, then (with a nature token and ``free_choices``)
        every split of a pair, by tile slot then token slot."""
        tiles, tokens = self.state.display_tiles, self.state.display_tokens
        filled = [s for s in SLOTS if tiles[s - 1] is not None and tokens[s - 1] is not None]
        takes = [Take(s, s) for s in filled]
        if free_choices and self.nature_tokens > 0:
            takes += [Take(a, b) for a in filled for b in filled if a != b]
        return takes

    def _take(self, take: Take) -> _Take:
        tile = self.state.display_tiles[take.tile - 1]
        token = self.state.display_tokens[take.token - 1]
        if tile is None or token is None:
            raise IllegalAction(Reason.NO_SUCH_SLOT, f"pair {take.tile} is empty")
        if take.free_choice and self.nature_tokens < 1:
            raise IllegalAction(Reason.NO_NATURE_TOKEN, "no nature token for a free choice")
        return _Take(take, tile, token, 1 if take.free_choice else 0)

    def targets(self, wildlife: Wildlife) -> list[tuple[Hex, int]]:
        """The tiles already placed that take a ``wildlife`` token, each with the token's
        gain there (its cards and a keystone's nature token), sorted by hex."""
        found = self._targets.get(wildlife)
        if found is None:
            env = self.environment
            gain = self.wildlife.gain
            found = self._targets[wildlife] = [
                (h, gain(wildlife, h) + env[h].tile.keystone) for h in env.token_targets(wildlife)
            ]
            self._target_keys[wildlife] = [(h.q, h.r) for h, _ in found]
        return found

    def new_tile_gain(self, tile: Tile, wildlife: Wildlife, at: Hex) -> int | None:
        """The token's gain on the new ``tile`` at ``at``, or None if the tile cannot take
        it."""
        if wildlife not in tile.wildlife:
            return None
        return self.wildlife.gain(wildlife, at) + tile.keystone

    def best_token(self, tile: Tile, wildlife: Wildlife, at: Hex) -> tuple[int, Hex | None]:
        """The best token gain and target (None: return it) once ``tile`` is at ``at``.

        Among equal gains the placed tiles come first (by hex), then the new tile; placing
        beats returning: the token is returned only when every target loses points.
        """
        found = self._best_target.get(wildlife)
        if found is None:
            found = (-1, None)
            for hex_, gain in self.targets(wildlife):
                if gain > found[0]:
                    found = (gain, hex_)
            self._best_target[wildlife] = found
        best, where = found
        if wildlife in tile.wildlife:
            on_new = self.wildlife.gain(wildlife, at) + tile.keystone
            if on_new > best:
                best, where = on_new, at
        return (best, where) if best >= 0 else (0, None)

    def positions(self, take: Take) -> list[PositionGain]:
        """For ``take``: every position of its tile with the best rotation there, its
        corridor change and the best whole-move gain (the panel's first step)."""
        info = self._take(take)
        tile, corridors = info.tile, self.corridors
        found = []
        for at in self.frontier:
            gains = corridors.gains(tile, at)
            tile_gain = max(gains)
            token_gain, _ = self.best_token(tile, info.token, at)
            rotation = tile.rotations[gains.index(tile_gain)]
            found.append(PositionGain(at, rotation, tile_gain, tile_gain + token_gain - info.cost))
        return found

    def token_targets(self, take: Take, at: Hex, rotation: int) -> list[TargetGain]:
        """For ``take`` with its tile at ``at`` turned ``rotation``: every token target (the
        new tile's hex among them when it can hold the token), then returning the token, each
        with the whole move's gain."""
        info = self._take(take)
        if not self.environment.is_frontier(at):
            raise IllegalAction(Reason.NOT_ADJACENT, f"{at} does not touch the environment")
        base = self.corridors.gain(info.tile, at, rotation) - info.cost
        found = [TargetGain(h, base + g) for h, g in self.targets(info.token)]
        on_new = self.new_tile_gain(info.tile, info.token, at)
        if on_new is not None:
            found.append(TargetGain(at, base + on_new))
            found.sort(key=lambda t: sort_key(t.at) if t.at is not None else (0, 0))
        found.append(TargetGain(None, base))
        return found

    def _token_options(self, info: _Take, at: Hex) -> list[tuple[Hex | None, int]]:
        """Every token target of a take with its tile at ``at`` (by hex, the new tile's among
        them) and returning the token last, each with the token's gain."""
        placed = self.targets(info.token)
        on_new = self.new_tile_gain(info.tile, info.token, at)
        if on_new is None:
            return [*placed, (None, 0)]
        where = bisect_left(self._target_keys[info.token], (at.q, at.r))
        return [*placed[:where], (at, on_new), *placed[where:], (None, 0)]

    def moves(self, take: Take | None = None, *, free_choices: bool = True) -> list[ScoredMove]:
        """Every move (of ``take``, or of every take allowed) with its gain."""
        takes = [take] if take is not None else self.takes(free_choices=free_choices)
        found: list[ScoredMove] = []
        tile_gains = self.corridors.gains
        for one in takes:
            info = self._take(one)
            tile, cost = info.tile, info.cost
            pair, token = one.tile, one.token
            rotations = tile.rotations
            for at in self.frontier:
                options = self._token_options(info, at)
                turns = zip(rotations, tile_gains(tile, at), strict=True)
                found += [
                    ScoredMove(tile_gain - cost + gain, Move(pair, token, at, rotation, where))
                    for rotation, tile_gain in turns
                    for where, gain in options
                ]
        return found

    def gains(self, *, free_choices: bool = True) -> list[int]:
        """The gain of every move of :meth:`moves`, in the same order, without building the
        moves: the cheap way to see a whole turn's range of changes."""
        found: list[int] = []
        tile_gains = self.corridors.gains
        for take in self.takes(free_choices=free_choices):
            info = self._take(take)
            tile, token, cost = info.tile, info.token, info.cost
            placed = [gain for _, gain in self.targets(token)]
            keys = self._target_keys[token]
            returned = [*placed, 0]
            for at in self.frontier:
                on_new = self.new_tile_gain(tile, token, at)
                if on_new is None:
                    options = returned
                else:
                    where = bisect_left(keys, (at.q, at.r))
                    options = [*placed[:where], on_new, *placed[where:], 0]
                found += [
                    tile_gain - cost + gain
                    for tile_gain in tile_gains(tile, at)
                    for gain in options
                ]
        return found

    def best(self, *, free_choices: bool = True) -> ScoredMove:
        """The move with the highest gain; among equals the first in :meth:`moves` order,
        except that the token goes where :meth:`best_token` puts it."""
        best_gain, best_move = None, None
        corridors = self.corridors
        for take in self.takes(free_choices=free_choices):
            info = self._take(take)
            tile, token, cost = info.tile, info.token, info.cost
            for at in self.frontier:
                token_gain, token_at = self.best_token(tile, token, at)
                gains = corridors.gains(tile, at)
                top = max(gains) + token_gain - cost
                if best_gain is None or top > best_gain:
                    rotation = tile.rotations[gains.index(max(gains))]
                    best_gain = top
                    best_move = Move(take.tile, take.token, at, rotation, token_at)
        if best_gain is None or best_move is None:
            raise IllegalAction(Reason.NO_SUCH_SLOT, "the display has no pair to take")
        return ScoredMove(best_gain, best_move)


def scored_moves(state: GameState, *, free_choices: bool = True) -> list[ScoredMove]:
    """Every move of the seat to play with its exact score change (see :class:`MoveScorer`)."""
    return MoveScorer(state).moves(free_choices=free_choices)
