"""A computer's turn in the bot: seconds from asking the thinker to having the move, through
the worker processes (state encoded, sent, decoded, chosen, sent back), and the event loop's
longest stall meanwhile.

Run: ``python benchmarks/computer_turns.py [--turns N] [--strong-seconds S]``. Plays 3-player
all-A games, every seat ``fast`` then every seat ``strong``, one turn at a time through
:class:`bot.game.computers.Thinker` as the bot starts it, and prints p50, p99 and max per turn
and the longest gap between ticks of a 10 ms timer on the event loop (it must stay small: the
bot keeps answering while computers think).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path: look in the repository root.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.game.computers import start_thinker
from engine import apply_all, new_game

TICK = 0.01


async def _ticker(gaps: list[float], stop: asyncio.Event) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(TICK)
        now = time.perf_counter()
        gaps.append(now - last - TICK)
        last = now


async def _turns(policy: str, turns: int, strong_seconds: float) -> tuple[list[float], float]:
    thinker = start_thinker(strong_seconds=strong_seconds)
    gaps: list[float] = []
    stop = asyncio.Event()
    ticker = asyncio.create_task(_ticker(gaps, stop))
    seconds: list[float] = []
    try:
        seed = 0
        state = new_game(players=3, seed=seed, cards="A")
        while len(seconds) < turns:
            if state.is_over:
                seed += 1
                state = new_game(players=3, seed=seed, cards="A")
            start = time.perf_counter()
            move = await thinker.choose(state, policy, seed=seed)
            seconds.append(time.perf_counter() - start)
            state = apply_all(state, move.actions())
    finally:
        stop.set()
        await ticker
        await thinker.close()
    # The first turn starts the worker processes: reported apart.
    return seconds, max(gaps, default=0.0)


def _line(policy: str, seconds: list[float], stall: float) -> str:
    first, rest = seconds[0], sorted(seconds[1:])
    p50 = statistics.median(rest)
    p99 = rest[min(len(rest) - 1, round(0.99 * (len(rest) - 1)))]
    return (
        f"{policy:6}: first turn {first:.3f} s (starts the workers); then p50 {p50:.3f} s,"
        f" p99 {p99:.3f} s, max {rest[-1]:.3f} s over {len(rest)} turns;"
        f" longest event-loop stall {stall * 1000:.1f} ms"
    )


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--strong-seconds", type=float, default=2.0)
    args = parser.parse_args()
    for policy in ("fast", "strong"):
        seconds, stall = asyncio.run(_turns(policy, args.turns, args.strong_seconds))
        print(_line(policy, seconds, stall))


if __name__ == "__main__":
    main()
