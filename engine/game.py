"""The game state and its transitions: setup, the steps of a turn, refills and the end.

A :class:`GameState` is an immutable value. :func:`apply` checks an action against the rules
and returns the next state; an illegal action raises and the state it was given is untouched.
All randomness comes from the game's seed and a draw counter kept in the state, so the same
seed and the same actions always give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from engine.actions import Action, NatureWipe, PlaceTile, PlaceToken, Take, WipeThree
from engine.components import (
    CARD_LETTERS,
    HABITAT_TILES_ALL,
    MAX_PLAYERS,
    STARTERS,
    TOKENS_PER_SPECIES,
    TURNS_PER_PLAYER,
    CardSet,
    Tile,
    Variant,
    Wildlife,
    tiles_in_play,
)
from engine.environment import Environment, PlacedTile
from engine.errors import IllegalAction, InvalidInput, Reason
from engine.hexes import Hex

SPECIES: tuple[Wildlife, ...] = tuple(Wildlife)


class Phase(StrEnum):
    """Where the current turn stands."""

    CHOOSE = "choose"
    """Before taking: wipes and nature-token spends are allowed."""
    PLACE_TILE = "place_tile"
    PLACE_TOKEN = "place_token"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat's environment, unspent nature tokens and turns taken."""

    environment: Environment
    nature_tokens: int = 0
    turns_taken: int = 0


@dataclass(frozen=True, slots=True)
class Bag:
    """The wildlife bag as a count per species: its order is never part of the state."""

    counts: tuple[int, int, int, int, int]

    @property
    def size(self) -> int:
        """Tokens in the bag."""
        return sum(self.counts)

    def count(self, wildlife: Wildlife) -> int:
        """Tokens of ``wildlife`` in the bag."""
        return self.counts[SPECIES.index(wildlife)]

    def add(self, tokens: Sequence[Wildlife]) -> Bag:
        """The bag with ``tokens`` returned to it."""
        counts = list(self.counts)
        for token in tokens:
            counts[SPECIES.index(token)] += 1
        a, b, c, d, e = counts
        return Bag((a, b, c, d, e))

    def draw(self, rng: random.Random) -> tuple[Wildlife, Bag]:
        """One token drawn uniformly at random, and the bag without it."""
        pick = rng.randrange(self.size)
        counts = list(self.counts)
        for index, count in enumerate(counts):
            if pick < count:
                counts[index] -= 1
                a, b, c, d, e = counts
                return SPECIES[index], Bag((a, b, c, d, e))
            pick -= count
        raise RuntimeError("unreachable: pick is below the bag size")


FULL_BAG = Bag((TOKENS_PER_SPECIES,) * 5)


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment.

    ``stack`` (the hidden order of the tile stacks) and ``seed`` are private: use
    :func:`engine.serialize.public_view` for what players may see.
    """

    seed: int
    cards: CardSet
    seats: tuple[PlayerState, ...]
    first_player: int
    current: int
    turn: int
    """Turns completed by all players together."""
    phase: Phase
    display_tiles: tuple[Tile | None, ...]
    display_tokens: tuple[Wildlife | None, ...]
    stack: tuple[Tile, ...]
    bag: Bag
    draws: int
    """How many random draws the game has made; seeds the next one."""
    three_wipe_used: bool = False
    held_tile: Tile | None = None
    held_token: Wildlife | None = None
    placed_at: Hex | None = None
    """Where the current turn's tile went, once placed."""
    discarded_tiles: tuple[Tile, ...] = ()
    discarded_tokens: tuple[Wildlife, ...] = ()
    starters: tuple[str, ...] = field(default=())

    @property
    def players(self) -> int:
        """Number of players (1 means the solo rules)."""
        return len(self.seats)

    @property
    def solo(self) -> bool:
        """Whether this is a one-player game."""
        return len(self.seats) == 1

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    @property
    def current_player(self) -> PlayerState:
        """The seat whose turn it is."""
        return self.seats[self.current]

    @property
    def round(self) -> int:
        """The current round, 1-20 (20 once the game is over)."""
        return min(self.turn // len(self.seats) + 1, TURNS_PER_PLAYER)

    @property
    def tiles_left(self) -> int:
        """Tiles still in the face-down stacks."""
        return len(self.stack)

    def three_of_a_kind(self) -> Wildlife | None:
        """The species shown by exactly three display tokens, if any."""
        tokens = self.display_tokens
        for wildlife in tokens[:2]:  # three of four include the first or the second
            if wildlife is not None and tokens.count(wildlife) == 3:
                return wildlife
        return None


def _evolve(state: GameState, **changes: object) -> GameState:
    """``dataclasses.replace`` for the hot path: the same result without re-running
    ``__init__`` field by field (states are copied several times a turn)."""
    new = object.__new__(GameState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _rng(seed: int, stream: str) -> random.Random:
    return random.Random(f"cascadia:{seed}:{stream}")


def draw_rng(seed: int, draws: int) -> random.Random:
    """The generator of a game's draw number ``draws`` (counted from 0): each token drawn
    from the bag is ``Bag.draw`` with its own, so any draw can be redone on its own."""
    return _rng(seed, f"draw{draws}")


def resolve_cards(cards: str | CardSet, seed: int) -> CardSet:
    """The card set for the ``cards`` option: ``"random"`` picks one A-D card per wildlife
    from the seed; anything else is read by :meth:`CardSet.parse`."""
    if isinstance(cards, CardSet):
        return cards
    if cards.strip().lower() == "random":
        rng = _rng(seed, "cards")
        a, b, c, d, e = (rng.choice(CARD_LETTERS) for _ in range(5))
        return CardSet(letters=(a, b, c, d, e))
    return CardSet.parse(cards)


def new_game(*, players: int, seed: int, cards: str | CardSet = "random") -> GameState:
    """Set up a game for 1-4 players: tiles in play, starters, first player, display."""
    if not 1 <= players <= MAX_PLAYERS:
        raise InvalidInput(f"a game has 1-4 players, not {players}")
    card_set = resolve_cards(cards, seed)
    rng = _rng(seed, "setup")
    tiles = list(HABITAT_TILES_ALL)
    rng.shuffle(tiles)
    stack = tuple(tiles[: tiles_in_play(players)])
    starters = rng.sample(STARTERS, players)
    first = rng.randrange(players)
    state = GameState(
        seed=seed,
        cards=card_set,
        seats=tuple(PlayerState(Environment.from_starter(s)) for s in starters),
        first_player=first,
        current=first,
        turn=0,
        phase=Phase.CHOOSE,
        display_tiles=stack[:4],
        display_tokens=(None, None, None, None),
        stack=stack[4:],
        bag=FULL_BAG,
        draws=0,
        starters=tuple(s.name for s in starters),
    )
    tokens, bag, draws = _draw_tokens(state.seed, state.draws, state.bag, 4)
    state = _evolve(state, display_tokens=tuple(tokens), bag=bag, draws=draws)
    return _resolve_overpopulation(state)


# --- drawing and wiping -------------------------------------------------------------------


def _draw_tokens(seed: int, draws: int, bag: Bag, count: int) -> tuple[list[Wildlife], Bag, int]:
    tokens = []
    for _ in range(count):
        if bag.size == 0:
            raise IllegalAction(Reason.WIPE_NOT_ALLOWED, "the bag is empty")
        token, bag = bag.draw(draw_rng(seed, draws))
        tokens.append(token)
        draws += 1
    return tokens, bag, draws


def _wipe(state: GameState, slots: Sequence[int]) -> GameState:
    """Replace the tokens at 0-based ``slots`` from the bag, then return the old ones."""
    if state.bag.size < len(slots):
        raise IllegalAction(Reason.WIPE_NOT_ALLOWED, "the bag has too few tokens to wipe")
    new, bag, draws = _draw_tokens(state.seed, state.draws, state.bag, len(slots))
    tokens = list(state.display_tokens)
    old = []
    for slot, token in zip(slots, new, strict=True):
        old.append(tokens[slot])
        tokens[slot] = token
    bag = bag.add([t for t in old if t is not None])
    return _evolve(state, display_tokens=tuple(tokens), bag=bag, draws=draws)


def _resolve_overpopulation(state: GameState) -> GameState:
    """Wipe four matching display tokens, again while it happens.

    Stops when the bag holds no other species (a wipe could never end), which a real game
    never reaches.
    """
    while True:
        tokens = state.display_tokens
        first = tokens[0]
        if first is None or any(t != first for t in tokens):
            return state
        others = state.bag.size - state.bag.count(first)
        if others == 0 or state.bag.size < 4:
            return state
        state = _wipe(state, range(4))


# --- applying actions ---------------------------------------------------------------------


def _refuse(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


def _check_phase(state: GameState, action: Action, *phases: Phase) -> None:
    if state.phase not in phases:
        wanted = {
            Phase.CHOOSE: "before taking a pair",
            Phase.PLACE_TILE: "when a tile is waiting to be placed",
            Phase.PLACE_TOKEN: "after the tile is placed",
        }
        raise _refuse(
            Reason.WRONG_PHASE,
            f"'{action}' is only allowed {' or '.join(wanted[p] for p in phases)}",
        )


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``; raises :class:`IllegalAction` (state unchanged) if the
    rules do not allow it. ``seat``, when given, is who is acting."""
    if state.phase is Phase.OVER:
        raise _refuse(Reason.GAME_OVER, "the game is over")
    if seat is not None and seat != state.current:
        raise _refuse(Reason.NOT_YOUR_TURN, "it is not your turn")
    if isinstance(action, WipeThree):
        return _apply_wipe_three(state, action)
    if isinstance(action, NatureWipe):
        return _apply_nature_wipe(state, action)
    if isinstance(action, Take):
        return _apply_take(state, action)
    if isinstance(action, PlaceTile):
        return _apply_place_tile(state, action)
    if isinstance(action, PlaceToken):
        return _apply_place_token(state, action)
    raise InvalidInput(f"not an action: {action!r}")


def _apply_wipe_three(state: GameState, action: WipeThree) -> GameState:
    _check_phase(state, action, Phase.CHOOSE)
    if state.three_wipe_used:
        raise _refuse(Reason.WIPE_ALREADY_USED, "the three-of-a-kind wipe was used this turn")
    species = state.three_of_a_kind()
    if species is None:
        raise _refuse(Reason.WIPE_NOT_ALLOWED, "no three display tokens match")
    slots = [i for i, t in enumerate(state.display_tokens) if t == species]
    state = _wipe(state, slots)
    return _resolve_overpopulation(_evolve(state, three_wipe_used=True))


def _spend_nature_token(state: GameState, why: str) -> GameState:
    player = state.current_player
    if player.nature_tokens < 1:
        raise _refuse(Reason.NO_NATURE_TOKEN, f"you have no nature token to {why}")
    seats = list(state.seats)
    seats[state.current] = PlayerState(
        player.environment, player.nature_tokens - 1, player.turns_taken
    )
    return _evolve(state, seats=tuple(seats))


def _apply_nature_wipe(state: GameState, action: NatureWipe) -> GameState:
    _check_phase(state, action, Phase.CHOOSE)
    state = _spend_nature_token(state, "wipe tokens")
    state = _wipe(state, [slot - 1 for slot in action.slots])
    return _resolve_overpopulation(state)


def _apply_take(state: GameState, action: Take) -> GameState:
    _check_phase(state, action, Phase.CHOOSE)
    tile = state.display_tiles[action.tile - 1]
    token = state.display_tokens[action.token - 1]
    if tile is None or token is None:
        raise _refuse(Reason.NO_SUCH_SLOT, f"pair {action.tile} is empty")
    if action.free_choice:
        state = _spend_nature_token(state, "take an unpaired tile and token")
    tiles = list(state.display_tiles)
    tokens = list(state.display_tokens)
    tiles[action.tile - 1] = None
    tokens[action.token - 1] = None
    return _evolve(
        state,
        display_tiles=tuple(tiles),
        display_tokens=tuple(tokens),
        held_tile=tile,
        held_token=token,
        phase=Phase.PLACE_TILE,
    )


def _apply_place_tile(state: GameState, action: PlaceTile) -> GameState:
    _check_phase(state, action, Phase.PLACE_TILE)
    tile = state.held_tile
    if tile is None:
        raise RuntimeError("a tile must be held while placing one")
    player = state.current_player
    env = player.environment
    if action.at in env:
        raise _refuse(Reason.OCCUPIED, f"{action.at} already has a tile")
    if not env.is_frontier(action.at):
        raise _refuse(Reason.NOT_ADJACENT, f"{action.at} does not touch your environment")
    env = env.with_tile(action.at, PlacedTile(tile, action.rotation))
    seats = list(state.seats)
    seats[state.current] = PlayerState(env, player.nature_tokens, player.turns_taken)
    return _evolve(
        state, seats=tuple(seats), held_tile=None, placed_at=action.at, phase=Phase.PLACE_TOKEN
    )


def _apply_place_token(state: GameState, action: PlaceToken) -> GameState:
    _check_phase(state, action, Phase.PLACE_TOKEN)
    token = state.held_token
    if token is None:
        raise RuntimeError("a token must be held while placing one")
    player = state.current_player
    if action.at is None:
        state = _evolve(state, bag=state.bag.add([token]), held_token=None)
    else:
        placed = player.environment.get(action.at)
        if placed is None:
            raise _refuse(Reason.NO_TILE, f"there is no tile at {action.at}")
        if placed.token is not None:
            raise _refuse(Reason.HAS_TOKEN, f"the tile at {action.at} already has a {placed.token}")
        if token not in placed.tile.wildlife:
            shows = ", ".join(placed.tile.wildlife)
            raise _refuse(
                Reason.WRONG_SPECIES,
                f"the tile at {action.at} takes {shows}, not {token}",
            )
        nature = player.nature_tokens + (1 if placed.tile.keystone else 0)
        seats = list(state.seats)
        environment = player.environment.with_token(action.at, token)
        seats[state.current] = PlayerState(environment, nature, player.turns_taken)
        state = _evolve(state, seats=tuple(seats), held_token=None)
    return _end_turn(state)


def _end_turn(state: GameState) -> GameState:
    seats = list(state.seats)
    player = seats[state.current]
    seats[state.current] = PlayerState(
        player.environment, player.nature_tokens, player.turns_taken + 1
    )
    state = _evolve(state, seats=tuple(seats), turn=state.turn + 1)
    state = _refill_solo(state) if state.solo else _refill(state)
    if state.phase is Phase.OVER:
        return state
    state = _evolve(
        state,
        current=(state.current + 1) % state.players,
        three_wipe_used=False,
        placed_at=None,
        phase=Phase.CHOOSE,
    )
    return _resolve_overpopulation(state)


def _refill(state: GameState) -> GameState:
    """Fill the empty tile and token slots; the game ends when a tile cannot be replaced."""
    tiles = list(state.display_tiles)
    empty_tiles = [i for i, t in enumerate(tiles) if t is None]
    if len(state.stack) < len(empty_tiles):
        return _evolve(state, phase=Phase.OVER)
    stack = list(state.stack)
    for slot in empty_tiles:
        tiles[slot] = stack.pop(0)
    tokens = list(state.display_tokens)
    empty_tokens = [i for i, t in enumerate(tokens) if t is None]
    new, bag, draws = _draw_tokens(state.seed, state.draws, state.bag, len(empty_tokens))
    for slot, token in zip(empty_tokens, new, strict=True):
        tokens[slot] = token
    return _evolve(
        state,
        display_tiles=tuple(tiles),
        display_tokens=tuple(tokens),
        stack=tuple(stack),
        bag=bag,
        draws=draws,
    )


def _refill_solo(state: GameState) -> GameState:
    """Solo: discard the tile and token furthest from the stacks (pair 4's side), slide the
    rest away from the stacks and refill pairs 1 and 2."""
    tiles = [t for t in state.display_tiles if t is not None]
    tokens = [t for t in state.display_tokens if t is not None]
    discarded_tiles = (*state.discarded_tiles, tiles.pop())
    discarded_tokens = (*state.discarded_tokens, tokens.pop())
    if len(state.stack) < 2:
        return _evolve(
            state,
            phase=Phase.OVER,
            display_tiles=(None, None, *tiles),
            display_tokens=(None, None, *tokens),
            discarded_tiles=discarded_tiles,
            discarded_tokens=discarded_tokens,
        )
    new, bag, draws = _draw_tokens(state.seed, state.draws, state.bag, 2)
    return _evolve(
        state,
        display_tiles=(*state.stack[:2], *tiles),
        display_tokens=(*new, *tokens),
        stack=state.stack[2:],
        bag=bag,
        draws=draws,
        discarded_tiles=discarded_tiles,
        discarded_tokens=discarded_tokens,
    )


# --- what may be done now -----------------------------------------------------------------


def can_wipe_three(state: GameState) -> bool:
    """Whether the optional three-of-a-kind wipe is allowed now."""
    return (
        state.phase is Phase.CHOOSE
        and not state.three_wipe_used
        and state.three_of_a_kind() is not None
    )


def legal_actions(state: GameState) -> list[Action]:
    """Every action the current player may take now (empty once the game is over)."""
    actions: list[Action] = []
    player = state.current_player
    if state.phase is Phase.CHOOSE:
        if can_wipe_three(state):
            actions.append(WipeThree())
        nature = player.nature_tokens > 0
        if nature:
            for size in range(1, 5):
                actions.extend(NatureWipe(c) for c in combinations((1, 2, 3, 4), size))
        for tile in (1, 2, 3, 4):
            for token in (1, 2, 3, 4):
                if tile == token or nature:
                    actions.append(Take(tile, token))
    elif state.phase is Phase.PLACE_TILE:
        held_tile = state.held_tile
        if held_tile is not None:
            for hex_ in player.environment.frontier():
                actions.extend(PlaceTile(hex_, rotation) for rotation in held_tile.rotations)
    elif state.phase is Phase.PLACE_TOKEN:
        held_token = state.held_token
        if held_token is not None:
            actions.extend(PlaceToken(h) for h in player.environment.token_targets(held_token))
        actions.append(PlaceToken(None))
    return actions


def tile_positions(state: GameState) -> list[Hex]:
    """Where the current player may place a tile (the empty hexes touching their tiles)."""
    return state.current_player.environment.frontier()


def apply_all(state: GameState, actions: Iterable[Action], *, seat: int | None = None) -> GameState:
    """The state after ``actions`` in order (see :func:`apply`); raises on the first the
    rules do not allow, and the state given is untouched."""
    for action in actions:
        state = apply(state, action, seat=seat)
    return state


__all__ = [
    "SPECIES",
    "Bag",
    "GameState",
    "Phase",
    "PlayerState",
    "Variant",
    "apply",
    "apply_all",
    "can_wipe_three",
    "draw_rng",
    "legal_actions",
    "new_game",
    "resolve_cards",
    "tile_positions",
]
