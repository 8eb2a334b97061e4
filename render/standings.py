"""The standings' small picture: a member's scores over time, one bar a game, oldest left.

Phone-sized (640 x 220) in the project's palette: the best game's bar in gold, the average as
a dim line across, the lowest and highest score written at the axis.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import theme
from render.fonts import font
from render.names import draw_line, fit_title
from render.palette import draw_text, new_image

WIDTH = 640
HEIGHT = 220
TITLE_HEIGHT = 44
MARGIN = 14
AXIS = 44
AXIS_SIZE = 18
MAX_BARS = 60
"""The latest games shown; older ones are left out of the picture (not of the figures)."""


def render_history_image(scores: Sequence[int], *, title: str) -> Image.Image:
    """The bars of ``scores`` (oldest first; the latest :data:`MAX_BARS`) as a palette image;
    with no score, the title alone."""
    image = new_image(theme.PALETTE, (WIDTH, HEIGHT), theme.BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, TITLE_HEIGHT - 1), fill=theme.HEADER)
    heading = fit_title(title, 22, WIDTH - 2 * MARGIN, least=16)
    draw_line(image, (MARGIN, TITLE_HEIGHT / 2), heading, theme.TITLE)
    shown = list(scores)[-MAX_BARS:]
    if not shown:
        return image
    left, right = MARGIN + AXIS, WIDTH - MARGIN
    top, bottom = TITLE_HEIGHT + 14, HEIGHT - MARGIN
    ceiling = max(max(shown), 1)
    pitch = (right - left) / len(shown)
    gap = max(1, round(pitch / 5))
    best = shown.index(max(shown))

    def y_of(points: float) -> int:
        return round(bottom - points * (bottom - top) / ceiling)

    draw.line((left, bottom, right, bottom), fill=theme.DIM, width=2)
    for index, points in enumerate(shown):
        x0 = round(left + index * pitch)
        x1 = max(x0, round(left + (index + 1) * pitch) - gap)
        colour = theme.GOLD if index == best else theme.PLAYER[0]
        draw.rectangle((x0, y_of(points), x1, bottom - 1), fill=colour)
    average = sum(shown) / len(shown)
    draw.line((left, y_of(average), right, y_of(average)), fill=theme.DIM, width=2)
    for points in sorted({min(shown), max(shown)}):
        draw_text(
            image,
            (left - 8, y_of(points)),
            str(points),
            font(AXIS_SIZE),
            theme.BODY_DIM,
            anchor="rm",
        )
    return image
