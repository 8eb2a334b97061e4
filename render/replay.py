"""The animated replay of a game: one GIF frame per round, every environment at once.

Each frame shows the round and every player's environment after it, side by side as the turn
message lays them out (a 2 x 2 grid for three or four players), each headed by the player's
mark, name and total so far; the tile each player placed that round is ringed. On the last
frame, held :data:`LAST_FRAME_MS`, the winners' headers are gold.

Sizes: every frame is drawn in the one fixed palette of :mod:`render.theme`, so the GIF has
one colour table and no quantisation; each environment keeps its place and scale all game
(fitted to its final tiles), so a frame differs from the one before only where tiles, rings
and scores changed, and Pillow's ``optimize`` stores only those pixels (the rest
transparent). The tiles are drawn once each, onto a canvas per player that the frames copy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageDraw

from engine import TURNS_PER_PLAYER, Environment, Hex, Round
from i18n import _
from render import glyphs, theme
from render.fonts import fit_text, font
from render.layout import Layout, fit, shifted
from render.names import draw_line, fit_name
from render.palette import draw_text, new_image
from render.tiles import draw_tile, hex_points, outline_width

PANEL_WIDTH = 440
PANEL_HEIGHT = 420
PANEL_HEADER = 54
TITLE_HEIGHT = 60
GAP = 10
PAD = 8
"""Room between an environment's tiles and its panel's edges."""
MAX_HEX_SIZE = 40
ROUND_MS = 700
"""How long each round's frame shows."""
LAST_FRAME_MS = 3000
"""How long the last frame (the final position) shows before the replay starts again."""


def grid(players: int) -> tuple[int, int]:
    """Columns and rows of the panels: one row for one or two players, else two by two."""
    return (players, 1) if players <= 2 else (2, 2)


def frame_size(players: int) -> tuple[int, int]:
    """The width and height of every frame for ``players`` players."""
    columns, rows = grid(players)
    return (
        columns * PANEL_WIDTH + (columns + 1) * GAP,
        TITLE_HEIGHT + rows * PANEL_HEIGHT + (rows + 1) * GAP,
    )


def panel_box(players: int, seat: int) -> tuple[int, int, int, int]:
    """The box ``(left, top, right, bottom)`` of seat ``seat``'s panel in every frame, its
    header included: seats fill the grid row by row."""
    columns, _ = grid(players)
    column, row = seat % columns, seat // columns
    left = GAP + column * (PANEL_WIDTH + GAP)
    top = TITLE_HEIGHT + GAP + row * (PANEL_HEIGHT + GAP)
    return (left, top, left + PANEL_WIDTH, top + PANEL_HEIGHT)


@dataclass(frozen=True, slots=True)
class _Panel:
    """Where one player's panel goes in the frame and how its environment is laid out."""

    left: int
    top: int
    layout: Layout
    """In the coordinates of the panel's body, under its header."""

    @property
    def body(self) -> tuple[int, int]:
        """The top-left corner of the panel's body in the frame."""
        return (self.left, self.top + PANEL_HEADER)


def _panels(final: Sequence[Environment]) -> list[_Panel]:
    body_width, body_height = PANEL_WIDTH, PANEL_HEIGHT - PANEL_HEADER
    panels = []
    for seat, env in enumerate(final):
        left, top, _, _ = panel_box(len(final), seat)
        room_w, room_h = body_width - 2 * PAD, body_height - 2 * PAD
        layout, _, _ = fit(env, width=room_w, height=room_h, max_size=MAX_HEX_SIZE)
        # Whole-pixel hexes keep the habitat sprites and the outlines in step.
        size = max(4, math.floor(layout.size))
        layout, used_w, used_h = fit(env, width=room_w, height=room_h, max_size=size)
        layout = shifted(layout, (body_width - used_w) / 2, (body_height - used_h) / 2)
        panels.append(_Panel(left, top, layout))
    return panels


def _update(canvas: Image.Image, layout: Layout, before: Environment, after: Environment) -> None:
    """Draw on ``canvas`` every tile of ``after`` that is new or changed since ``before``."""
    size = round(layout.size)
    for hex_ in sorted(after):
        placed = after[hex_]
        if before.get(hex_) == placed:
            continue
        cx, cy = layout.pixel_center(hex_)
        draw_tile(canvas, cx, cy, size, placed.tile, placed.rotation, placed.token)


def _ring(draw: ImageDraw.ImageDraw, panel: _Panel, hex_: Hex) -> None:
    size = round(panel.layout.size)
    cx, cy = panel.layout.pixel_center(hex_)
    cx, cy = cx + panel.body[0], cy + panel.body[1]
    ring = max(3, round(size / 9))
    draw.polygon(hex_points(cx, cy, size - ring / 2 + 1), outline=theme.HIGHLIGHT, width=ring)
    draw.polygon(hex_points(cx, cy, size + 1), outline=theme.INK, width=outline_width(size))


def _title(played: Round, last: bool) -> str:
    """The frame's title in the reader's language."""
    number, rounds = played.number, TURNS_PER_PLAYER
    if last and played.state.is_over:
        if len(played.sheet.players) == 1:
            return _("Final score after round {round}", round=number)
        return _("Final scores after round {round}", round=number)
    if last:
        return _("Round {round} of {rounds}, when the game was ended", round=number, rounds=rounds)
    return _("Round {round} of {rounds}", round=number, rounds=rounds)


def _header(
    image: Image.Image, panel: _Panel, seat: int, name: str, total: int, *, won: bool
) -> None:
    draw = ImageDraw.Draw(image)
    background = theme.WIN_C if won else theme.HEADER
    style = theme.ON_ROW[background]
    right = panel.left + PANEL_WIDTH
    draw.rectangle(
        (panel.left, panel.top, right - 1, panel.top + PANEL_HEADER - 1), fill=background
    )
    middle = panel.top + PANEL_HEADER / 2
    colour = theme.PLAYER[seat % len(theme.PLAYER)]
    glyphs.draw_player_mark(draw, seat, panel.left + 24, middle, 13, colour)
    score = draw_text(image, (right - 12, middle), str(total), font(34), style, anchor="rm")
    name_left = panel.left + 46
    line = fit_name(name, 28, score[0] - 14 - name_left)
    draw_line(image, (name_left, middle), line, style)


def replay_frames(rounds: Sequence[Round]) -> list[Image.Image]:
    """One palette image per round of ``rounds`` (one game's, in order)."""
    if not rounds:
        return []
    final = [seat.environment for seat in rounds[-1].state.seats]
    players = len(final)
    panels = _panels(final)
    body = (PANEL_WIDTH, PANEL_HEIGHT - PANEL_HEADER)
    canvases = [new_image(theme.PALETTE, body, theme.BG) for _ in panels]
    shown = [Environment({}) for _ in panels]
    winners = set(rounds[-1].sheet.winners) if players > 1 and rounds[-1].state.is_over else set()
    frames = []
    for index, played in enumerate(rounds):
        last = index == len(rounds) - 1
        frame = new_image(theme.PALETTE, frame_size(players), theme.BG)
        draw = ImageDraw.Draw(frame)
        draw.rectangle((0, 0, frame.width, TITLE_HEIGHT - 1), fill=theme.HEADER)
        title, size = fit_text(_title(played, last), 32, frame.width - 2 * (GAP + 4), least=16)
        draw_text(frame, (GAP + 4, TITLE_HEIGHT / 2), title, font(size), theme.TITLE, anchor="lm")
        for seat, (panel, canvas) in enumerate(zip(panels, canvases, strict=True)):
            env = played.state.seats[seat].environment
            _update(canvas, panel.layout, shown[seat], env)
            shown[seat] = env
            frame.paste(canvas, panel.body)
            score = played.sheet.players[seat]
            _header(frame, panel, seat, score.name, score.total, won=last and score.name in winners)
            placed = played.placed[seat]
            if placed is not None:
                _ring(draw, panel, placed)
        frames.append(frame)
    return frames


def encode_gif(frames: Sequence[Image.Image]) -> bytes:
    """``frames`` as a looping GIF: :data:`ROUND_MS` each, the last :data:`LAST_FRAME_MS`;
    only what changed from one frame to the next is stored."""
    buffer = BytesIO()
    # Each frame shows its own round number, so none equals the one before and Pillow merges
    # none of them: one frame per round.
    durations = [ROUND_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    frames[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=list(frames[1:]),
        duration=durations,
        loop=0,
        disposal=1,
        optimize=True,
    )
    return buffer.getvalue()
