"""The achievements' picture: every achievement as a badge in a grid of five across, those
earned in colour, the rest grey, each with its short title.

Drawn 720 px wide for a phone's 360-px chat column (two device pixels per CSS pixel): the
titles are set at 24 px, 12 px as the phone shows them, the size the UI font stays legible at,
in up to three lines a badge.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import Habitat, Wildlife
from render import theme
from render.fonts import fit_text, font, text_width, wrap_words
from render.names import draw_line, fit_title
from render.palette import draw_text, new_image

WIDTH = 720
ACROSS = 5
TITLE_HEIGHT = 56
MARGIN = 14
GAP = 8
BADGE_WIDTH = (WIDTH - 2 * MARGIN - (ACROSS - 1) * GAP) // ACROSS
BADGE_HEIGHT = 134
DISC = 18
"""The radius of a badge's disc."""
TEXT_SIZE = 24
LINE_HEIGHT = 26
MAX_LINES = 3
PADDING = 6

COLOURS = (
    theme.GOLD,
    theme.HABITAT_FILL[Habitat.FOREST],
    theme.HABITAT_FILL[Habitat.RIVER],
    theme.TOKEN_FILL[Wildlife.FOX],
    theme.TOKEN_FILL[Wildlife.SALMON],
)
"""The discs of earned badges, one colour a column, so that neighbours differ."""


def wrap(title: str, width: int, size: int = TEXT_SIZE) -> list[str]:
    """``title`` in lines of at most ``width`` pixels at ``size``, broken between words (a
    word wider than the line stands alone)."""
    return wrap_words(title, width, size)


def _fitting(title: str, width: int) -> tuple[list[str], int]:
    """The lines of ``title`` and the size they are set at: :data:`TEXT_SIZE`, smaller only
    if a title needs more than :data:`MAX_LINES` lines or has a word too wide."""
    size = TEXT_SIZE
    while size > TEXT_SIZE // 2:
        lines = wrap(title, width, size)
        if len(lines) <= MAX_LINES and all(text_width(line, size) <= width for line in lines):
            return lines, size
        size -= 2
    # A word too wide even then (a long compound word, in German) is broken with a hyphen.
    words = " ".join(piece for word in title.split() for piece in _broken(word, width, size))
    lines = wrap(words, width, size)
    if len(lines) > MAX_LINES:
        lines = [
            *lines[: MAX_LINES - 1],
            fit_text(" ".join(lines[MAX_LINES - 1 :]), size, width, least=size)[0],
        ]
    return lines, size


def _broken(word: str, width: int, size: int) -> list[str]:
    """``word`` in pieces that each fit ``width`` at ``size``, all but the last ending in a
    hyphen (the word whole when it fits)."""
    pieces: list[str] = []
    while text_width(word, size) > width and len(word) > 1:
        fitting = (
            n for n in range(len(word) - 1, 1, -1) if text_width(f"{word[:n]}-", size) <= width
        )
        cut = next(fitting, 1)
        pieces.append(f"{word[:cut]}-")
        word = word[cut:]
    return [*pieces, word]


def height_for(count: int) -> int:
    """The picture's height for ``count`` badges."""
    rows = max(1, -(-count // ACROSS))
    return TITLE_HEIGHT + 2 * MARGIN + rows * BADGE_HEIGHT + (rows - 1) * GAP


def render_badges_image(badges: Sequence[tuple[str, bool]], *, title: str) -> Image.Image:
    """``badges`` (title, earned) in rows of five under ``title``, as a palette image."""
    image = new_image(theme.PALETTE, (WIDTH, height_for(len(badges))), theme.BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, TITLE_HEIGHT - 1), fill=theme.HEADER)
    shown = fit_title(title, 26, WIDTH - 2 * MARGIN, least=18)
    draw_line(image, (MARGIN, TITLE_HEIGHT / 2), shown, theme.TITLE)
    inner = BADGE_WIDTH - 2 * PADDING
    for index, (name, earned) in enumerate(badges):
        row, column = divmod(index, ACROSS)
        x0 = MARGIN + column * (BADGE_WIDTH + GAP)
        y0 = TITLE_HEIGHT + MARGIN + row * (BADGE_HEIGHT + GAP)
        box = (x0, y0, x0 + BADGE_WIDTH - 1, y0 + BADGE_HEIGHT - 1)
        if earned:
            draw.rounded_rectangle(box, radius=10, fill=theme.PANEL)
        else:
            draw.rounded_rectangle(box, radius=10, outline=theme.FRONTIER_EDGE, width=2)
        cx, cy = x0 + BADGE_WIDTH / 2, y0 + PADDING + DISC + 2
        disc = (cx - DISC, cy - DISC, cx + DISC, cy + DISC)
        if earned:
            draw.ellipse(disc, fill=COLOURS[column % len(COLOURS)], outline=theme.WHITE, width=2)
        else:
            draw.ellipse(disc, fill=theme.FRONTIER)
        style = theme.ON_PANEL if earned else theme.BODY_DIM
        lines, size = _fitting(name, inner)
        top = cy + DISC + 8
        for number, line in enumerate(lines):
            y = top + number * LINE_HEIGHT + LINE_HEIGHT / 2
            draw_text(image, (cx, y), line, font(size), style, anchor="mm")
    return image
