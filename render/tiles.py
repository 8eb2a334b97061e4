"""One habitat tile drawn in a hex: habitats, the wildlife it may hold or its token, keystone."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import Hex, Tile, Wildlife
from render import glyphs, theme
from render.layout import Layout

_ORIGIN = Hex(0, 0)

# Where the "may hold" icons sit (in hex sizes from the middle of the group) and their
# radius, by how many species the tile shows.
_OPTION_SPOTS: dict[int, tuple[float, tuple[tuple[float, float], ...]]] = {
    1: (0.3, ((0.0, 0.0),)),
    2: (0.25, ((-0.27, 0.0), (0.27, 0.0))),
    3: (0.22, ((0.0, -0.25), (-0.255, 0.19), (0.255, 0.19))),
}
_TOKEN_RADIUS = 0.44
_STAR_RADIUS = 0.17
_TOP_ROOM = 0.8
"""How far above the centre (in hex sizes) icons may reach and stay inside the hex."""


def outline_width(size: float) -> int:
    """The width of a hex's outline at hex ``size``."""
    return max(1, round(size / 26))


def hex_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a hex of ``size`` centred at ``(cx, cy)``, corner k first on edge k."""
    return Layout(size, cx, cy).corners(_ORIGIN)


def _extent(tile: Tile, token: Wildlife | None) -> tuple[float, float]:
    """How far the icons reach above and below their middle, in hex sizes."""
    if token is not None:
        return (_TOKEN_RADIUS, _TOKEN_RADIUS)
    radius, spots = _OPTION_SPOTS[len(tile.wildlife)]
    above = max(-dy for _, dy in spots) + radius
    below = max(dy for _, dy in spots) + radius
    if tile.keystone:
        above = max(above, radius + 0.1 + 2 * _STAR_RADIUS)
    return (above, below)


def draw_tile(
    image: Image.Image,
    cx: int,
    cy: int,
    size: int,
    tile: Tile,
    rotation: int,
    token: Wildlife | None,
    *,
    label_top: float | None = None,
    icon_scale: float = 1.0,
) -> None:
    """Draw ``tile`` placed with ``rotation`` in the hex of ``size`` centred at ``(cx, cy)``:
    its habitats, then its token, or if it has none the species it may hold; keystones get
    a star. With ``label_top`` (a pixel row) the icons stay above it, shrunk if needed;
    ``icon_scale`` enlarges them where there is no label."""
    glyphs.paste_habitats(image, tile.habitats, rotation, cx, cy, size)
    draw = ImageDraw.Draw(image)
    draw.polygon(hex_points(cx, cy, size), outline=theme.INK, width=outline_width(size))
    above, below = _extent(tile, token)
    above, below = above * icon_scale, below * icon_scale
    scale = icon_scale
    middle = cy + (above - below) / 2 * size
    if label_top is not None:
        bottom = (label_top - cy) / size - 0.03
        shrink = min(1.0, (bottom + _TOP_ROOM) / (above + below))
        scale *= shrink
        middle = cy + (bottom - below * shrink) * size
    unit = size * scale
    if token is not None:
        glyphs.draw_token(draw, token, cx, middle, _TOKEN_RADIUS * unit)
        if tile.keystone:
            glyphs.draw_star(draw, cx + 0.44 * unit, middle - 0.36 * unit, _STAR_RADIUS * unit)
        return
    radius, spots = _OPTION_SPOTS[len(tile.wildlife)]
    for wildlife, (dx, dy) in zip(tile.wildlife, spots, strict=False):
        glyphs.draw_option(draw, wildlife, cx + dx * unit, middle + dy * unit, radius * unit)
    if tile.keystone:
        star_y = middle - (radius + 0.1 + _STAR_RADIUS) * unit
        glyphs.draw_star(draw, cx, star_y, _STAR_RADIUS * unit)


def draw_empty_slot(image: Image.Image, cx: int, cy: int, size: int) -> None:
    """An empty hex (a taken display tile or a place a tile may go)."""
    draw = ImageDraw.Draw(image)
    draw.polygon(
        hex_points(cx, cy, size),
        fill=theme.FRONTIER,
        outline=theme.FRONTIER_EDGE,
        width=outline_width(size),
    )
