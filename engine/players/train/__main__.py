"""``python -m engine.players.train``: fit the learned value by seeded self-play and write the
weights file (see :mod:`engine.players.train`)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence

from engine.players.train import EXPLORE, RIDGE, train


def main(argv: Sequence[str] | None = None) -> int:
    """Run the training command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.players.train", description=__doc__)
    parser.add_argument("--seed", type=int, required=True, help="first game seed")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", default="AAAAA")
    parser.add_argument("--policy", default="opportunity", help="who plays every seat")
    parser.add_argument("--explore", type=float, default=EXPLORE, help="share of moves explored")
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument(
        "--weights", help="a shipped weights file: every seat is fast valuing boards by it"
    )
    parser.add_argument("--out", required=True, help="the weights file to write")
    args = parser.parse_args(argv)
    given = list(sys.argv[1:] if argv is None else argv)
    command = shlex.join(["python", "-m", "engine.players.train", *given])
    model = train(
        players=args.players,
        games=args.games,
        seed=args.seed,
        cards=args.cards,
        policy=args.policy,
        explore=args.explore,
        ridge=args.ridge,
        weights=args.weights,
        command=command,
    )
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(model.to_json(), out, indent=1)
        out.write("\n")
    print(json.dumps(model.provenance))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
