"""A game played on quickly, for search: whole moves applied in place, no state per step.

A search plays thousands of sampled games to their end, or a few turns on, for every move
it weighs. :func:`engine.game.apply` checks each action and builds a new immutable
:class:`~engine.game.GameState` for each, and draws every token with a generator seeded for
that draw; that is the right thing for a game people play, and most of a rollout's cost
besides choosing its moves. A :class:`Simulation` holds the same game as mutable parts
(each seat's environment, nature tokens and turns, the display, the stack, the bag's counts)
and plays one whole :class:`~engine.move.Move` at a time in place, end of turn, refill and
four-of-a-kind wipes included, drawing tokens with one function it is given.

With :func:`game_draws` as that function it is the game itself: the state it reaches
(:meth:`Simulation.state`) is the one ``apply`` reaches with the same moves, draw for draw
(a test holds them equal). A search gives it ``random.Random(...).randrange`` instead. It
trusts its moves (a search makes only moves listed as legal) and plays no wipes.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.components import CardSet, Tile, Wildlife
from engine.environment import Environment, PlacedTile
from engine.game import SPECIES, Bag, GameState, Phase, PlayerState, draw_rng
from engine.move import Move
from engine.scorer import own_score

Draw = Callable[[int], int]
"""Draws a token: given the bag's size, the index (below it) of the token drawn, counting
the bag's tokens species by species in score-pad order (as :meth:`engine.game.Bag.draw`)."""


def game_draws(seed: int, draws: int) -> Draw:
    """The draws of the game of ``seed`` from its draw number ``draws`` on: with them a
    simulation draws exactly the tokens :func:`engine.game.apply` would."""
    count = draws

    def draw(size: int) -> int:
        nonlocal count
        pick = draw_rng(seed, count).randrange(size)
        count += 1
        return pick

    return draw


class Simulation:
    """A game before the seat to play takes a pair (phase ``choose``) or over, as mutable
    parts; :meth:`play` plays a whole move in place (see the module docstring)."""

    __slots__ = (
        "_draw",
        "_start",
        "bag",
        "cards",
        "current",
        "discarded_tiles",
        "discarded_tokens",
        "display_tiles",
        "display_tokens",
        "draws",
        "environments",
        "nature_tokens",
        "over",
        "placed_at",
        "solo",
        "stack",
        "three_wipe_used",
        "turn",
        "turns_taken",
    )

    def __init__(self, state: GameState, draw: Draw) -> None:
        if state.phase not in (Phase.CHOOSE, Phase.OVER):
            raise ValueError("a simulation starts before a pair is taken")
        self._start = state
        self._draw = draw
        self.cards: CardSet = state.cards
        self.solo = state.solo
        self.environments: list[Environment] = [seat.environment for seat in state.seats]
        self.nature_tokens = [seat.nature_tokens for seat in state.seats]
        self.turns_taken = [seat.turns_taken for seat in state.seats]
        self.current = state.current
        self.turn = state.turn
        self.over = state.is_over
        self.placed_at = state.placed_at
        self.three_wipe_used = state.three_wipe_used
        """Whether the turn under way had its three-of-a-kind wipe (kept at the end)."""
        """Where the last move's tile went, once the game is over (as the game keeps it)."""
        self.display_tiles: list[Tile | None] = list(state.display_tiles)
        self.display_tokens: list[Wildlife | None] = list(state.display_tokens)
        self.stack: list[Tile] = list(reversed(state.stack))
        """The stack's tiles, the next one last (taken with ``pop()``)."""
        self.bag: list[int] = list(state.bag.counts)
        self.draws = state.draws
        """Tokens drawn so far, counted as the game counts them."""
        self.discarded_tiles: list[Tile] = list(state.discarded_tiles)
        self.discarded_tokens: list[Wildlife] = list(state.discarded_tokens)

    @property
    def phase(self) -> Phase:
        """``choose`` between turns, ``over`` at the end."""
        return Phase.OVER if self.over else Phase.CHOOSE

    @property
    def current_player(self) -> PlayerState:
        """The seat whose turn it is."""
        seat = self.current
        return PlayerState(
            self.environments[seat], self.nature_tokens[seat], self.turns_taken[seat]
        )

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.environments)

    def score(self, seat: int) -> int:
        """``seat``'s own score now (:func:`engine.scorer.own_score`)."""
        return own_score(
            self.cards, self.environments[seat], self.nature_tokens[seat], solo=self.solo
        )

    def supply(self) -> list[int]:
        """Tokens of each species in the bag and on the display, in score-pad order."""
        counts = list(self.bag)
        for token in self.display_tokens:
            if token is not None:
                counts[SPECIES.index(token)] += 1
        return counts

    def play(self, move: Move) -> None:
        """Play ``move`` for the seat to play, end its turn and refill the display."""
        seat = self.current
        slot_tile, slot_token = move.tile - 1, move.token - 1
        tile, token = self.display_tiles[slot_tile], self.display_tokens[slot_token]
        if self.over or tile is None or token is None:
            raise ValueError(f"{move} cannot be played now")
        self.display_tiles[slot_tile] = None
        self.display_tokens[slot_token] = None
        if move.free_choice:
            self.nature_tokens[seat] -= 1
        env = self.environments[seat]
        if move.token_at is None:
            env = env.with_tile(move.at, PlacedTile(tile, move.rotation))
            self.bag[SPECIES.index(token)] += 1
        else:
            if move.token_at == move.at:
                env = env.with_tile(move.at, PlacedTile(tile, move.rotation, token))
                keystone = tile.keystone
            else:
                env = env.with_tile(move.at, PlacedTile(tile, move.rotation))
                env = env.with_token(move.token_at, token)
                keystone = env[move.token_at].tile.keystone
            if keystone:
                self.nature_tokens[seat] += 1
        self.environments[seat] = env
        self.placed_at = move.at
        self.turns_taken[seat] += 1
        self.turn += 1
        if self.solo:
            self._refill_solo()
        else:
            self._refill()
        if not self.over:
            self.current = (seat + 1) % len(self.environments)
            self.placed_at = None
            self.three_wipe_used = False
            self._resolve_overpopulation()

    def _take_token(self) -> Wildlife:
        bag = self.bag
        pick = self._draw(sum(bag))
        self.draws += 1
        for index, count in enumerate(bag):
            if pick < count:
                bag[index] -= 1
                return SPECIES[index]
            pick -= count
        raise RuntimeError("unreachable: pick is below the bag size")

    def _refill(self) -> None:
        tiles, tokens = self.display_tiles, self.display_tokens
        empty = [slot for slot, tile in enumerate(tiles) if tile is None]
        if len(self.stack) < len(empty):
            self.over = True
            return
        for slot in empty:
            tiles[slot] = self.stack.pop()
        for slot, token in enumerate(tokens):
            if token is None:
                tokens[slot] = self._take_token()

    def _refill_solo(self) -> None:
        tiles = [tile for tile in self.display_tiles if tile is not None]
        tokens = [token for token in self.display_tokens if token is not None]
        self.discarded_tiles.append(tiles.pop())
        self.discarded_tokens.append(tokens.pop())
        if len(self.stack) < 2:
            self.over = True
            self.display_tiles = [None, None, *tiles]
            self.display_tokens = [None, None, *tokens]
            return
        new = [self._take_token(), self._take_token()]
        self.display_tiles = [self.stack.pop(), self.stack.pop(), *tiles]
        self.display_tokens = [*new, *tokens]

    def _resolve_overpopulation(self) -> None:
        tokens, bag = self.display_tokens, self.bag
        while True:
            first = tokens[0]
            if first is None or any(token != first for token in tokens):
                return
            size = sum(bag)
            if size - bag[SPECIES.index(first)] == 0 or size < 4:
                return
            old = list(tokens)
            for slot in range(4):
                tokens[slot] = self._take_token()
            for token in old:
                if token is not None:
                    bag[SPECIES.index(token)] += 1

    def state(self) -> GameState:
        """The game as a :class:`GameState` (the one ``apply`` reaches, with
        :func:`game_draws`)."""
        start = self._start
        a, b, c, d, e = self.bag
        return GameState(
            seed=start.seed,
            cards=self.cards,
            seats=tuple(
                PlayerState(env, nature, taken)
                for env, nature, taken in zip(
                    self.environments, self.nature_tokens, self.turns_taken, strict=True
                )
            ),
            first_player=start.first_player,
            current=self.current,
            turn=self.turn,
            phase=self.phase,
            placed_at=self.placed_at,
            three_wipe_used=self.three_wipe_used,
            display_tiles=tuple(self.display_tiles),
            display_tokens=tuple(self.display_tokens),
            stack=tuple(reversed(self.stack)),
            bag=Bag((a, b, c, d, e)),
            draws=self.draws,
            discarded_tiles=tuple(self.discarded_tiles),
            discarded_tokens=tuple(self.discarded_tokens),
            starters=start.starters,
        )
