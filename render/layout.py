"""Hex <-> pixel geometry for pointy-top hexes, and fitting a set of hexes into a box.

Pure arithmetic, no drawing: :class:`Layout` turns an engine :class:`~engine.Hex` into pixel
positions (``r`` grows downwards; direction ``d`` points at ``60 * d`` degrees
anticlockwise from east, so E, NE, NW, W, SW, SE as the engine numbers them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine import Hex

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""``(left, top, right, bottom)`` in pixels."""


def _corner_offsets(size: float) -> tuple[Point, ...]:
    # Corner k sits between edge k-1 and edge k, at 60k - 30 degrees (y up), so edge d
    # runs from corner d to corner d + 1.
    return tuple(
        (size * math.cos(math.radians(60 * k - 30)), -size * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    )


@dataclass(frozen=True, slots=True)
class Layout:
    """Pointy-top hexes of ``size`` pixels (centre to corner), ``Hex(0, 0)`` centred at
    ``(origin_x, origin_y)``."""

    size: float
    origin_x: float = 0.0
    origin_y: float = 0.0

    @property
    def width(self) -> float:
        """The width of one hex (flat side to flat side)."""
        return SQRT3 * self.size

    @property
    def height(self) -> float:
        """The height of one hex (point to point)."""
        return 2.0 * self.size

    def center(self, hex_: Hex) -> Point:
        """The pixel centre of ``hex_``."""
        x = self.size * SQRT3 * (hex_.q + hex_.r / 2.0)
        y = self.size * 1.5 * hex_.r
        return (self.origin_x + x, self.origin_y + y)

    def pixel_center(self, hex_: Hex) -> tuple[int, int]:
        """The centre of ``hex_`` rounded to a whole pixel (where it is drawn)."""
        x, y = self.center(hex_)
        return (round(x), round(y))

    def corners(self, hex_: Hex, *, inset: float = 0.0) -> list[Point]:
        """The six corners of ``hex_`` (corner k starts edge k), ``inset`` pixels inwards,
        around its drawn (whole-pixel) centre."""
        cx, cy = self.pixel_center(hex_)
        return [(cx + dx, cy + dy) for dx, dy in _corner_offsets(self.size - inset)]

    def edge_midpoint(self, hex_: Hex, direction: int) -> Point:
        """The middle of the edge ``hex_`` shares with its neighbour in ``direction``."""
        cx, cy = self.pixel_center(hex_)
        angle = math.radians(60 * direction)
        reach = self.size * SQRT3 / 2.0
        return (cx + reach * math.cos(angle), cy - reach * math.sin(angle))

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex whose area contains the pixel ``(x, y)``."""
        px = (x - self.origin_x) / self.size
        py = (y - self.origin_y) / self.size
        fq = SQRT3 / 3.0 * px - py / 3.0
        fr = 2.0 / 3.0 * py
        return _round_hex(fq, fr)

    def bounds(self, hexes: Iterable[Hex]) -> Box:
        """The smallest box holding every hex of ``hexes`` whole."""
        centers = [self.center(h) for h in hexes]
        if not centers:
            return (self.origin_x, self.origin_y, self.origin_x, self.origin_y)
        half_w = self.width / 2.0
        return (
            min(x for x, _ in centers) - half_w,
            min(y for _, y in centers) - self.size,
            max(x for x, _ in centers) + half_w,
            max(y for _, y in centers) + self.size,
        )


def half_corners(rotation: int) -> tuple[int, int, int, int]:
    """The corners bounding the first habitat of a two-habitat tile placed with
    ``rotation``: it covers edges ``rotation`` .. ``rotation + 2``."""
    return (rotation % 6, (rotation + 1) % 6, (rotation + 2) % 6, (rotation + 3) % 6)


def hex_contains(center: Point, size: float, point: Point) -> bool:
    """Whether ``point`` lies inside (or on) the pointy-top hex of ``size`` at ``center``."""
    dx = abs(point[0] - center[0])
    dy = abs(point[1] - center[1])
    half_w = size * SQRT3 / 2.0
    if dx > half_w + 1e-9 or dy > size + 1e-9:
        return False
    # Above the vertical sides the hex narrows linearly to its point.
    return dy <= size - dx / SQRT3 + 1e-9


def _round_hex(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def fit(
    hexes: Iterable[Hex],
    *,
    width: float,
    height: float,
    max_size: float,
) -> tuple[Layout, float, float]:
    """The largest layout (hex size at most ``max_size``) that fits ``hexes`` in a
    ``width`` x ``height`` box, placed with the hexes' top-left at ``(0, 0)``; also the
    width and height the hexes then take."""
    unit = Layout(1.0)
    cells = list(hexes)
    left, top, right, bottom = unit.bounds(cells)
    span_w, span_h = max(right - left, 1e-9), max(bottom - top, 1e-9)
    size = min(max_size, width / span_w, height / span_h)
    layout = Layout(size, -left * size, -top * size)
    return layout, span_w * size, span_h * size


def shifted(layout: Layout, dx: float, dy: float) -> Layout:
    """``layout`` moved by ``(dx, dy)`` pixels."""
    return Layout(layout.size, layout.origin_x + dx, layout.origin_y + dy)
