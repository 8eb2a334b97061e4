"""The achievements' picture: five badges across, those earned in colour, readable on a
phone, deterministic."""

from __future__ import annotations

import io

from PIL import Image

from render import render_badges, theme
from render.badges import (
    ACROSS,
    BADGE_HEIGHT,
    BADGE_WIDTH,
    COLOURS,
    GAP,
    MARGIN,
    PADDING,
    TITLE_HEIGHT,
    WIDTH,
    height_for,
    render_badges_image,
    wrap,
)
from render.fonts import text_width

TITLES = [f"Badge number {n}" for n in range(25)]


def _disc_colour(image: Image.Image, index: int) -> tuple[int, int, int]:
    row, column = divmod(index, ACROSS)
    x = MARGIN + column * (BADGE_WIDTH + GAP) + BADGE_WIDTH // 2
    y = TITLE_HEIGHT + MARGIN + row * (BADGE_HEIGHT + GAP) + PADDING + 20
    rgb = image.convert("RGB").getpixel((x, y))
    assert isinstance(rgb, tuple)
    return (int(rgb[0]), int(rgb[1]), int(rgb[2]))


def test_earned_badges_are_in_colour_and_the_others_grey() -> None:
    earned = {0, 7, 24}
    image = render_badges_image([(t, i in earned) for i, t in enumerate(TITLES)], title="ada")
    colours = {theme.PALETTE.rgb(c) for c in COLOURS}
    grey = theme.FRONTIER_RGB
    for index in range(len(TITLES)):
        assert (_disc_colour(image, index) in colours) == (index in earned)
        assert (_disc_colour(image, index) == grey) == (index not in earned)


def test_the_grid_is_five_across_and_fits_a_phone_column() -> None:
    image = render_badges_image([(t, False) for t in TITLES], title="ada")
    assert image.size == (WIDTH, height_for(25))
    # Shown 360 px wide, two device pixels to one: the picture stays about square.
    assert 0.9 < image.height / image.width < 1.2
    png = render_badges([(t, True) for t in TITLES], title="ada")
    assert png == render_badges([(t, True) for t in TITLES], title="ada")
    assert Image.open(io.BytesIO(png)).size == (WIDTH, height_for(25))


def test_a_title_wraps_between_words_within_its_badge() -> None:
    width = BADGE_WIDTH - 2 * PADDING
    lines = wrap("10 from every wildlife", width)
    assert " ".join(lines) == "10 from every wildlife"
    assert len(lines) > 1
    assert all(text_width(line, 24) <= width for line in lines)
