"""The fast player: greedy plus what the next turn's token and tile are likely to be worth.

It prices a small frontier of moves (after the port of the "pattern-aware" heuristic):

- the :data:`BY_GAIN` best by immediate gain (at each position the rotation with the best
  gain, then the most matching edges);
- the :data:`BY_EDGES` best tile placements by matching edges, then corridor gain
  (corridors to grow later), each with its best token;
- the :data:`BY_BEAR` best moves that place a bear (a lone bear scores nothing yet but
  starts a pair).

Each is valued as its exact gain plus the *opportunity* of the board it leaves: for each
species, the best gain one more token of it could make on the tiles left empty (never below
0: a token can be returned), and the expected best of those over four tokens drawn without
replacement from the tokens not on any board (bag and display, public counts); plus the same
for tiles: each tile not seen yet is worth the most a tile of its better habitat could add to
the largest corridors at any free position, and the expected best of four is added (it
measured +0.9 +- 0.3 over 150 paired 4-player games).

When a learned value was trained for the game's cards (:func:`engine.players.value.model_for`;
all-A cards so far), the board a move leaves is worth that value instead: the score to go
predicted from those two opportunity terms and the board's patterns (lone bears, open elk and
salmon ends, safe hawk slots, free slots...). ``opportunity`` is this player without it.
On the seat's last turn the board is worth nothing more, so it plays the greedy move. Ties as
the greedy player. It never wipes tokens and reads nothing hidden: the same public state
gives the same move.
"""

from __future__ import annotations

import heapq
import random
from math import comb

from engine.actions import Action
from engine.components import CardSet, Habitat, Tile, Wildlife
from engine.environment import Environment, PlacedTile
from engine.game import GameState
from engine.hexes import Hex
from engine.move import Move
from engine.players.base import Budget, Player, pick_best, supply, turns_left, whole_move
from engine.players.greedy import useful_takes
from engine.players.hidden import unseen_tiles
from engine.players.value import ValueModel, model_for, pattern_features
from engine.scorer import Corridors, MoveScorer, ScoredMove, WildlifeGains

SPECIES = tuple(Wildlife)
DRAWS = 4
"""Tokens the next display shows a seat: the opportunity is the best of four."""

BY_GAIN = 20
BY_EDGES = 8
BY_BEAR = 8


def expected_best(values: list[float], counts: list[int], draws: int = DRAWS) -> float:
    """The expected highest value among ``draws`` tokens drawn without replacement, when
    ``counts[i]`` tokens are worth ``values[i]`` each (exact: species by value, the chance
    that the best drawn is the k-th is the chance none of the k-1 better ones comes up minus
    the chance none of the k better ones does)."""
    total = sum(counts)
    draws = min(draws, total)
    if draws <= 0:
        return 0.0
    ways = comb(total, draws)
    result = 0.0
    left = total
    for index in sorted(range(len(values)), key=lambda i: -values[i]):
        if not counts[index]:
            continue
        before = comb(left, draws)
        left -= counts[index]
        result += values[index] * (before - comb(left, draws))
    return result / ways


def _after(env: Environment, move: Move, tile: Tile, token: Wildlife) -> Environment:
    placed = PlacedTile(tile, move.rotation, token if move.token_at == move.at else None)
    after = env.with_tile(move.at, placed)
    if move.token_at is not None and move.token_at != move.at:
        after = after.with_token(move.token_at, token)
    return after


def unseen_habitats(state: GameState) -> dict[tuple[Habitat, ...], int]:
    """The habitats of the tiles that may still come out, grouped, with how many show each
    (a tile is worth its better habitat's corridor growth)."""
    habitats: dict[tuple[Habitat, ...], int] = {}
    for unseen in unseen_tiles(state):
        habitats[unseen.habitats] = habitats.get(unseen.habitats, 0) + 1
    return habitats


def token_values(wildlife: WildlifeGains, env: Environment) -> list[float]:
    """The best gain one more token of each species could make on ``env`` (never below 0),
    a keystone's nature token included; ``wildlife`` prices tokens on ``env``."""
    values: list[float] = []
    for species in SPECIES:
        best = 0
        for at in env.token_targets(species):
            gain = wildlife.gain(species, at) + env[at].tile.keystone
            best = max(best, gain)
        values.append(best)
    return values


def tile_terms(
    env: Environment, habitats: dict[tuple[Habitat, ...], int], *, solo: bool
) -> tuple[float, list[float]]:
    """The expected best corridor growth of one of the next four tiles on ``env``, the tiles
    drawn from ``habitats`` (:func:`unseen_habitats`), each tile valued by the most a tile
    showing only one of its habitats could add at any free position (an upper bound that
    ignores rotation); and per habitat, how many free positions would grow its largest
    corridor."""
    corridors = Corridors(env, solo=solo)
    positions = env.frontier()
    growth: dict[Habitat, int] = {}
    open_counts: list[float] = []
    for habitat in Habitat:
        probe = Tile(0, (habitat,), (Wildlife.BEAR,))
        grown = [corridors.gains(probe, at)[0] for at in positions]
        growth[habitat] = max(grown, default=0)
        open_counts.append(float(sum(1 for g in grown if g > 0)))
    values = [float(max(growth[h] for h in kinds)) for kinds in habitats]
    return expected_best(values, list(habitats.values())), open_counts


def board_features(
    cards: CardSet,
    env: Environment,
    nature: int,
    counts: list[int],
    habitats: dict[tuple[Habitat, ...], int],
    *,
    solo: bool,
) -> list[float]:
    """The board features (:data:`engine.players.value.BOARD_FEATURES`) of a seat's ``env``
    with ``nature`` tokens, ``counts`` tokens of each species in the supply and ``habitats``
    the tiles still to come: what :meth:`Opportunity.features` gives for the board a move
    leaves, for any board."""
    values = token_values(WildlifeGains(cards, env), env)
    tile_term, open_counts = tile_terms(env, habitats, solo=solo)
    return [
        expected_best(values, counts),
        tile_term,
        *values,
        *open_counts,
        *pattern_features(env),
        float(nature),
    ]


class Opportunity:
    """The opportunity of the boards a turn's moves leave (see the module docstring),
    sharing work between moves that leave the same tokens or the same tiles."""

    def __init__(self, state: GameState, scorer: MoveScorer) -> None:
        self.cards: CardSet = state.cards
        self.scorer = scorer
        self.supply = supply(state)
        self._gains: dict[tuple[Hex, Wildlife] | None, WildlifeGains] = {None: scorer.wildlife}
        self._habitats = unseen_habitats(state)
        self._tiles: dict[tuple[Hex, int, int], tuple[float, list[float]]] = {}

    def tiles(self, after: Environment, move: Move, tile: Tile) -> tuple[float, list[float]]:
        """:func:`tile_terms` of ``after``, the board ``move`` leaves."""
        key = (move.at, move.rotation, tile.id)
        found = self._tiles.get(key)
        if found is None:
            found = self._tiles[key] = tile_terms(
                after, self._habitats, solo=self.scorer.state.solo
            )
        return found

    def parts(
        self, move: Move, tile: Tile, token: Wildlife
    ) -> tuple[float, float, Environment, list[float]]:
        """The two opportunity terms of the board ``move`` leaves (next token, next tile),
        that board, and the best gain of one more token of each species there."""
        after = _after(self.scorer.environment, move, tile, token)
        key = None if move.token_at is None else (move.token_at, token)
        wildlife = self._gains.get(key)
        if wildlife is None:
            wildlife = self._gains[key] = WildlifeGains(self.cards, after)
        values = token_values(wildlife, after)
        counts = list(self.supply)
        if move.token_at is not None:
            counts[SPECIES.index(token)] -= 1
        return expected_best(values, counts), self.tiles(after, move, tile)[0], after, values

    def features(self, move: Move, tile: Tile, token: Wildlife) -> list[float]:
        """The board features (:data:`engine.players.value.BOARD_FEATURES`) of the board
        ``move`` leaves."""
        token_term, tile_term, after, values = self.parts(move, tile, token)
        _, open_counts = self.tiles(after, move, tile)
        nature = self.scorer.nature_tokens - (1 if move.free_choice else 0)
        if move.token_at is not None:
            nature += after[move.token_at].tile.keystone
        return [
            token_term,
            tile_term,
            *values,
            *open_counts,
            *pattern_features(after),
            float(nature),
        ]

    def __call__(self, move: Move, tile: Tile, token: Wildlife) -> float:
        """The expected best next token's gain plus the expected best next tile's corridor
        growth on the board ``move`` leaves."""
        token_term, tile_term, _, _ = self.parts(move, tile, token)
        return token_term + tile_term


def frontier(scorer: MoveScorer) -> list[tuple[int, Move]]:
    """The moves worth a closer look, with their gains (see the module docstring)."""
    tiles, tokens = scorer.state.display_tiles, scorer.state.display_tokens
    corridors = scorer.corridors
    every: list[tuple[int, Move]] = []
    by_edges: list[tuple[tuple[int, int], int, Move]] = []
    for take in useful_takes(scorer):
        tile, token = tiles[take.tile - 1], tokens[take.token - 1]
        if tile is None or token is None:
            continue
        cost = 1 if take.free_choice else 0
        placed = scorer.targets(token)
        for at in scorer.frontier:
            gains = corridors.gains(tile, at)
            edges = corridors.matching_edges(tile, at)
            top = max(gains)
            best = max(range(len(gains)), key=lambda r: (gains[r], edges[r], -r))
            rotation = tile.rotations[best]
            options: list[tuple[Hex | None, int]] = [*placed, (None, 0)]
            on_new = scorer.new_tile_gain(tile, token, at)
            if on_new is not None:
                options.append((at, on_new))
            base = top - cost
            every += [
                (base + gain, Move(take.tile, take.token, at, rotation, where))
                for where, gain in options
            ]
            best_edges = max(range(len(gains)), key=lambda r: (edges[r], gains[r], -r))
            token_gain, token_at = scorer.best_token(tile, token, at)
            edge_rotation = tile.rotations[best_edges]
            by_edges.append(
                (
                    (edges[best_edges], gains[best_edges]),
                    gains[best_edges] + token_gain - cost,
                    Move(take.tile, take.token, at, edge_rotation, token_at),
                )
            )
    chosen = heapq.nlargest(BY_GAIN, every, key=lambda e: e[0])
    chosen += [
        (gain, move) for _, gain, move in heapq.nlargest(BY_EDGES, by_edges, key=lambda e: e[0])
    ]
    bears = [
        entry
        for entry in every
        if entry[1].token_at is not None and tokens[entry[1].token - 1] is Wildlife.BEAR
    ]
    chosen += heapq.nlargest(BY_BEAR, bears, key=lambda e: e[0])
    unique = dict.fromkeys(chosen)
    return list(unique)


def valued_frontier(
    state: GameState,
    scorer: MoveScorer,
    *,
    learned: bool = True,
    model: ValueModel | None = None,
) -> list[tuple[float, Move]]:
    """The frontier's moves, each valued as its gain plus what the board it leaves is worth
    (none on the seat's last turn): the score to go by ``model``, or when ``learned`` by the
    model shipped for the game's cards if there is one, else the opportunity."""
    candidates = frontier(scorer)
    left = turns_left(state, state.current)
    if left <= 1:
        return [(float(gain), move) for gain, move in candidates]
    opportunity = Opportunity(state, scorer)
    if model is None and learned:
        model = model_for(state.cards)
    tiles, tokens = state.display_tiles, state.display_tokens
    valued = []
    for gain, move in candidates:
        tile, token = tiles[move.tile - 1], tokens[move.token - 1]
        if tile is None or token is None:
            continue
        if model is None:
            valued.append((gain + opportunity(move, tile, token), move))
        else:
            board = opportunity.features(move, tile, token)
            valued.append((gain + model.value(board, left - 1), move))
    return valued


def ranked_moves(state: GameState, count: int = 3) -> list[tuple[float, ScoredMove]]:
    """The fast player's ``count`` best moves at the start of a turn, best first, each with
    its value (gain plus what the board it leaves is worth) and its exact gain: what a hint
    suggests. Fewer when the turn has fewer.

    Among equal values a pair comes before a free choice, then the moves go by their text, so
    the ranking is the same every time; the first is one of the moves the player itself,
    which breaks ties at random, would make.
    """
    scorer = MoveScorer(state)
    gains = {move: gain for gain, move in frontier(scorer)}
    ranked = sorted(
        valued_frontier(state, scorer),
        key=lambda valued: (-valued[0], valued[1].free_choice, str(valued[1])),
    )
    return [(value, ScoredMove(gains[move], move)) for value, move in ranked[:count]]


def fast_move(
    state: GameState,
    scorer: MoveScorer,
    rng: random.Random,
    *,
    learned: bool = True,
    model: ValueModel | None = None,
) -> Move:
    """The fast player's choice at the start of a turn (see the module docstring)."""
    return pick_best(valued_frontier(state, scorer, learned=learned, model=model), rng)


def fast_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The fast player (see the module docstring); ``budget`` is not needed."""
    return whole_move(state, lambda scorer: fast_move(state, scorer, rng))


def fast_player_with(model: ValueModel) -> Player:
    """The fast player valuing boards by ``model`` whatever the cards (to train a model on
    the play of another)."""

    def player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
        return whole_move(state, lambda scorer: fast_move(state, scorer, rng, model=model))

    return player


def opportunity_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The fast player without the learned value: boards valued by the two opportunity terms
    alone (the players the value is trained on, and the baseline it is measured against)."""
    return whole_move(state, lambda scorer: fast_move(state, scorer, rng, learned=False))
