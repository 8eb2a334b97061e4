"""How a chat column shows a message's pictures (Discord's mosaic), and the frame a turn
message's boards are drawn in to show in it."""

from __future__ import annotations

import pytest

from benchmarks import positions
from engine import Hex
from render import turn_frame
from render.environment import BOARD_MARGIN, plan_board
from render.mosaic import GAP, PHONE_COLUMN, cell_widths, rows, shown_height, shown_scales


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, (1,)),
        (2, (2,)),
        (3, (1, 2)),
        (4, (2, 2)),
        (5, (2, 3)),
        (6, (3, 3)),
        (7, (1, 3, 3)),
        (8, (2, 3, 3)),
        (10, (1, 3, 3, 3)),
    ],
)
def test_a_mosaic_fills_rows_of_three_with_what_is_left_over_first(
    count: int, expected: tuple[int, ...]
) -> None:
    assert rows(count) == expected


def test_five_pictures_show_two_over_three() -> None:
    half, third = (360 - GAP) / 2, (360 - 2 * GAP) / 3
    assert cell_widths(5, 360) == pytest.approx((half, half, third, third, third))


def test_one_picture_is_shown_no_wider_than_drawn_nor_than_the_column() -> None:
    assert shown_height([(200, 100)]) == 100
    assert shown_height([(720, 400)]) == pytest.approx(200)


def test_a_row_is_as_tall_as_its_tallest_picture() -> None:
    # 2 x 2: squares in the first row, a tall one in the second.
    sizes = [(100, 100), (100, 100), (100, 100), (100, 300)]
    cell = (PHONE_COLUMN - GAP) / 2
    assert shown_height(sizes) == pytest.approx(cell + GAP + 3 * cell)
    assert shown_scales(sizes) == pytest.approx((cell / 100,) * 4)


def test_three_show_one_large_beside_two_stacked() -> None:
    large = (PHONE_COLUMN - GAP) * 2 / 3
    small = PHONE_COLUMN - GAP - large
    sizes = [(100, 100), (100, 100), (100, 100)]
    assert shown_height(sizes) == pytest.approx(max(large, 2 * small + GAP))


def test_every_board_of_a_turn_message_is_drawn_in_one_frame_that_holds_each_whole() -> None:
    state = positions.late_four_player()
    frame = turn_frame(state)
    for seat in state.seats:
        plan = plan_board(seat.environment, frame)
        assert (plan.width, plan.height) == (frame.width, frame.height)
        assert plan.hex_size == frame.hex_size
        assert plan.frontier == ()
        assert {label.hex for label in plan.labels} == set(seat.environment)
        left, top, right, bottom = plan.layout.bounds(seat.environment)
        assert left >= BOARD_MARGIN - 1
        assert right <= frame.width - BOARD_MARGIN + 1
        assert top >= frame.header_height + BOARD_MARGIN - 1
        assert bottom <= frame.height - BOARD_MARGIN + 1


def test_the_widest_board_fills_the_frame_edge_to_edge() -> None:
    state = positions.line_and_cluster()
    frame = turn_frame(state)
    line = plan_board(state.seats[0].environment, frame)
    left, _, right, _ = line.layout.bounds(state.seats[0].environment)
    assert right - left == pytest.approx(frame.width - 2 * BOARD_MARGIN, abs=1.0)
    assert Hex(0, 0) in state.seats[0].environment
