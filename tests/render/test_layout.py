"""Hex <-> pixel geometry, without drawing anything."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Direction, Hex
from render.layout import SQRT3, Layout, fit, half_corners, hex_contains

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))
LAYOUT = Layout(40.0, 500.0, 400.0)


def test_origin_is_at_the_layout_origin() -> None:
    assert LAYOUT.center(Hex(0, 0)) == (500.0, 400.0)


@pytest.mark.parametrize(
    ("direction", "dx_sign", "dy_sign"),
    [
        (Direction.E, 1, 0),
        (Direction.NE, 1, -1),
        (Direction.NW, -1, -1),
        (Direction.W, -1, 0),
        (Direction.SW, -1, 1),
        (Direction.SE, 1, 1),
    ],
)
def test_directions_point_the_way_they_are_named(
    direction: Direction, dx_sign: int, dy_sign: int
) -> None:
    x0, y0 = LAYOUT.center(Hex(0, 0))
    x1, y1 = LAYOUT.center(Hex(0, 0).neighbor(direction))
    dx, dy = x1 - x0, y1 - y0
    assert (dx > 0) - (dx < 0) == dx_sign
    assert (abs(dy) > 1e-9) * ((dy > 0) - (dy < 0)) == dy_sign
    # Direction d points at 60 * d degrees anticlockwise from east (y grows downwards).
    assert math.degrees(math.atan2(-dy, dx)) % 360 == pytest.approx(60 * direction % 360)


@given(hexes, st.integers(0, 5))
def test_neighbours_are_one_hex_width_apart(hex_: Hex, direction: int) -> None:
    x0, y0 = LAYOUT.center(hex_)
    x1, y1 = LAYOUT.center(hex_.neighbor(direction))
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(SQRT3 * LAYOUT.size)


@given(hexes)
def test_pixel_to_hex_inverts_hex_to_pixel(hex_: Hex) -> None:
    assert LAYOUT.hex_at(*LAYOUT.center(hex_)) == hex_


@given(hexes, st.floats(-0.99, 0.99), st.floats(-0.99, 0.99))
def test_points_inside_a_hex_map_back_to_it(hex_: Hex, fx: float, fy: float) -> None:
    cx, cy = LAYOUT.center(hex_)
    point = (cx + fx * LAYOUT.size * SQRT3 / 2, cy + fy * LAYOUT.size)
    if hex_contains((cx, cy), LAYOUT.size * 0.999, point):
        assert LAYOUT.hex_at(*point) == hex_


@pytest.mark.parametrize("direction", list(Direction))
def test_edge_d_runs_from_corner_d_to_corner_d_plus_1(direction: Direction) -> None:
    corners = LAYOUT.corners(Hex(2, -1))
    a, b = corners[direction], corners[(direction + 1) % 6]
    mx, my = LAYOUT.edge_midpoint(Hex(2, -1), direction)
    assert (a[0] + b[0]) / 2 == pytest.approx(mx)
    assert (a[1] + b[1]) / 2 == pytest.approx(my)
    # The shared edge is the same segment seen from the neighbour (to within the pixel
    # that rounding each drawn centre may move it).
    other = LAYOUT.corners(Hex(2, -1).neighbor(direction))
    opposite = direction.opposite
    seen = sorted([other[opposite], other[(opposite + 1) % 6]])
    for (x0, y0), (x1, y1) in zip(seen, sorted([a, b]), strict=True):
        assert math.hypot(x1 - x0, y1 - y0) <= 1.0


@pytest.mark.parametrize("rotation", range(6))
def test_a_split_tile_halves_along_its_habitat_edges(rotation: int) -> None:
    # The first habitat shows on edges rotation..rotation+2: corners rotation..rotation+3.
    corners = half_corners(rotation)
    assert corners == tuple((rotation + k) % 6 for k in range(4))


def test_hex_contains_its_corners_and_not_beyond() -> None:
    centre = LAYOUT.center(Hex(0, 0))
    for x, y in LAYOUT.corners(Hex(0, 0)):
        assert hex_contains(centre, LAYOUT.size, (x, y))
        assert not hex_contains(
            centre,
            LAYOUT.size,
            (centre[0] + (x - centre[0]) * 1.05, centre[1] + (y - centre[1]) * 1.05),
        )


def test_fit_keeps_the_largest_size_for_small_sets() -> None:
    layout, width, height = fit([Hex(0, 0)], width=1000, height=1000, max_size=50)
    assert layout.size == 50
    assert width == pytest.approx(SQRT3 * 50)
    assert height == pytest.approx(100)


@given(st.lists(hexes, min_size=1, max_size=40), st.integers(200, 1200), st.integers(200, 1200))
def test_fit_puts_every_hex_inside_the_box(cells: list[Hex], width: int, height: int) -> None:
    layout, used_w, used_h = fit(cells, width=width, height=height, max_size=60)
    assert used_w <= width + 1e-6
    assert used_h <= height + 1e-6
    left, top, right, bottom = layout.bounds(cells)
    assert left >= -1e-6
    assert top >= -1e-6
    assert right <= used_w + 1e-6
    assert bottom <= used_h + 1e-6


def test_a_straight_line_of_23_fits_1200_pixels_with_usable_hexes() -> None:
    line = [Hex(q, 0) for q in range(23)]
    frontier = {n for h in line for n in h.neighbors()} - set(line)
    layout, used_w, _ = fit([*line, *frontier], width=1172, height=1112, max_size=58)
    assert used_w <= 1172
    assert layout.size >= 26
