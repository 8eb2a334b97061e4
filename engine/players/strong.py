"""The strong player: the fast player's move, checked by playing games out to the end.

In the seat's last :data:`SEARCH_TURNS` turns (where rollouts are short enough to run many
within seconds in Python) it takes the fast player's :data:`CANDIDATES` best-valued moves
and plays each out to the end of the game in sampled worlds (:mod:`engine.players.hidden`),
every seat by the greedy rollout policy; the same worlds serve every candidate (common random
numbers). Worlds are added in rounds and the weaker half of the candidates is dropped after
each (sequential halving), until the budget runs out. The fast player's move is kept unless
a challenger beats it on the same worlds with confidence: the one-sided 90 % lower bound of
the mean paired difference is above 0 (the highest such bound wins). Earlier turns, and any
turn without a budget, play the fast move.
"""

from __future__ import annotations

import random
from statistics import fmean, stdev

from engine.actions import Action
from engine.game import GameState, Phase, apply
from engine.moves import Move, MoveScorer, own_score
from engine.players.base import Budget, finish_turn, pick_best, turns_left
from engine.players.fast import valued_frontier
from engine.players.hidden import sample_world

SEARCH_TURNS = 5
"""The search runs in the seat's last five turns; before that it plays the fast move."""

CANDIDATES = 8
FIRST_WORLDS = 4
"""Worlds in the first round; each round doubles them and halves the candidates."""

_T90 = {1: 3.078, 2: 1.886, 3: 1.638, 4: 1.533, 5: 1.476, 6: 1.440, 7: 1.415, 8: 1.397}
"""One-sided 90 % Student t quantiles by degrees of freedom (1.282 beyond the table)."""


def rollout_move(state: GameState) -> Move:
    """The rollout policy: the greedy move over the pairs, first of equals (cheap and fixed)."""
    return MoveScorer(state).best(free_choices=False).move


def play_out(world: GameState, move: Move, seat: int) -> int:
    """``seat``'s own score once ``move`` is played in ``world`` and the game is finished by
    the rollout policy for every seat."""
    state = world
    actions: list[Action] = list(move.actions())
    while True:
        for action in actions:
            state = apply(state, action)
        if state.is_over:
            break
        if state.phase is Phase.CHOOSE:
            actions = list(rollout_move(state).actions())
        else:
            actions = finish_turn(state)
    player = state.seats[seat]
    return own_score(state.cards, player.environment, player.nature_tokens, solo=state.solo)


def lower_bound(differences: list[int]) -> float:
    """The one-sided 90 % lower confidence bound of the mean of ``differences``."""
    if len(differences) < 2:
        return float("-inf")
    spread: float = stdev(differences) / len(differences) ** 0.5
    mean: float = fmean(differences)
    return mean - _T90.get(len(differences) - 1, 1.282) * spread


def search(
    state: GameState, candidates: list[Move], anchor: Move, rng: random.Random, budget: Budget
) -> Move:
    """The anchor, or a candidate that beats it with confidence in rollouts (see the
    module docstring), within ``budget``."""
    time_up = budget.deadline()
    allowed = budget.rollouts
    seat = state.current
    worlds: list[GameState] = []
    scores: dict[Move, list[int]] = {move: [] for move in candidates}
    survivors = list(candidates)
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
                results.append(play_out(worlds[len(results)], move, seat))
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


def _gate(scores: dict[Move, list[int]], anchor: Move) -> Move:
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


def strong_player(state: GameState, rng: random.Random, budget: Budget) -> list[Action]:
    """The strong player (see the module docstring)."""
    if state.phase is not Phase.CHOOSE:
        return finish_turn(state)
    valued = valued_frontier(state, MoveScorer(state))
    last = turns_left(state, state.current) <= 1
    anchor = pick_best(valued, rng)
    searching = budget.rollouts is not None or budget.seconds is not None
    if last or not searching or turns_left(state, state.current) > SEARCH_TURNS:
        return list(anchor.actions())
    ranked = [move for _, move in sorted(valued, key=lambda v: -v[0])]
    candidates = [anchor, *[m for m in ranked if m != anchor][: CANDIDATES - 1]]
    return list(search(state, candidates, anchor, rng, budget).actions())
