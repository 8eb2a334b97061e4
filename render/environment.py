"""A player's environment: every tile where it lies, every place a tile may go, labelled.

Each placed hex and each empty position next to the environment carries its label, the
engine's hex text form ``"q,r"`` that the commands accept; a hex keeps its label all game.
:func:`plan_environment` works out the geometry (hex size, canvas, where each label goes)
without drawing, so tests can check it; :func:`draw_environment` draws a plan.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Environment, Hex
from i18n import _
from render import glyphs, theme
from render.fonts import font, text_width
from render.layout import SQRT3, Layout, fit, shifted
from render.names import draw_line, fit_name
from render.palette import draw_text, new_image
from render.tiles import draw_empty_slot, draw_tile, hex_points, outline_width

MAX_WIDTH = 1200
"""The longest side of any picture stays within Discord's comfortable size."""
MAX_HEIGHT = 1200
MAX_HEX_SIZE = 58
"""Hex size (centre to corner) of small environments; large ones scale down from it."""
MIN_WIDTH = 560
"""Room for the header even when the environment is small."""
HEADER_HEIGHT = 60
MARGIN = 14
BOARD_MARGIN = 6
"""The margin around a turn message's boards (see :func:`board_frame`)."""
BOARD_HEADER_SHARE = 0.12
"""A board's header is this share of its width tall: a phone shows the smaller boards
about 117 px wide, where the name is then about 9 px high."""
MIN_LABEL_SIZE = 13
"""Label text never drops below this many pixels, however small the hexes get."""
MAX_LABEL_SIZE = 22

_LABEL_SAMPLE = "-0123456789,"


@dataclass(frozen=True, slots=True)
class Label:
    """A hex label: the hex, the text drawn (its text form) and the pill box around it."""

    hex: Hex
    text: str
    box: tuple[int, int, int, int]
    on_tile: bool


@dataclass(frozen=True, slots=True)
class EnvironmentPlan:
    """Where everything of one environment picture goes."""

    width: int
    height: int
    layout: Layout
    tiles: tuple[Hex, ...]
    frontier: tuple[Hex, ...]
    labels: tuple[Label, ...]
    label_size: int
    header_height: int = HEADER_HEIGHT

    @property
    def hex_size(self) -> int:
        """The drawn hex size in whole pixels."""
        return round(self.layout.size)


def label_size_for(hex_size: float) -> int:
    """The label font size for hexes of ``hex_size``."""
    return max(MIN_LABEL_SIZE, min(MAX_LABEL_SIZE, round(hex_size * 0.38)))


def _label_box(
    cx: int, cy: int, size: float, text: str, font_size: int, on_tile: bool
) -> tuple[int, int, int, int]:
    face = font(font_size)
    _, top, _, bottom = face.getbbox(_LABEL_SAMPLE)
    pad_x = max(2, round(font_size * 0.25))
    pad_y = max(1, round(font_size * 0.12))
    width = text_width(text, font_size) + 2 * pad_x
    height = int(bottom - top) + 2 * pad_y
    if on_tile:
        # As low as the hex allows: below its vertical sides the hex narrows to a point,
        # and the pill must stay inside it.
        room = max(0.0, 1.0 - width / (SQRT3 * size))
        lowest = 0.5 * size + 0.5 * size * room
        middle = cy + min(0.47 * size, lowest - height / 2)
    else:
        middle = cy
    left = cx - width // 2
    upper = round(middle - height / 2)
    return (left, upper, left + width, upper + height)


def fitting_hex_size(
    env: Environment, *, max_width: int = MAX_WIDTH, max_height: int = MAX_HEIGHT
) -> int:
    """The whole-pixel hex size of ``env``'s picture drawn on its own: as large as fits
    ``max_width`` x ``max_height``, never above :data:`MAX_HEX_SIZE`."""
    return _fitting_size(_cells(env), max_width, max_height)


def shared_hex_size(environments: Iterable[Environment]) -> int:
    """The hex size that pictures of ``environments`` side by side share: the one the
    largest of them needs to fit (the smallest :func:`fitting_hex_size`)."""
    return min((fitting_hex_size(env) for env in environments), default=MAX_HEX_SIZE)


def _cells(env: Environment) -> tuple[Hex, ...]:
    return tuple(sorted(env)) + tuple(env.frontier())


def _fitting_size(cells: tuple[Hex, ...], max_width: int, max_height: int) -> int:
    room_w = max_width - 2 * MARGIN
    room_h = max_height - HEADER_HEIGHT - 2 * MARGIN
    layout, _, _ = fit(cells, width=room_w, height=room_h, max_size=MAX_HEX_SIZE)
    # Whole-pixel hexes keep the habitat sprites and the outlines in step.
    return max(4, math.floor(layout.size))


def plan_environment(
    env: Environment,
    *,
    max_width: int = MAX_WIDTH,
    max_height: int = MAX_HEIGHT,
    hex_size: int | None = None,
) -> EnvironmentPlan:
    """The geometry of ``env``'s picture: hexes scaled to fit ``max_width`` x
    ``max_height`` (never above :data:`MAX_HEX_SIZE`, nor above ``hex_size`` when given,
    such as a :func:`shared_hex_size`), and one label per placed tile and per frontier
    position."""
    tiles = tuple(sorted(env))
    frontier = tuple(env.frontier())
    cells = tiles + frontier
    room_w = max_width - 2 * MARGIN
    room_h = max_height - HEADER_HEIGHT - 2 * MARGIN
    size = _fitting_size(cells, max_width, max_height)
    if hex_size is not None:
        size = max(4, min(size, hex_size))
    layout, used_w, used_h = fit(cells, width=room_w, height=room_h, max_size=size)
    width = max(MIN_WIDTH, math.ceil(used_w) + 2 * MARGIN)
    height = HEADER_HEIGHT + math.ceil(used_h) + 2 * MARGIN
    layout = shifted(layout, (width - used_w) / 2, HEADER_HEIGHT + MARGIN)
    return _plan(env, layout, width, height, frontier, HEADER_HEIGHT)


@dataclass(frozen=True, slots=True)
class BoardFrame:
    """The hex size and the canvas every board of one turn message is drawn in, so that
    they show at one scale wherever the chat puts them side by side (see
    :func:`board_frame`)."""

    hex_size: int
    width: int
    height: int

    @property
    def header_height(self) -> int:
        """The header's height: a fixed share of the width, so that the name reads as well
        however small the chat shows the picture."""
        return max(24, round(self.width * BOARD_HEADER_SHARE))


def board_frame(environments: Iterable[Environment]) -> BoardFrame:
    """The frame the boards of ``environments`` share: their placed tiles only (no empty
    places around them), at the hex size the largest needs to fit :data:`MAX_WIDTH` x
    :data:`MAX_HEIGHT`, on a canvas as wide as the widest (at least as wide as tall) and as
    tall as the tallest, with thin margins."""
    spans = [_span(tuple(env) or (Hex(0, 0),)) for env in environments] or [_span((Hex(0, 0),))]
    widest = max(w for w, _ in spans)
    tallest = max(h for _, h in spans)
    room = MAX_WIDTH - 2 * BOARD_MARGIN
    size = max(4, math.floor(min(MAX_HEX_SIZE, room / widest, room * 0.85 / tallest)))
    body = math.ceil(tallest * size) + 2 * BOARD_MARGIN
    # Never taller than wide under the header: a tall board would make its row of a phone's
    # mosaic, and the whole message, tall.
    width = max(math.ceil(widest * size) + 2 * BOARD_MARGIN, body)
    frame = BoardFrame(size, width, 0)
    height = frame.header_height + body
    return BoardFrame(size, width, height)


def _span(cells: tuple[Hex, ...]) -> tuple[float, float]:
    left, top, right, bottom = Layout(1.0).bounds(cells)
    return (right - left, bottom - top)


def plan_board(env: Environment, frame: BoardFrame) -> EnvironmentPlan:
    """The geometry of ``env``'s board in ``frame``: its placed tiles, labelled, centred
    under the header; no empty places."""
    tiles = tuple(sorted(env))
    header = frame.header_height
    room_w = frame.width - 2 * BOARD_MARGIN
    room_h = frame.height - header - 2 * BOARD_MARGIN
    layout, used_w, used_h = fit(
        tiles or (Hex(0, 0),), width=room_w, height=room_h, max_size=frame.hex_size
    )
    layout = shifted(
        layout, (frame.width - used_w) / 2, header + BOARD_MARGIN + (room_h - used_h) / 2
    )
    return _plan(env, layout, frame.width, frame.height, (), header)


def _plan(
    env: Environment,
    layout: Layout,
    width: int,
    height: int,
    frontier: tuple[Hex, ...],
    header: int,
) -> EnvironmentPlan:
    tiles = tuple(sorted(env))
    font_size = label_size_for(layout.size)
    labels = []
    for hex_ in tiles + frontier:
        cx, cy = layout.pixel_center(hex_)
        text = str(hex_)
        on_tile = hex_ in env
        box = _label_box(cx, cy, layout.size, text, font_size, on_tile)
        labels.append(Label(hex_, text, box, on_tile))
    return EnvironmentPlan(width, height, layout, tiles, frontier, tuple(labels), font_size, header)


def draw_environment(
    plan: EnvironmentPlan,
    env: Environment,
    *,
    name: str,
    nature_tokens: int,
    score: int | None,
    highlight: Collection[Hex] = (),
    tag: str | None = None,
) -> Image.Image:
    """Draw ``env`` as ``plan`` lays it out, with a header naming the player, their nature
    tokens and score; hexes in ``highlight`` get a bright ring; ``tag`` (e.g. "preview")
    is shown after the name."""
    image = new_image(theme.PALETTE, (plan.width, plan.height), theme.BG)
    draw = ImageDraw.Draw(image)
    layout = plan.layout
    size = plan.hex_size
    label_tops = {label.hex: label.box[1] for label in plan.labels}
    for hex_ in plan.frontier:
        cx, cy = layout.pixel_center(hex_)
        draw_empty_slot(image, cx, cy, size)
    for hex_ in plan.tiles:
        placed = env[hex_]
        cx, cy = layout.pixel_center(hex_)
        draw_tile(
            image,
            cx,
            cy,
            size,
            placed.tile,
            placed.rotation,
            placed.token,
            label_top=label_tops[hex_],
        )
    ring = max(3, round(size / 11))
    for hex_ in sorted(set(highlight) & {*plan.tiles, *plan.frontier}):
        cx, cy = layout.pixel_center(hex_)
        draw.polygon(hex_points(cx, cy, size - ring / 2 + 1), outline=theme.HIGHLIGHT, width=ring)
        draw.polygon(hex_points(cx, cy, size + 1), outline=theme.INK, width=outline_width(size))
    face = font(plan.label_size)
    for label in plan.labels:
        left, top, right, bottom = label.box
        middle = ((left + right) / 2, (top + bottom) / 2)
        if label.on_tile:
            draw.rounded_rectangle(label.box, radius=(bottom - top) // 3, fill=theme.PILL)
            draw_text(image, middle, label.text, face, theme.LABEL, anchor="mm")
        else:
            draw_text(image, middle, label.text, face, theme.FRONTIER_LABEL, anchor="mm")
    _draw_header(
        image,
        plan.width,
        plan.header_height,
        name=name,
        nature_tokens=nature_tokens,
        score=score,
        tag=tag,
    )
    return image


def _draw_header(
    image: Image.Image,
    width: int,
    height: int,
    *,
    name: str,
    nature_tokens: int,
    score: int | None,
    tag: str | None,
) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, height - 1), fill=theme.HEADER)
    # Drawn for HEADER_HEIGHT; a board's header is the same, scaled.
    unit = height / HEADER_HEIGHT

    def px(value: float) -> int:
        return max(1, round(value * unit))

    middle = height / 2
    margin = min(MARGIN, px(MARGIN))
    right = width - margin
    if score is not None:
        box = draw_text(image, (right, middle), str(score), font(px(30)), theme.TITLE, anchor="rm")
        box = draw_text(
            image, (box[0] - px(8), middle), _("score"), font(px(20)), theme.TITLE_DIM, anchor="rm"
        )
        right = box[0] - px(22)
    box = draw_text(
        image,
        (right, middle),
        f"\u00d7{nature_tokens}",
        font(px(26)),
        theme.TITLE,
        anchor="rm",
    )
    cone_x = box[0] - px(16)
    glyphs.draw_pinecone(draw, cone_x, middle, px(14))
    right = cone_x - px(26)
    tag_width = 0
    if tag:
        tag_width = text_width(tag, px(20)) + px(12)
    shown = fit_name(name, px(28), right - margin - tag_width)
    box = draw_line(image, (margin, middle), shown, theme.TITLE, anchor="lm")
    if tag:
        draw_text(
            image,
            (box[2] + px(12), middle + px(2)),
            tag,
            font(px(20)),
            theme.TITLE_ALERT,
            anchor="lm",
        )
