"""Rollouts per second: greedy games played to the end through ``apply`` and through the
simulation's fast path (:mod:`engine.simulation`), from the same positions.

Run: ``python benchmarks/rollouts.py [--positions N] [--rollouts N]``. The positions are
4-player all-A games played by ``fast`` to a seat's turns 5, 10 and 15; from each, the same
sampled worlds are played out by the greedy rollout policy both ways (every seat to the end
of the game), first checking that both ways end with the same scores. Prints rollouts per
second of this process's CPU time (the figure to trust on a shared machine) each way, and
the same for a search's short rollouts (a few turns each, then the learned value).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path: look in the repository root.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import apply, new_game
from engine.game import GameState
from engine.players import choose
from engine.players.fast import valued_frontier
from engine.players.hidden import sample_world
from engine.players.strong import CANDIDATES, Boards, leaf_for, play_out
from engine.scorer import MoveScorer, own_score
from engine.simulation import Simulation, game_draws


def through_apply(world: GameState) -> list[int]:
    """Every seat's score once the greedy rollout policy has finished ``world`` through
    ``apply``, one immutable state per action."""
    state = world
    while not state.is_over:
        for action in MoveScorer(state).best(free_choices=False).move.actions():
            state = apply(state, action)
    return [
        own_score(state.cards, seat.environment, seat.nature_tokens, solo=state.solo)
        for seat in state.seats
    ]


def through_simulation(world: GameState) -> list[int]:
    """The same through a :class:`Simulation` drawing as the game does."""
    simulation = Simulation(world, game_draws(world.seed, world.draws))
    while not simulation.over:
        simulation.play(MoveScorer(simulation).best(free_choices=False).move)
    return [simulation.score(seat) for seat in range(simulation.players)]


def positions(count: int) -> list[GameState]:
    """``count`` positions of 4-player all-A games by ``fast``, at a seat's turns 5, 10, 15."""
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        state = new_game(players=4, seed=seed, cards="A")
        while not state.is_over and len(found) < count:
            if state.turn in (16, 36, 56):
                found.append(state)
            for action in choose(state, "fast", seed=seed):
                state = apply(state, action)
        seed += 1
    return found


def rate(work: list[GameState], run: Callable[[GameState], object]) -> float:
    """Rollouts per CPU second of ``run`` over ``work``."""
    start = time.process_time()
    for world in work:
        run(world)
    return len(work) / (time.process_time() - start)


def searches(
    roots: list[GameState], worlds: int, depth: int | None, *, shared: bool
) -> tuple[int, float]:
    """Rollouts and CPU seconds of a search's work at each root: the fast player's
    :data:`CANDIDATES` best moves, each in the same ``worlds`` sampled worlds, ``depth``
    turns each then the learned value (None: to the end), with or without the boards shared
    between rollouts (:class:`engine.players.strong.Boards`)."""
    count, seconds = 0, 0.0
    for root in roots:
        rng = random.Random(root.turn)
        valued = valued_frontier(root, MoveScorer(root))
        ranked = [move for _, move in sorted(valued, key=lambda v: -v[0])][:CANDIDATES]
        sampled = [sample_world(root, rng) for _ in range(worlds)]
        start = time.process_time()
        leaf = None if depth is None else leaf_for(root, depth)
        boards = Boards(root) if shared else None
        for move in ranked:
            for world in sampled:
                play_out(world, move, root.current, leaf, boards)
                count += 1
        seconds += time.process_time() - start
    return count, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rollouts", type=int, default=10, help="worlds per position")
    args = parser.parse_args()
    rng = random.Random(0)
    worlds = [
        sample_world(state, rng)
        for state in positions(args.positions)
        for _ in range(args.rollouts)
    ]
    for world in worlds[:: args.rollouts]:
        if through_apply(world) != through_simulation(world):
            raise SystemExit("the two ways end with different scores")
    before = rate(worlds, through_apply)
    after = rate(worlds, through_simulation)
    print(f"{len(worlds)} greedy rollouts to the end of the game (4 players, AAAAA)")
    print(f"  through apply:      {before:7.1f} a second")
    print(f"  through simulation: {after:7.1f} a second ({after / before:.2f}x)")
    roots = positions(args.positions)
    print(f"a search's rollouts ({CANDIDATES} candidates x {args.rollouts} worlds at each root):")
    for depth in (None, 1, 2, 4):
        what = "to the end" if depth is None else f"{depth} turns, then the value"
        rates = []
        for shared in (False, True):
            count, seconds = searches(roots, args.rollouts, depth, shared=shared)
            rates.append(count / seconds)
        print(
            f"  {what:>24}: {rates[0]:7.1f} a second, {rates[1]:7.1f} with the boards shared"
            f" ({rates[1] / rates[0]:.2f}x)"
        )


if __name__ == "__main__":
    main()
