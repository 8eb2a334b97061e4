"""Computer players' speed: seconds per decision in 4-player all-A games, every seat the same.

Run: ``python benchmarks/players.py [--games N] [--strong-games N] [--seconds S]``. Prints
mean, p50, p90, p99 and max per decision, as wall time and as this process's CPU time (the
figure to trust on a machine shared with other work), with each target. ``strong`` thinks
for ``--seconds`` on the wall clock in its last turns and plays the fast move before.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path: look in the repository root.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import apply, new_game
from engine.players import Budget, choose


def decision_times(policy: str, games: int, budget: Budget) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of every decision of ``games`` 4-player all-A games."""
    wall, cpu = [], []
    for seed in range(games):
        state = new_game(players=4, seed=seed, cards="A")
        while not state.is_over:
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            actions = choose(state, policy, seed=seed, budget=budget)
            wall.append(time.perf_counter() - start_wall)
            cpu.append(time.process_time() - start_cpu)
            for action in actions:
                state = apply(state, action)
    return wall, cpu


def _figures(times: list[float]) -> str:
    q = statistics.quantiles(times, n=100, method="inclusive")
    return (
        f"mean {statistics.fmean(times) * 1e3:.1f} p50 {statistics.median(times) * 1e3:.1f}"
        f" p90 {q[89] * 1e3:.1f} p99 {q[98] * 1e3:.1f} max {max(times) * 1e3:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--strong-games", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    targets = {"greedy": "", "fast": "; target p50 <= 20 ms, p99 <= 60 ms", "strong": ""}
    budgets = {
        "greedy": Budget(),
        "fast": Budget(),
        "strong": Budget(seconds=args.seconds, clock=time.monotonic),
    }
    for policy, target in targets.items():
        games = args.strong_games if policy == "strong" else args.games
        if games < 1:
            continue
        wall, cpu = decision_times(policy, games, budgets[policy])
        print(f"{policy} per decision over {games} games ({len(wall)} decisions){target}")
        print(f"  wall: {_figures(wall)}")
        print(f"  cpu:  {_figures(cpu)}")
    print(f"(strong searches in each seat's last 5 turns for up to {args.seconds:g} s a move)")


if __name__ == "__main__":
    main()
