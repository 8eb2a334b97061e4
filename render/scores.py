"""The score sheet, laid out like the paper score pad: one column per player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw

from engine import Habitat, PlayerScore, ScoreSheet, Wildlife
from render import glyphs, theme
from render.fonts import font, text_width
from render.names import Line, display_name, draw_line, fit_name
from render.palette import draw_text, new_image
from render.tiles import hex_points

MARGIN = 16
TITLE_HEIGHT = 60
NAME_HEIGHT = 74
ROW = 36
TOTAL_ROW = 48
PLAYER_COLUMN = 150
MIN_WIDTH = 560
LABEL_PAD = 12
"""Room between the label column's text and its edges."""
TEXT_INDENT = 42
"""Where a row label's text starts, after its icon."""

_ORDINALS = ("1st", "2nd", "3rd", "4th")
HABITATS_KEY = "tiles +bonus"
"""After "Habitats": how to read the habitat rows above, largest corridor then bonus."""


def label_column() -> int:
    """The width of the label column: room for the widest label, "Habitats" with its key."""
    habitats = LABEL_PAD + text_width(HABITATS, 21) + 8 + text_width(HABITATS_KEY, 15)
    nature = TEXT_INDENT + text_width(NATURE, 20)
    return max(habitats, nature) + LABEL_PAD


def places(sheet: ScoreSheet) -> dict[str, int]:
    """Each player's place, 0 for first: players tied on total and nature tokens share
    the better place (two seconds, then a fourth)."""
    found: dict[str, int] = {}
    previous: tuple[int, int] | None = None
    for place, name in enumerate(sheet.ranking):
        player = sheet.player(name)
        key = (player.total, player.nature_tokens)
        found[name] = found[sheet.ranking[place - 1]] if key == previous else place
        previous = key
    return found


def render_scores_image(
    sheet: ScoreSheet, *, title: str = "Final scores", final: bool = True
) -> Image.Image:
    """The score sheet as a palette image (see :func:`render.render_scores`)."""
    players = sheet.players
    label_width = label_column()
    table_width = label_width + PLAYER_COLUMN * len(players)
    width = max(MIN_WIDTH, table_width + 2 * MARGIN)
    rows = _rows()
    height = TITLE_HEIGHT + NAME_HEIGHT + sum(row.height for row in rows) + ROW + 2 * MARGIN
    image = new_image(theme.PALETTE, (width, height), theme.BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TITLE_HEIGHT - 1), fill=theme.HEADER)
    shown_title = fit_name(title, 28, width - 2 * MARGIN)
    draw_line(image, (MARGIN, TITLE_HEIGHT / 2), shown_title, theme.TITLE, anchor="lm")
    left = (width - table_width) // 2
    # A solo game has a score, not a winner; a game still going has a leader.
    leaders = set(sheet.winners) if len(players) > 1 else set()
    winners = leaders if final else set()
    shared = len(leaders) > 1
    ranks = places(sheet)
    top = TITLE_HEIGHT + MARGIN
    # Player names, the winner crowned.
    for index, player in enumerate(players):
        x0 = left + label_width + index * PLAYER_COLUMN
        cx = x0 + PLAYER_COLUMN // 2
        won = player.name in winners
        if won:
            draw.rounded_rectangle(
                (x0 + 3, top, x0 + PLAYER_COLUMN - 3, top + NAME_HEIGHT + 8),
                radius=10,
                fill=theme.WIN_A,
            )
            _draw_crown(draw, cx, top + 16)
            tag = "shared win" if shared else "winner"
            draw_text(
                image,
                (cx, top + NAME_HEIGHT - 9),
                tag,
                font(17),
                theme.ON_ROW_DIM[theme.WIN_A],
                anchor="mm",
            )
        elif player.name in leaders:
            tag = "joint lead" if shared else "leading"
            draw_text(
                image, (cx, top + NAME_HEIGHT - 9), tag, font(17), theme.BODY_DIM, anchor="mm"
            )
        style = theme.ON_ROW[theme.WIN_A] if won else theme.BODY
        draw_line(image, (cx, top + 41), _fitted_name(player.name), style, anchor="mm")
    y = top + NAME_HEIGHT
    stripe = 0
    for row in rows:
        stripe = 0 if row.subtotal else stripe + 1
        _draw_row(image, draw, sheet, left, label_width, y, row, stripe, winners)
        y += row.height
    # Places (so far, while the game goes on).
    for index, player in enumerate(players if leaders else ()):
        cx = left + label_width + index * PLAYER_COLUMN + PLAYER_COLUMN // 2
        draw_text(
            image,
            (cx, y + ROW / 2 + 2),
            _ORDINALS[ranks[player.name]],
            font(20),
            theme.BODY_DIM,
            anchor="mm",
        )
    return image


Cell = Callable[[PlayerScore], tuple[str, str]]
"""A row's value for one player: the main figure and a smaller note after it."""

NATURE = "Nature tokens"
HABITATS = "Habitats"


@dataclass(frozen=True, slots=True)
class _Row:
    label: Wildlife | Habitat | str
    value: Cell
    subtotal: bool = False
    height: int = ROW


def _rows() -> list[_Row]:
    rows = [_Row(wildlife, partial(_wildlife_cell, wildlife=wildlife)) for wildlife in Wildlife]
    rows.append(_Row("Wildlife", lambda p: (str(p.wildlife_total), ""), subtotal=True))
    rows += [_Row(habitat, partial(_habitat_cell, habitat=habitat)) for habitat in Habitat]
    rows.append(_Row(HABITATS, lambda p: (str(p.habitat_total), ""), subtotal=True))
    rows.append(_Row(NATURE, lambda p: (str(p.nature_tokens), "")))
    rows.append(_Row("Total", lambda p: (str(p.total), ""), subtotal=True, height=TOTAL_ROW))
    return rows


def _wildlife_cell(player: PlayerScore, *, wildlife: Wildlife) -> tuple[str, str]:
    return (str(player.wildlife.get(wildlife, 0)), "")


def _habitat_cell(player: PlayerScore, *, habitat: Habitat) -> tuple[str, str]:
    bonus = player.habitat_bonus.get(habitat, 0)
    return (str(player.habitats.get(habitat, 0)), f"+{bonus}" if bonus else "")


def _fitted_name(name: str) -> Line:
    """``name`` at the largest of a few sizes at which it fits its column whole, else
    shortened at the smallest."""
    room = PLAYER_COLUMN - 12
    for size in (22, 20):
        line = fit_name(name, size, room)
        if line.text == display_name(name):
            return line
    return fit_name(name, 18, room)


def _draw_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    sheet: ScoreSheet,
    left: int,
    label_width: int,
    top: int,
    row: _Row,
    stripe: int,
    winners: set[str],
) -> None:
    height = row.height
    stripes = (theme.ROW_B, theme.ROW_A)
    background = theme.HEADER if row.subtotal else stripes[stripe % 2]
    right = left + label_width + PLAYER_COLUMN * len(sheet.players)
    draw.rectangle((left, top, right - 1, top + height - 1), fill=background)
    middle = top + height / 2
    style = theme.ON_ROW[background]
    label = row.label
    if row.subtotal:
        size = 26 if height == TOTAL_ROW else 21
        box = draw_text(
            image, (left + LABEL_PAD, middle), str(label), font(size), style, anchor="lm"
        )
        if label == HABITATS:
            draw_text(
                image,
                (box[2] + 8, middle + 1),
                HABITATS_KEY,
                font(15),
                theme.ON_ROW_DIM[background],
                anchor="lm",
            )
    else:
        if isinstance(label, Wildlife):
            glyphs.draw_option(draw, label, left + 20, middle, 13)
        elif isinstance(label, Habitat):
            glyphs.paste_habitats(image, (label,), 0, left + 20, round(middle), 13)
            draw.polygon(hex_points(left + 20, round(middle), 13), outline=theme.INK, width=1)
        else:
            glyphs.draw_pinecone(draw, left + 20, middle, 12)
        text = str(label) if label == NATURE else label.capitalize()
        draw_text(image, (left + TEXT_INDENT, middle), text, font(20), style, anchor="lm")
    for index, player in enumerate(sheet.players):
        x0 = left + label_width + index * PLAYER_COLUMN
        cell_bg = background
        if player.name in winners:
            cell_bg = theme.WINNER_BG[background]
            draw.rectangle((x0 + 3, top, x0 + PLAYER_COLUMN - 4, top + height - 1), fill=cell_bg)
        main, note = row.value(player)
        cx = x0 + PLAYER_COLUMN // 2
        size = 30 if height == TOTAL_ROW else (22 if row.subtotal else 20)
        dim = main == "0" and not row.subtotal
        style = theme.ON_ROW_DIM[cell_bg] if dim else theme.ON_ROW[cell_bg]
        box = draw_text(image, (cx, middle), main, font(size), style, anchor="mm")
        if note:
            draw_text(
                image, (box[2] + 8, middle), note, font(17), theme.ON_ROW_DIM[cell_bg], anchor="lm"
            )


def _draw_crown(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    points = [
        (cx - 18, cy + 9),
        (cx - 18, cy - 9),
        (cx - 9, cy),
        (cx, cy - 13),
        (cx + 9, cy),
        (cx + 18, cy - 9),
        (cx + 18, cy + 9),
    ]
    draw.polygon(points, fill=theme.GOLD, outline=theme.INK, width=2)
