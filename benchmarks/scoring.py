"""How long scoring one finished environment takes, for each card set.

Run: ``python benchmarks/scoring.py``. Each
environment is a random starter plus 20 random habitat tiles at random free places, in
random rotations, with a token on each tile that shows one (mostly), so 23 tiles in all.
The target is a median of at most 300 microseconds for the five wildlife cards.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder comes first on sys.path and its engine.py would shadow the
    # engine package: look in the repository root instead.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.components import HABITAT_TILES_ALL, STARTERS, CardSet, Wildlife
from engine.environment import Environment, PlacedTile
from engine.hexes import Hex
from engine.scoring import wildlife_score
from engine.scoring.corridors import largest_corridors

CARD_SETS = ("AAAAA", "BBBBB", "CCCCC", "DDDDD", "family", "intermediate")
TURNS = 20
TOKEN_CHANCE = 0.9


def random_environment(rng: random.Random) -> Environment:
    """A finished-looking environment: a starter and 20 tiles, most holding a token."""
    tiles = dict(Environment.from_starter(rng.choice(STARTERS)))
    for tile in rng.sample(HABITAT_TILES_ALL, TURNS):
        free = sorted({n for h in tiles for n in h.neighbors()} - tiles.keys())
        tiles[rng.choice(free)] = PlacedTile(tile, rng.randrange(6))
    placed = {}
    for hex_, bare in tiles.items():
        token = rng.choice(bare.tile.wildlife) if rng.random() < TOKEN_CHANCE else None
        placed[hex_] = PlacedTile(bare.tile, bare.rotation, token)
    return Environment(placed)


def packed_elk(rng: random.Random) -> Environment:
    """A worst case for the elk searches: 20 elk packed round the origin."""
    near = sorted(
        (Hex(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3),
        key=lambda h: (h.distance(Hex(0, 0)), rng.random()),
    )
    tile = next(t for t in HABITAT_TILES_ALL if t.wildlife == (Wildlife.ELK,))
    return Environment({hex_: PlacedTile(tile, 0, Wildlife.ELK) for hex_ in near[:20]})


def spread_hawks(rng: random.Random) -> Environment:
    """A worst case for hawk D: 20 hawks two steps apart (six lines of sight each inside the
    block) with random other tokens on every hex between them."""
    hawk = next(t for t in HABITAT_TILES_ALL if t.wildlife == (Wildlife.HAWK,))
    others = [t for t in HABITAT_TILES_ALL if t.keystone and t.wildlife != (Wildlife.HAWK,)]
    tiles = {}
    for q in range(-1, 9):
        for r in range(-1, 7):
            if q % 2 == 0 and r % 2 == 0 and q < 10 and r < 8:
                tiles[Hex(q, r)] = PlacedTile(hawk, 0, Wildlife.HAWK)
            else:
                tile = rng.choice(others)
                tiles[Hex(q, r)] = PlacedTile(tile, 0, tile.wildlife[0])
    return Environment(tiles)


def timed(cards: CardSet, envs: list[Environment]) -> list[float]:
    """Microseconds to score each environment's five wildlife cards."""
    found = []
    for env in envs:
        start = time.perf_counter()
        wildlife_score(cards, env)
        found.append((time.perf_counter() - start) * 1e6)
    return found


def main() -> None:
    """Print the median and 99th percentile time per card set, then some worst cases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=2000, help="environments per card set")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    envs = [random_environment(rng) for _ in range(args.envs)]
    for env in envs[:50]:  # warm up
        wildlife_score(CardSet.parse("A"), env)
    print(f"{args.envs} random 23-tile environments, microseconds per environment")
    print(f"{'cards':<14}{'median':>8}{'p99':>8}")
    for text in CARD_SETS:
        times = timed(CardSet.parse(text), envs)
        p99 = statistics.quantiles(times, n=100)[98]
        print(f"{text:<14}{statistics.median(times):8.0f}{p99:8.0f}")
    mixed = [CardSet.parse("".join(rng.choice("ABCD") for _ in range(5))) for _ in envs]
    times = []
    for cards, env in zip(mixed, envs, strict=True):
        start = time.perf_counter()
        wildlife_score(cards, env)
        times.append((time.perf_counter() - start) * 1e6)
    print(f"{'random mix':<14}{statistics.median(times):8.0f}")
    corridor_times = []
    for env in envs:
        start = time.perf_counter()
        largest_corridors(env)
        corridor_times.append((time.perf_counter() - start) * 1e6)
    print(f"{'corridors':<14}{statistics.median(corridor_times):8.0f}")
    print("worst cases for the searches (median, max):")
    worst = [
        ("20 packed elk", [packed_elk(rng) for _ in range(50)], "ABD"),
        ("20 spread hawks", [spread_hawks(rng) for _ in range(50)], "D"),
    ]
    for name, crowded, letters in worst:
        for letter in letters:
            times = timed(CardSet.parse(letter), crowded)
            print(f"{name} {letter:<6}{statistics.median(times):8.0f}{max(times):8.0f}")


if __name__ == "__main__":
    main()
