"""How tall a turn message's pictures stand on a phone, and how large their hexes show.

Run from the repository root: ``PYTHONPATH=. python benchmarks/turn_message_height.py`` or
``python -m benchmarks.turn_message_height`` (``--check`` exits 1 when a target is missed;
``--seeds N`` sets the number of games per player count).

For 2, 3 and 4 players, games of random people-like moves (whose environments sprawl) are
stopped at the start, half way and in the last round, and games of the ``fast`` computer
player (whose environments are compact) at their end; for each, the turn message's pictures drawn
two ways: **before**, the display and every environment as they were
still draws them (seat order, each with its empty places, one hex size); **after**, as
:func:`bot.game.outbox.render_pictures` draws a turn message (the mover's board first, the
boards in one frame). Each is measured in a chat column :data:`~render.mosaic.PHONE_COLUMN`
px wide:

- *mosaic*: the height Discord's mosaic takes (:mod:`render.mosaic`: the display and the
  mover's board over the three others for four players, 2 x 2 for three, one large beside
  two small for two);
- *stacked*: each picture at the column's width, one under the other (how the issue
  measured 1,730 px for four players);
- the hex size (centre to corner, CSS px) the mover's board and the smallest other board
  show at in the mosaic.

Targets, for the after: four players' mosaic <= 900 px, every board's hexes >=
:data:`~render.mosaic.MIN_SHOWN_HEX` px.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from PIL import Image

from benchmarks import positions
from bot.game.outbox import Announcement, Picture, render_pictures
from engine import TURNS_PER_PLAYER, GameState, new_game, score_state
from engine.players import play_game
from render import environment_scale, render_display, render_environment, turn_frame
from render.mosaic import MIN_SHOWN_HEX, PHONE_COLUMN, shown_height, shown_scales

MAX_FOUR_PLAYER_HEIGHT = 900.0
STAGES = ("start", "half way", "last round", "computers")


@dataclass(frozen=True)
class Shown:
    """A turn message's pictures as a phone shows them."""

    mosaic: float
    stacked: float
    mover_hex: float
    smallest_hex: float


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def _stacked(sizes: list[tuple[int, int]]) -> float:
    return sum(h * min(1.0, PHONE_COLUMN / w) for w, h in sizes)


def _shown(sizes: list[tuple[int, int]], hexes: list[int]) -> Shown:
    scales = shown_scales(sizes)
    shown = [scale * size for scale, size in zip(scales[1:], hexes, strict=True)]
    return Shown(shown_height(sizes), _stacked(sizes), shown[0], min(shown))


def before(state: GameState, mover: int) -> Shown:
    """The pictures drawn as before: seat order, every environment with its empty places."""
    scale = environment_scale(state)
    sheet = score_state(state)
    sizes = [_size(render_display(state))]
    for seat, score in enumerate(sheet.players):
        picture = render_environment(
            state, seat, name=positions.NAMES[seat], score=score.total, hex_size=scale
        )
        sizes.append(_size(picture))
    hexes = [scale] * len(state.seats)
    # The mover's picture is the one in the mover's seat's cell.
    hexes[0], hexes[mover] = hexes[mover], hexes[0]
    return _shown(sizes, hexes)


def after(state: GameState, mover: int) -> Shown:
    """The pictures as a turn message draws them now."""
    announcement = Announcement(
        kind="turn",
        text="",
        pictures=(Picture.DISPLAY, Picture.ENVIRONMENTS),
        state=state,
        names=positions.NAMES[: len(state.seats)],
        mover=mover,
    )
    sizes = [_size(f.data) for f in render_pictures(announcement)]
    return _shown(sizes, [turn_frame(state).hex_size] * len(state.seats))


def stage(players: int, seed: int, which: str) -> tuple[GameState, int]:
    """A seeded game of ``players`` at ``which`` stage, and the seat that just moved."""
    if which == "computers":
        game = play_game(players=players, seed=seed, cards="random", policies=["fast"] * players)
        return game.state, players - 1
    state = new_game(players=players, seed=seed)
    turns = {"start": 0, "half way": players * TURNS_PER_PLAYER // 2}
    played = turns.get(which, players * (TURNS_PER_PLAYER - 1))
    if played:
        state = positions.play(state, seed, turns=played)
    return state, (state.current - 1) % players


def main(argv: list[str] | None = None) -> int:
    """Measure, print the figures, and with ``--check`` exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    print(f"Turn message pictures in a {PHONE_COLUMN}-px column ({args.seeds} games each)")
    print(
        f"{'players':>7}  {'stage':<10}  {'':6}  {'mosaic px':>9}  {'stacked px':>10}"
        f"  {'mover hex':>9}  {'smallest hex':>12}"
    )
    ok = True
    for players in (2, 3, 4):
        for which in STAGES:
            games = [stage(players, 100 + seed, which) for seed in range(args.seeds)]
            for label, measure in (("before", before), ("after", after)):
                shown = [measure(state, mover) for state, mover in games]
                tallest = max(s.mosaic for s in shown)
                print(
                    f"{players:>7}  {which:<10}  {label:<6}  {tallest:>9.0f}"
                    f"  {max(s.stacked for s in shown):>10.0f}"
                    f"  {min(s.mover_hex for s in shown):>9.1f}"
                    f"  {min(s.smallest_hex for s in shown):>12.1f}"
                )
                if label == "after":
                    ok &= min(s.smallest_hex for s in shown) >= MIN_SHOWN_HEX
                    ok &= players != 4 or tallest <= MAX_FOUR_PLAYER_HEIGHT
    print("(heights: the tallest of the games; hexes: the smallest, centre to corner, CSS px)")
    print("targets met" if ok else "a target was missed")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
