"""Draw ``docs/panel.png``, the player's guide's picture of the turn panel, as the bot draws it.

Run from the repository root: ``python docs/panel_picture.py`` writes the picture and prints
what the panel says beside it (its caption in ``docs/playing.md`` quotes it). The position is
a seeded solo game after a few turns of the ``fast`` player, stopped at the Turn step of the
best place for the first two-habitat tile of the display, so the picture is the same on every
run.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Run as a file, this file's folder comes first on the path and would hide the packages.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bot.panel.draft import Draft, Offer, Press, Step, Verb
from bot.panel.service import draw_panel
from bot.panel.steps import advance, offer
from engine import GameState, apply, choose, new_game

PICTURE = Path(__file__).resolve().parent / "panel.png"
"""Where the picture goes."""
NAME = "Ada"
"""The player the picture is headed with."""
SEED = 3
TURNS = 8


def position() -> GameState:
    """The game the picture shows: solo, seeded, after :data:`TURNS` turns of ``fast``."""
    state = new_game(players=1, seed=SEED, cards="A")
    for _ in range(TURNS):
        for action in choose(state, "fast", seed=SEED):
            state = apply(state, action)
    return state


def turn_step() -> Offer:
    """The panel at its Turn step: the first two-habitat tile of the display at its best
    place, turned once to the left."""
    state = position()
    slot = next(
        slot
        for slot, tile in enumerate(state.display_tiles, start=1)
        if tile is not None and len(tile.rotations) > 1
    )
    draft = advance(state, Draft(), Press(Verb.PAIR, (str(slot),)))
    best = offer(state, draft).selects[0].options[0].value
    draft = advance(state, draft, Press(Verb.WHERE, (best,)))
    draft = advance(state, draft, Press(Verb.LEFT))
    shown = offer(state, draft)
    if shown.step is not Step.TURN:
        raise RuntimeError(f"the panel is at the {shown.step} step, not the Turn step")
    return shown


def draw() -> tuple[bytes, Offer]:
    """The picture and the step it shows."""
    shown = turn_step()
    return draw_panel(shown, 0, NAME), shown


def main() -> int:
    """Write the picture; print the panel's text."""
    picture, shown = draw()
    PICTURE.write_bytes(picture)
    print(f"wrote {PICTURE} ({len(picture)} bytes)")
    print(shown.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
