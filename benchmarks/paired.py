"""Two self-play runs compared game by game on the same seeds.

Run: ``python benchmarks/paired.py BEFORE.jsonl AFTER.jsonl`` with two files written by
``python -m engine selfplay`` (every seat one policy in each). Prints, for the seeds both
hold, each run's mean base score per seat, the mean paired difference (after minus before)
with its 95 % confidence interval (the game's mean over its seats is the unit), how many
games got better, equal and worse, and the difference per score category.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any


def _games(path: Path) -> dict[int, dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return {game["seed"]: game for game in map(json.loads, lines)}


def _parts(game: dict[str, Any]) -> dict[str, float]:
    """The game's mean base score per seat and its split by category."""
    seats = game["scores"]
    parts: dict[str, float] = {"base": statistics.fmean(s["base"] for s in seats)}
    for species in seats[0]["wildlife"]:
        parts[species] = statistics.fmean(s["wildlife"][species] for s in seats)
    parts["corridors"] = statistics.fmean(sum(s["habitats"].values()) for s in seats)
    parts["nature"] = statistics.fmean(s["nature_tokens"] for s in seats)
    return parts


def _interval(values: list[float]) -> float:
    """Half the width of a 95 % confidence interval of the mean (normal approximation)."""
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = _games(args.before), _games(args.after)
    seeds = sorted(before.keys() & after.keys())
    if not seeds:
        raise SystemExit("the two runs share no seed")
    old = {seed: _parts(before[seed]) for seed in seeds}
    new = {seed: _parts(after[seed]) for seed in seeds}
    base_old = [old[s]["base"] for s in seeds]
    base_new = [new[s]["base"] for s in seeds]
    diffs = [b - a for a, b in zip(base_old, base_new, strict=True)]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    print(f"{len(seeds)} paired games")
    print(f"  before {statistics.fmean(base_old):.2f} +- {_interval(base_old):.2f}")
    print(f"  after  {statistics.fmean(base_new):.2f} +- {_interval(base_new):.2f}")
    print(
        f"  difference {statistics.fmean(diffs):+.2f} +- {_interval(diffs):.2f};"
        f" better {better}, equal {len(seeds) - better - worse}, worse {worse}"
    )
    split = " ".join(
        f"{part} {statistics.fmean(new[s][part] - old[s][part] for s in seeds):+.2f}"
        for part in old[seeds[0]]
        if part != "base"
    )
    print(f"  by category: {split}")


if __name__ == "__main__":
    main()
