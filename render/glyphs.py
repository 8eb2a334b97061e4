"""Drawn symbols: habitat fills with patterns, wildlife glyphs, the keystone star, icons.

Every habitat has a pattern as well as a colour (mountain peaks, forest trees, prairie
grain, wetland reeds, river waves) and every species a silhouette (round-eared bear head,
antlered elk, fish, spread-winged hawk, pointed fox head), so tiles read without colour.
Shapes are given in unit coordinates (a circle of radius 1) and scaled when drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Habitat, Wildlife
from render import theme
from render.layout import SQRT3, half_corners
from render.palette import new_image

UnitShape = tuple[tuple[float, float], ...]


def _mirror(right: UnitShape) -> UnitShape:
    """A left-right symmetric outline from its right half, listed top to bottom."""
    left = tuple((-x, y) for x, y in reversed(right) if x != 0)
    return right + left


_FOX: UnitShape = _mirror(
    ((0.0, -0.34), (0.3, -0.36), (0.72, -0.8), (0.68, -0.18), (0.78, 0.06), (0.0, 0.78))
)
_HAWK: UnitShape = _mirror(
    (
        (0.0, -0.62),
        (0.13, -0.5),
        (0.16, -0.28),
        (0.58, -0.4),
        (0.96, -0.3),
        (0.62, -0.06),
        (0.18, 0.1),
        (0.3, 0.62),
        (0.0, 0.52),
    )
)
_SALMON_TAIL: UnitShape = ((0.22, 0.0), (0.84, -0.44), (0.68, 0.0), (0.84, 0.44))
_SALMON_FIN: UnitShape = ((-0.22, -0.26), (0.0, -0.52), (0.12, -0.22))
_ELK_HEAD: UnitShape = _mirror(
    ((0.0, -0.22), (0.2, -0.2), (0.5, -0.1), (0.2, 0.06), (0.12, 0.58), (0.0, 0.72))
)
_ELK_ANTLER: tuple[UnitShape, ...] = (
    ((0.12, -0.18), (0.42, -0.44), (0.6, -0.86)),
    ((0.42, -0.44), (0.26, -0.8)),
    ((0.5, -0.6), (0.86, -0.62)),
)
_STAR: UnitShape = tuple(
    (
        (1.0 if k % 2 == 0 else 0.45) * math.sin(math.radians(36 * k)),
        -(1.0 if k % 2 == 0 else 0.45) * math.cos(math.radians(36 * k)),
    )
    for k in range(10)
)


def _scaled(shape: UnitShape, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + x * r, cy + y * r) for x, y in shape]


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: int) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def draw_wildlife(
    draw: ImageDraw.ImageDraw,
    wildlife: Wildlife,
    cx: float,
    cy: float,
    r: float,
    fill: int,
    *,
    hole: int,
) -> None:
    """The silhouette of ``wildlife`` in colour ``fill``, filling a circle of radius ``r``;
    ``hole`` is the colour behind it (for eyes)."""
    if wildlife is Wildlife.BEAR:
        _circle(draw, cx - 0.5 * r, cy - 0.46 * r, 0.27 * r, fill)
        _circle(draw, cx + 0.5 * r, cy - 0.46 * r, 0.27 * r, fill)
        _circle(draw, cx, cy + 0.1 * r, 0.62 * r, fill)
        if r >= 9:
            draw.ellipse((cx - 0.26 * r, cy + 0.16 * r, cx + 0.26 * r, cy + 0.52 * r), fill=hole)
            _circle(draw, cx, cy + 0.26 * r, 0.1 * r, fill)
    elif wildlife is Wildlife.ELK:
        width = max(2, round(0.14 * r))
        for side in (1.0, -1.0):
            for line in _ELK_ANTLER:
                draw.line(
                    [(cx + side * x * r, cy + y * r) for x, y in line],
                    fill=fill,
                    width=width,
                    joint="curve",
                )
        draw.polygon(_scaled(_ELK_HEAD, cx, cy, r), fill=fill)
    elif wildlife is Wildlife.SALMON:
        draw.ellipse((cx - 0.82 * r, cy - 0.34 * r, cx + 0.38 * r, cy + 0.34 * r), fill=fill)
        draw.polygon(_scaled(_SALMON_TAIL, cx, cy, r), fill=fill)
        draw.polygon(_scaled(_SALMON_FIN, cx, cy, r), fill=fill)
        if r >= 8:
            _circle(draw, cx - 0.5 * r, cy - 0.06 * r, max(1.0, 0.08 * r), hole)
    elif wildlife is Wildlife.HAWK:
        draw.polygon(_scaled(_HAWK, cx, cy, r), fill=fill)
    else:
        draw.polygon(_scaled(_FOX, cx, cy, r), fill=fill)
        if r >= 9:
            for side in (-1.0, 1.0):
                _circle(draw, cx + side * 0.26 * r, cy + 0.02 * r, max(1.0, 0.08 * r), hole)


def draw_token(
    draw: ImageDraw.ImageDraw, wildlife: Wildlife, cx: float, cy: float, r: float
) -> None:
    """A placed (or offered) wildlife token: a disc in the species' colour with its glyph."""
    ring = max(2.0, r * 0.09)
    _circle(draw, cx, cy, r, theme.INK)
    _circle(draw, cx, cy, r - ring, theme.CREAM)
    _circle(draw, cx, cy, r - 2 * ring, theme.TOKEN_FILL[wildlife])
    fill = theme.TOKEN_FILL[wildlife]
    draw_wildlife(
        draw, wildlife, cx, cy, (r - 2 * ring) * 0.78, theme.TOKEN_GLYPH[wildlife], hole=fill
    )


def draw_option(
    draw: ImageDraw.ImageDraw, wildlife: Wildlife, cx: float, cy: float, r: float
) -> None:
    """A small "may hold" icon for an empty tile: the glyph on a cream disc."""
    _circle(draw, cx, cy, r, theme.INK)
    _circle(draw, cx, cy, r - max(1.0, r * 0.1), theme.CREAM)
    draw_wildlife(draw, wildlife, cx, cy, r * 0.74, theme.OPTION_GLYPH[wildlife], hole=theme.CREAM)


def draw_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The keystone mark: a gold five-pointed star on an ink badge (it shows on any
    habitat, prairie gold included)."""
    _circle(draw, cx, cy, r * 1.08, theme.INK)
    draw.polygon(_scaled(_STAR, cx, cy + 0.06 * r, r * 0.92), fill=theme.GOLD)


def draw_pinecone(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A nature token: a pine cone."""
    draw.ellipse(
        (cx - 0.62 * r, cy - 0.92 * r, cx + 0.62 * r, cy + 0.92 * r),
        fill=theme.CONE,
        outline=theme.INK,
        width=max(1, round(r * 0.1)),
    )
    width = max(1, round(r * 0.12))
    for k in (-0.45, 0.0, 0.45):
        y = cy + k * r
        draw.line(
            [(cx - 0.45 * r, y - 0.2 * r), (cx, y + 0.12 * r), (cx + 0.45 * r, y - 0.2 * r)],
            fill=theme.CONE_DARK,
            width=width,
        )


# --- habitats ----------------------------------------------------------------------------


def sprite_box(size: int) -> tuple[int, int]:
    """The width and height of the square-ish sprite that holds one hex of ``size``."""
    return (math.ceil(SQRT3 * size) + 4, 2 * size + 4)


def _hex_points(size: int, cx: float, cy: float) -> list[tuple[float, float]]:
    return [
        (
            cx + size * math.cos(math.radians(60 * k - 30)),
            cy - size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _motif_centres(width: int, height: int, step: float) -> list[tuple[float, float]]:
    # A staggered lattice anchored on the sprite centre, so every tile looks alike.
    cx, cy = width / 2, height / 2
    rows = int(height / (step * 0.8)) // 2 + 1
    cols = int(width / step) // 2 + 2
    centres = []
    for row in range(-rows, rows + 1):
        offset = step / 2 if row % 2 else 0.0
        for col in range(-cols, cols + 1):
            centres.append((cx + col * step + offset, cy + row * step * 0.8))
    return centres


def _draw_pattern(
    draw: ImageDraw.ImageDraw, habitat: Habitat, width: int, height: int, size: int
) -> None:
    ink = theme.HABITAT_PATTERN[habitat]
    line = max(1, round(size / 22))
    if habitat is Habitat.RIVER:
        step = max(6.0, size * 0.3)
        amp = step * 0.22
        wave = step * 1.3
        cy = height / 2
        rows = int(height / step) // 2 + 1
        for row in range(-rows, rows + 1):
            y0 = cy + row * step + step / 2
            points = [
                (float(x), y0 + amp * math.sin(2 * math.pi * x / wave))
                for x in range(0, width + 2, 2)
            ]
            draw.line(points, fill=ink, width=line)
        return
    step = max(7.0, size * 0.36)
    m = step * 0.28
    for x, y in _motif_centres(width, height, step):
        if habitat is Habitat.MOUNTAIN:
            draw.line(
                [(x - m, y + m * 0.6), (x, y - m * 0.6), (x + m, y + m * 0.6)], fill=ink, width=line
            )
        elif habitat is Habitat.FOREST:
            draw.polygon(
                [(x, y - m), (x + m * 0.75, y + m * 0.7), (x - m * 0.75, y + m * 0.7)], fill=ink
            )
        elif habitat is Habitat.PRAIRIE:
            r = max(1.0, m * 0.32)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
        else:
            # Cattails: a stem with a seed head, over a ripple of water.
            draw.line([(x - m, y + m * 0.55), (x + m, y + m * 0.55)], fill=ink, width=line)
            draw.line([(x, y + m * 0.55), (x, y - m * 0.9)], fill=ink, width=line)
            head = max(1.0, m * 0.24)
            draw.ellipse((x - head, y - m * 0.75, x + head, y), fill=ink)


@lru_cache(maxsize=64)
def habitat_sprite(habitat: Habitat, size: int) -> Image.Image:
    """A rectangle of ``habitat``'s colour and pattern big enough for one hex of ``size``,
    the hex centre at the middle (cached per size)."""
    width, height = sprite_box(size)
    image = new_image(theme.PALETTE, (width, height), theme.HABITAT_FILL[habitat])
    _draw_pattern(ImageDraw.Draw(image), habitat, width, height, size)
    return image


@lru_cache(maxsize=64)
def hex_mask(size: int, rotation: int | None = None) -> Image.Image:
    """A hard-edged mask of a whole hex of ``size`` (``rotation`` None), or of the half
    of it showing the first habitat of a two-habitat tile placed with ``rotation``."""
    width, height = sprite_box(size)
    mask = Image.new("L", (width, height), 0)
    points = _hex_points(size, width // 2, height // 2)
    if rotation is not None:
        points = [points[k] for k in half_corners(rotation)]
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return mask


def paste_habitats(
    image: Image.Image, habitats: Sequence[Habitat], rotation: int, cx: int, cy: int, size: int
) -> None:
    """Fill the hex of ``size`` centred at ``(cx, cy)`` with one habitat, or split corner
    to corner between two (the first on edges ``rotation`` .. ``rotation + 2``)."""
    width, height = sprite_box(size)
    corner = (cx - width // 2, cy - height // 2)
    image.paste(habitat_sprite(habitats[-1], size), corner, hex_mask(size))
    if len(habitats) == 2:
        image.paste(habitat_sprite(habitats[0], size), corner, hex_mask(size, rotation % 6))


_PLAYER_MARKS: tuple[UnitShape, ...] = (
    tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 30)),
    ((-0.82, -0.82), (0.82, -0.82), (0.82, 0.82), (-0.82, 0.82)),
    ((0.0, -1.0), (0.95, 0.72), (-0.95, 0.72)),
    ((0.0, -1.05), (1.05, 0.0), (0.0, 1.05), (-1.05, 0.0)),
)


def draw_player_mark(
    draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float, fill: int
) -> None:
    """Seat ``seat``'s mark, so seats differ in shape as well as colour: a disc, a square, a
    triangle and a diamond, outlined in ink."""
    outline = max(1, round(r / 5))
    draw.polygon(
        _scaled(_PLAYER_MARKS[seat % len(_PLAYER_MARKS)], cx, cy, r),
        fill=fill,
        outline=theme.INK,
        width=outline,
    )
