"""How long counting the achievements of a finished four-player game takes.

Run: ``python benchmarks/achievements.py``. Greedy players play whole four-player games on
random cards; each final state is timed through :func:`engine.state_achievements` (the score
sheet, every seat's 25 achievements, the scenarios), and the score sheet alone beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path and its engine.py would shadow the
    # engine package: look in the repository root instead.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import GameState, play_game, score_state, state_achievements

REPEATS = 20


def per_call(work: Callable[[GameState], object], state: GameState) -> float:
    """Microseconds for one call of ``work(state)``, the best of a few batches."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(REPEATS):
            work(state)
        best = min(best, (time.perf_counter() - start) / REPEATS)
    return best * 1e6


def main() -> None:
    """Print the median and largest time per game, with and without the achievements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="four-player games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = [
        play_game(players=4, seed=seed, cards="random", policies=["greedy"] * 4).state
        for seed in range(args.seed, args.seed + args.games)
    ]
    whole = [per_call(state_achievements, state) for state in states]
    sheet = [per_call(score_state, state) for state in states]
    print(f"{args.games} finished 4-player games (greedy), microseconds per game")
    print(f"{'':<28}{'median':>8}{'max':>8}")
    print(f"{'score sheet + achievements':<28}{statistics.median(whole):8.0f}{max(whole):8.0f}")
    print(f"{'score sheet alone':<28}{statistics.median(sheet):8.0f}{max(sheet):8.0f}")


if __name__ == "__main__":
    main()
