"""The strong player: the fast player's move, checked by playing the game on in sampled worlds.

It takes the fast player's :data:`CANDIDATES` best-valued moves and plays each on in sampled
worlds (:mod:`engine.players.hidden`), every seat by the greedy rollout policy, through the
simulation's fast path (:mod:`engine.simulation`); the same worlds serve every candidate
(common random numbers). Worlds are added in rounds and the weaker half of the candidates
is dropped after each (sequential halving), until the budget runs out. The fast player's
move is kept unless a challenger beats it on the same worlds with confidence: the one-sided
90 % lower bound of the mean paired difference is above 0 (the highest such bound wins).

A rollout stops once the seat has played :data:`DEPTH` more turns of its own after the
candidate and is worth the seat's score then plus the learned value of its board (the points
still to come): short rollouts, so the search runs on every turn. The value is the one trained
for the game's cards (:func:`engine.players.value.model_for`), or for cards without one (only
all-A cards have one so far) the all-A value, borrowed: its features are read with the game's
own cards, and in 4-player games with random cards strong gains more over fast with it than
it did with rollouts to the end in its last turns (``docs/measurements.md`` has the figures).
The fast player does not borrow it: as its own value it played worse than the opportunity
terms. The seat's last turn, and any turn without a budget, play the fast move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from statistics import fmean, stdev

from engine.actions import Action
from engine.components import TURNS_PER_PLAYER, CardSet, Habitat
from engine.environment import Environment
from engine.game import GameState, Phase
from engine.move import Move
from engine.players.base import Budget, finish_turn, pick_best, turns_left
from engine.players.fast import board_features, unseen_habitats, valued_frontier
from engine.players.hidden import sample_world
from engine.players.value import ValueModel, model_for
from engine.scorer import Corridors, MoveScorer, WildlifeGains, scorer_parts
from engine.simulation import Simulation

DEPTH = 2
"""The seat's own turns a rollout plays after the candidate, before the leaf's value."""

BORROWED = CardSet.parse("AAAAA")
"""The cards whose learned value serves cards that have none of their own."""

CANDIDATES = 8
FIRST_WORLDS = 4
"""Worlds in the first round; each round doubles them and halves the candidates."""

_T90 = {1: 3.078, 2: 1.886, 3: 1.638, 4: 1.533, 5: 1.476, 6: 1.440, 7: 1.415, 8: 1.397}
"""One-sided 90 % Student t quantiles by degrees of freedom (1.282 beyond the table)."""


def rollout_move(state: Simulation | GameState, boards: Boards | None = None) -> Move:
    """The rollout policy: the greedy move over the pairs, first of equals (cheap and fixed);
    ``boards`` lends what it knows of the boards a search meets again."""
    parts = None if boards is None else boards.parts(state.current_player.environment)
    return MoveScorer(state, parts=parts).best(free_choices=False).move


class Boards:
    """The boards a search's rollouts meet in world after world, and what the rollout policy
    works out of each once (:func:`engine.scorer.scorer_parts`): every seat's board at the
    root (the other seats' first turns in every rollout start there) and the board each
    candidate leaves (the same in every world: the display is public)."""

    def __init__(self, state: GameState) -> None:
        self._cards = state.cards
        self._solo = state.solo
        self._known: dict[int, tuple[Environment, tuple[Corridors, WildlifeGains] | None]] = {
            id(seat.environment): (seat.environment, None) for seat in state.seats
        }
        self._left: dict[Move, Environment] = {}

    def left_by(self, move: Move, env: Environment) -> Environment:
        """The one board kept for the board ``env`` that ``move`` left (equal to it)."""
        found = self._left.get(move)
        if found is None:
            found = self._left[move] = env
            self._known[id(env)] = (env, None)
        return found

    def parts(self, env: Environment) -> tuple[Corridors, WildlifeGains] | None:
        """The rollout policy's parts for ``env`` when it is one of the boards kept (None
        for any other: it is met once)."""
        known = self._known.get(id(env))
        if known is None or known[0] is not env:
            return None
        found = known[1]
        if found is None:
            found = scorer_parts(env, self._cards, solo=self._solo)
            self._known[id(env)] = (env, found)
        return found


@dataclass(frozen=True, slots=True)
class Leaf:
    """Where rollouts stop and what they are worth there: after ``depth`` more turns of the
    seat's own, its score plus ``model``'s value of its board, the tiles still to come drawn
    from ``habitats`` (those unseen at the root, a close enough guess a few turns on)."""

    model: ValueModel
    depth: int
    habitats: dict[tuple[Habitat, ...], int]

    def value(self, simulation: Simulation, seat: int) -> float:
        """The seat's score now plus the learned value of its board."""
        env = simulation.environments[seat]
        nature = simulation.nature_tokens[seat]
        board = board_features(
            simulation.cards,
            env,
            nature,
            simulation.supply(),
            self.habitats,
            solo=simulation.solo,
        )
        left = TURNS_PER_PLAYER - simulation.turns_taken[seat]
        return simulation.score(seat) + self.model.value(board, left)


def leaf_for(state: GameState, depth: int | None = None) -> Leaf:
    """Where the rollouts from ``state`` stop and how they are valued there: the value
    trained for its cards, or the borrowed one (see the module docstring)."""
    model = model_for(state.cards) or model_for(BORROWED)
    if model is None:
        raise RuntimeError(f"the learned value for {BORROWED} is not shipped")
    return Leaf(model, DEPTH if depth is None else depth, unseen_habitats(state))


def play_out(
    world: GameState,
    move: Move | None,
    seat: int,
    leaf: Leaf | None = None,
    boards: Boards | None = None,
) -> float:
    """What ``seat`` makes of ``world`` once ``move`` is played there (None: the rollout
    policy's) and the game is played on by the rollout policy for every seat: its score at
    the end of the game or, with ``leaf``, the leaf's value once the seat has played
    ``leaf.depth`` more turns. The world's own seed draws its tokens, so every candidate
    meets the same draws; ``boards`` shares work between the rollouts of one search."""
    simulation = Simulation(world, random.Random(world.seed).randrange)
    simulation.play(rollout_move(simulation, boards) if move is None else move)
    if boards is not None and move is not None:
        environments = simulation.environments
        environments[seat] = boards.left_by(move, environments[seat])
    stop = simulation.turns_taken[seat] + (leaf.depth if leaf is not None else TURNS_PER_PLAYER)
    while not simulation.over:
        if leaf is not None and simulation.turns_taken[seat] >= stop:
            return leaf.value(simulation, seat)
        simulation.play(rollout_move(simulation, boards))
    return simulation.score(seat)


def lower_bound(differences: list[float]) -> float:
    """The one-sided 90 % lower confidence bound of the mean of ``differences``."""
    if len(differences) < 2:
        return float("-inf")
    spread: float = stdev(differences) / len(differences) ** 0.5
    mean: float = fmean(differences)
    return mean - _T90.get(len(differences) - 1, 1.282) * spread


def search(
    state: GameState,
    candidates: list[Move],
    anchor: Move,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None = None,
) -> Move:
    """The anchor, or a candidate that beats it with confidence in rollouts (see the
    module docstring), within ``budget``."""
    time_up = budget.deadline()
    allowed = budget.rollouts
    seat = state.current
    worlds: list[GameState] = []
    scores: dict[Move, list[float]] = {move: [] for move in candidates}
    survivors = list(candidates)
    boards = Boards(state)
    used = 0
    wanted = FIRST_WORLDS
    while True:
        while len(worlds) < wanted:
            worlds.append(sample_world(state, rng))
        for move in survivors:
            results = scores[move]
            while len(results) < wanted:
                if time_up() or (allowed is not None and used >= allowed):
                    return _gate(scores, anchor)
                results.append(play_out(worlds[len(results)], move, seat, leaf, boards))
                used += 1
        if len(survivors) > 2:
            ranked = sorted(survivors, key=lambda m: -fmean(scores[m]))
            keep = ranked[: (len(ranked) + 1) // 2]
            if anchor not in keep:
                keep.append(anchor)
            survivors = keep
        elif budget.seconds is None and allowed is None:
            return _gate(scores, anchor)
        wanted *= 2


def _gate(scores: dict[Move, list[float]], anchor: Move) -> Move:
    base = scores[anchor]
    best, best_bound = anchor, 0.0
    for move, results in scores.items():
        if move == anchor:
            continue
        paired = min(len(results), len(base))
        bound = lower_bound([results[i] - base[i] for i in range(paired)])
        if bound > best_bound:
            best, best_bound = move, bound
    return best


def searches(state: GameState, budget: Budget) -> bool:
    """Whether the strong player searches on ``state``'s turn with ``budget`` (see the
    module docstring)."""
    if budget.rollouts is None and budget.seconds is None:
        return False
    return turns_left(state, state.current) > 1


def strong_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The strong player (see the module docstring)."""
    if state.phase is not Phase.CHOOSE:
        return finish_turn(state)
    valued = valued_frontier(state, MoveScorer(state))
    anchor = pick_best(valued, rng)
    if not searches(state, budget):
        return list(anchor.actions())
    ranked = [move for _, move in sorted(valued, key=lambda v: -v[0])]
    candidates = [anchor, *[m for m in ranked if m != anchor][: CANDIDATES - 1]]
    return list(search(state, candidates, anchor, rng, budget, leaf_for(state)).actions())
