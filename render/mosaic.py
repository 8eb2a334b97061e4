"""How a chat column shows one message's pictures: Discord's mosaic, as arithmetic.

One picture fills the column's width (never more than its own), keeping its shape. Several
pictures of one message form a mosaic: two side by side, three as one large on the left and
two small stacked on its right, four as a 2 x 2 grid, and more in rows (five as two over
three, six as three over three, seven as one over two rows of three, and so on, the first
row taking what is left over). Each picture fills its cell's width, keeping its shape (none is
cropped in this model), a row is as tall as its tallest picture, and cells and rows are
:data:`GAP` pixels apart.

Pictures are drawn for it so that each cell shows its board whole and large enough: see
:func:`shown_height` and :func:`shown_scales`, which the bot's tests and the benchmark use.
"""

from __future__ import annotations

from collections.abc import Sequence

PHONE_COLUMN = 360
"""The width (CSS pixels) of a phone's chat column, pictures included (a 390-px-wide phone)."""
GAP = 4
"""The space between two cells of a mosaic, across and down."""
MIN_SHOWN_HEX = 7.0
"""The smallest hex (centre to corner, CSS pixels) a turn message's board may show at in a
phone's column: a tile about 12 px wide and 14 px tall, where its habitats' colours and its
token's disc and colour are still told apart (three times as many device pixels on a
common phone)."""

Size = tuple[int, int]


def rows(count: int) -> tuple[int, ...]:
    """How many pictures each row of a mosaic of ``count`` holds, from the top (three are
    one large beside two stacked: ``(1, 2)`` read as columns, see :func:`cells`)."""
    if count <= 0:
        return ()
    if count <= 2:
        return (count,)
    if count == 3:
        return (1, 2)
    if count == 4:
        return (2, 2)
    first = count % 3
    return ((first,) if first else ()) + (3,) * (count // 3)


def cell_widths(count: int, width: float = PHONE_COLUMN) -> tuple[float, ...]:
    """The width each of ``count`` pictures is shown at, in order, in a column ``width``
    wide."""
    if count == 1:
        return (width,)
    if count == 3:
        large = (width - GAP) * 2 / 3
        return (large, width - GAP - large, width - GAP - large)
    found: list[float] = []
    for across in rows(count):
        found.extend([(width - (across - 1) * GAP) / across] * across)
    return tuple(found)


def shown_scales(sizes: Sequence[Size], width: float = PHONE_COLUMN) -> tuple[float, ...]:
    """Per picture (pixel ``(width, height)``), the factor it is shown at: shown pixels per
    drawn pixel."""
    if len(sizes) == 1:
        return (min(1.0, width / sizes[0][0]),)
    return tuple(
        cell / w for cell, (w, _) in zip(cell_widths(len(sizes), width), sizes, strict=True)
    )


def shown_height(sizes: Sequence[Size], width: float = PHONE_COLUMN) -> float:
    """How tall the pictures of ``sizes`` (pixel ``(width, height)``, in the message's
    order) stand in a column ``width`` wide."""
    if not sizes:
        return 0.0
    scales = shown_scales(sizes, width)
    heights = [h * s for (_, h), s in zip(sizes, scales, strict=True)]
    if len(sizes) == 3:
        return max(heights[0], heights[1] + GAP + heights[2])
    total = 0.0
    start = 0
    for across in rows(len(sizes)):
        total += max(heights[start : start + across])
        start += across
    return total + GAP * (len(rows(len(sizes))) - 1)
