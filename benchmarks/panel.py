"""How fast the turn panel answers, against the budgets of the turn-panel issue.

Run from the repository root: ``python benchmarks/panel.py`` (``--check`` exits 1 when a budget
is exceeded; ``--runs N`` sets the number of timed runs). Two figures, on late-game positions
(a starter and 20 placed tiles, so the panel draws a 23-tile environment):

- the score change of every option of one pair: every legal place of the tile with its best
  rotation and best token spot, then every token target once the tile is placed
  (budget 20 ms);
- the panel's picture redrawn after a press, as the bot draws it: the environment with the
  tile turned in place, ringed, headed by its score (budget: median 60 ms, p99 150 ms).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path and would hide the packages.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.panel import gains
from bot.panel.draft import Draft, Offer, Press, Step, Verb
from bot.panel.service import draw_panel
from bot.panel.steps import advance, offer
from engine import GameState, PlaceTile, PlaceToken, Take, apply, new_game
from render import clear_picture_cache

GAINS_BUDGET_MS = 20.0
PICTURE_MEDIAN_MS = 60.0
PICTURE_P99_MS = 150.0
POSITIONS = 8


def late_position(seed: int) -> GameState:
    """A solo game after 19 random turns (tokens placed when they can be): the 20th turn
    places the 23rd tile."""
    rng = random.Random(seed)
    state = new_game(players=1, seed=seed, cards=rng.choice(["AAAAA", "BBBBB", "CDCDC", "DDDDD"]))
    for _ in range(19):
        pair = rng.randint(1, 4)
        state = apply(state, Take(pair, pair))
        frontier = state.current_player.environment.frontier()
        state = apply(state, PlaceTile(rng.choice(frontier), rng.randrange(6)))
        held = state.held_token
        targets = [] if held is None else state.current_player.environment.token_targets(held)
        state = apply(state, PlaceToken(rng.choice(targets) if targets else None))
    return state


def every_option(state: GameState, pair: int) -> int:
    """What the panel scores for one pair: every place (with its best rotation and token
    spot), then every token target with the tile at the best place; returns how many options
    were scored."""
    take = Take(pair, pair)
    places = gains.place_gains(state, take)
    best = places[0]
    targets = gains.token_options(state, take, best.at, best.rotation)
    return len(places) + len(targets.targets) + 1


def panel_steps(state: GameState) -> list[Offer]:
    """The panel's steps that draw the tile in place: the first place offered for pair 1,
    and (for a two-habitat tile) the same turned once."""
    draft = advance(state, Draft(), Press(Verb.PAIR, ("1",)))
    where = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (where,)))
    steps = [offer(state, draft)]
    if draft.step is Step.TURN:
        steps.append(offer(state, advance(state, draft, Press(Verb.LEFT))))
    return steps


def _time(job: Callable[[], object], runs: int) -> list[float]:
    job()
    samples = []
    for _ in range(runs):
        clear_picture_cache()
        start = time.perf_counter()
        job()
        samples.append((time.perf_counter() - start) * 1000.0)
    return sorted(samples)


def _percentile(samples: list[float], share: float) -> float:
    return samples[min(len(samples) - 1, int(len(samples) * share))]


def main(argv: list[str] | None = None) -> int:
    """Print the figures; with ``--check`` return 1 if a budget is exceeded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    states = [late_position(seed) for seed in range(POSITIONS)]
    assert all(len(s.current_player.environment) == 22 for s in states)

    gain_samples: list[float] = []
    options = 0
    for state in states:
        for pair in (1, 2, 3, 4):
            gain_samples += _time(partial(every_option, state, pair), max(3, args.runs // 16))
            options = max(options, every_option(state, pair))
    gain_samples.sort()

    picture_samples: list[float] = []
    for state in states:
        steps = panel_steps(state)
        for shown in steps:
            assert len(shown.shown.current_player.environment) == 23
            runs = max(3, args.runs // len(steps) // POSITIONS * 2)
            picture_samples += _time(partial(draw_panel, shown, 0, "Bartholomew"), runs)
    picture_samples.sort()

    gains_median = statistics.median(gain_samples)
    gains_worst = _percentile(gain_samples, 0.99)
    picture_median = statistics.median(picture_samples)
    picture_p99 = _percentile(picture_samples, 0.99)
    over = gains_median > GAINS_BUDGET_MS or picture_median > PICTURE_MEDIAN_MS
    over |= picture_p99 > PICTURE_P99_MS
    print(f"{'measure':48} {'median ms':>10} {'p99/max ms':>11} {'budget':>8}")
    print(
        f"{'score change of every option of one pair':48} {gains_median:10.1f} "
        f"{gains_worst:11.1f} {GAINS_BUDGET_MS:8.0f}   (up to {options} options)"
    )
    print(
        f"{'panel picture, 23-tile environment':48} {picture_median:10.1f} "
        f"{picture_p99:11.1f} {PICTURE_MEDIAN_MS:4.0f}/{PICTURE_P99_MS:.0f}"
    )
    return 1 if over and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
