"""Engine speed: whole random games, scoring one environment, a turn's moves and their gains.

Run: ``python benchmarks/engine.py [--games N]``. Prints one line per figure with its target.
Times are this process's CPU time, so that other work on the machine inflates them less.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path and this very file would shadow the
    # engine package: look in the repository root instead.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import MoveScorer, Phase, Take, apply, legal_actions, new_game, score_state
from engine.game import GameState
from engine.players import random_action, random_game
from engine.scoring.sheet import final_scores


def _timed(func: Callable[..., object], *args: object) -> float:
    start = time.process_time()
    func(*args)
    return time.process_time() - start


def bench_games(games: int) -> list[float]:
    """Seconds per random 4-player game, final scoring included."""

    def one(seed: int) -> None:
        state, _ = random_game(players=4, seed=seed)
        score_state(state)

    return [_timed(one, seed) for seed in range(games)]


def bench_scoring(games: int) -> list[float]:
    """Seconds to score one finished 23-tile environment with five cards."""
    times = []
    for seed in range(games):
        state, _ = random_game(players=4, seed=seed)
        for seat in state.seats:
            env, nature = seat.environment, seat.nature_tokens
            times.append(_timed(final_scores, state.cards, [("p", env, nature)]))
    return times


def _turn_options(state: GameState) -> int:
    """Every (position, rotation) for each pair's tile and every token target after it."""
    count = 0
    for pair in (1, 2, 3, 4):
        taken = apply(state, Take(pair, pair))
        placements = legal_actions(taken)
        count += len(placements)
        after = apply(taken, placements[0])
        count += len(legal_actions(after))
    return count


def bench_enumeration(games: int) -> list[float]:
    """Seconds to enumerate a turn's placements and token targets, over whole games."""
    times = []
    for seed in range(games):
        state_rng = random.Random(seed)
        state = new_game(players=4, seed=seed)
        while not state.is_over:
            if state.phase is Phase.CHOOSE:
                times.append(_timed(_turn_options, state))
            state = apply(state, random_action(state, state_rng))
    return times


def bench_solo_games(games: int) -> list[float]:
    """Seconds per random solo game (without final scoring)."""
    return [_timed(lambda seed: random_game(players=1, seed=seed), seed) for seed in range(games)]


def _turn_states(games: int) -> list[GameState]:
    """The start of every turn of ``games`` random 4-player games (random cards)."""
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(players=4, seed=seed)
        while not state.is_over:
            if state.phase is Phase.CHOOSE:
                states.append(state)
            state = apply(state, random_action(state, rng))
    return states


def bench_turn_moves(games: int) -> tuple[list[float], list[float], list[float], float]:
    """Seconds to price every move of a turn (each pair, position, rotation and token target
    or return) from scratch: as a list of gains, as a list of scored moves, and the best
    move alone; with the mean number of moves."""
    states = _turn_states(games)
    gains = [_timed(lambda s: MoveScorer(s).gains(free_choices=False), s) for s in states]
    moves = [_timed(lambda s: MoveScorer(s).moves(free_choices=False), s) for s in states]
    best = [_timed(lambda s: MoveScorer(s).best(free_choices=False), s) for s in states]
    count = statistics.fmean(len(MoveScorer(s).gains(free_choices=False)) for s in states)
    return gains, moves, best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    bench_games(5)  # warm caches once, as a long-running bot would be
    games = bench_games(args.games)
    scoring = bench_scoring(max(args.games // 4, 10))
    enumeration = bench_enumeration(max(args.games // 20, 5))
    solo = bench_solo_games(args.games)
    gains, moves, best, count = bench_turn_moves(max(args.games // 20, 5))
    print(
        f"random 4-player game incl. final scoring: median {statistics.median(games) * 1e3:.2f} ms"
        f" (p90 {statistics.quantiles(games, n=10)[-1] * 1e3:.2f} ms; target <= 10 ms)"
    )
    print(
        f"score one finished 23-tile environment, five cards: median "
        f"{statistics.median(scoring) * 1e6:.0f} us (max {max(scoring) * 1e6:.0f} us;"
        " target <= 300 us)"
    )
    print(
        f"enumerate a turn's placements and token targets: mean "
        f"{statistics.fmean(enumeration) * 1e3:.2f} ms over {len(enumeration)} turns"
        " (target <= 5 ms)"
    )
    print(
        f"random solo game: mean {statistics.fmean(solo) * 1e3:.2f} ms"
        f" (median {statistics.median(solo) * 1e3:.2f} ms; target <= 1.0 ms)"
    )
    print(
        f"every move of a turn with its score change ({count:.0f} moves on average, pairs only):"
        f" mean {statistics.fmean(gains) * 1e3:.2f} ms as gains (p99"
        f" {statistics.quantiles(gains, n=100)[-1] * 1e3:.2f} ms; target <= 1 ms),"
        f" {statistics.fmean(moves) * 1e3:.2f} ms as Move values;"
        f" best move alone {statistics.fmean(best) * 1e3:.2f} ms, over {len(gains)} turns"
    )


if __name__ == "__main__":
    main()
