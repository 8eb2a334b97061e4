"""The score sheet, laid out like the paper score pad: one column per player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw

from engine import Habitat, PlayerScore, ScoreSheet, Wildlife
from i18n import N_, _
from render import glyphs, theme
from render.fonts import fit_text, font, text_width
from render.names import Line, display_name, draw_line, fit_name, fit_title
from render.palette import draw_text, new_image
from render.tiles import hex_points
from render.words import habitat_heading, wildlife_heading

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

MAX_LABEL_COLUMN = 300
"""The label column grows for a longer language's words up to this; beyond, they shrink."""
LEAST_SIZE = 13
"""No word of the score pad shrinks below this to fit."""

_ORDINALS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
HABITATS_KEY = N_("tiles +bonus")
"""After "Habitats": how to read the habitat rows above, largest corridor then bonus."""


def label_column() -> int:
    """The width of the label column: room for the widest label in the reader's language
    ("Habitats" with its key, in English), at most :data:`MAX_LABEL_COLUMN`."""
    widest = LABEL_PAD + text_width(_(HABITATS), 21) + 8 + text_width(_(HABITATS_KEY), 15)
    for row in _rows():
        if row.subtotal and row.label != HABITATS:
            size = 26 if row.height == TOTAL_ROW else 21
            widest = max(widest, LABEL_PAD + text_width(_label_text(row.label), size))
        elif not row.subtotal:
            widest = max(widest, TEXT_INDENT + text_width(_label_text(row.label), 20))
    return min(MAX_LABEL_COLUMN, widest + LABEL_PAD)


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
    sheet: ScoreSheet, *, title: str | None = None, final: bool = True
) -> Image.Image:
    """The score sheet as a palette image (see :func:`render.render_scores`); ``title``
    defaults to "Final scores" in the reader's language."""
    if title is None:
        title = _("Final scores")
    players = sheet.players
    label_width = label_column()
    table_width = label_width + PLAYER_COLUMN * len(players)
    width = max(MIN_WIDTH, table_width + 2 * MARGIN)
    rows = _rows()
    height = TITLE_HEIGHT + NAME_HEIGHT + sum(row.height for row in rows) + ROW + 2 * MARGIN
    image = new_image(theme.PALETTE, (width, height), theme.BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TITLE_HEIGHT - 1), fill=theme.HEADER)
    shown_title = fit_title(title, 28, width - 2 * MARGIN, least=20)
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
            tag, size = _tag(_("shared win") if shared else _("winner"))
            draw_text(
                image,
                (cx, top + NAME_HEIGHT - 9),
                tag,
                font(size),
                theme.ON_ROW_DIM[theme.WIN_A],
                anchor="mm",
            )
        elif player.name in leaders:
            tag, size = _tag(_("joint lead") if shared else _("leading"))
            draw_text(
                image, (cx, top + NAME_HEIGHT - 9), tag, font(size), theme.BODY_DIM, anchor="mm"
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
            _(_ORDINALS[ranks[player.name]]),
            font(20),
            theme.BODY_DIM,
            anchor="mm",
        )
    return image


def _tag(text: str) -> tuple[str, int]:
    """A word under a player's name, set to fit the column."""
    return fit_text(text, 17, PLAYER_COLUMN - 10, least=LEAST_SIZE)


Cell = Callable[[PlayerScore], tuple[str, str]]
"""A row's value for one player: the main figure and a smaller note after it."""

NATURE = N_("Nature tokens")
HABITATS = N_("Habitats")
WILDLIFE = N_("Wildlife")
TOTAL = N_("Total")


@dataclass(frozen=True, slots=True)
class _Row:
    label: Wildlife | Habitat | str
    value: Cell
    subtotal: bool = False
    height: int = ROW


def _rows() -> list[_Row]:
    rows = [_Row(wildlife, partial(_wildlife_cell, wildlife=wildlife)) for wildlife in Wildlife]
    rows.append(_Row(WILDLIFE, lambda p: (str(p.wildlife_total), ""), subtotal=True))
    rows += [_Row(habitat, partial(_habitat_cell, habitat=habitat)) for habitat in Habitat]
    rows.append(_Row(HABITATS, lambda p: (str(p.habitat_total), ""), subtotal=True))
    rows.append(_Row(NATURE, lambda p: (str(p.nature_tokens), "")))
    rows.append(_Row(TOTAL, lambda p: (str(p.total), ""), subtotal=True, height=TOTAL_ROW))
    return rows


def _label_text(label: Wildlife | Habitat | str) -> str:
    """A row's label in the reader's language: "Bear", "Forest", "Nature tokens"."""
    if isinstance(label, Wildlife):
        return wildlife_heading(label)
    if isinstance(label, Habitat):
        return habitat_heading(label)
    return _(label)


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
        room = label_width - 2 * LABEL_PAD
        key = _(HABITATS_KEY) if label == HABITATS else ""
        if key:
            room -= 8 + text_width(key, 15)
        text, size = fit_text(_label_text(label), size, room, least=LEAST_SIZE)
        box = draw_text(image, (left + LABEL_PAD, middle), text, font(size), style, anchor="lm")
        if key:
            key, key_size = fit_text(
                key, 15, left + label_width - LABEL_PAD - box[2] - 8, least=LEAST_SIZE - 2
            )
            draw_text(
                image,
                (box[2] + 8, middle + 1),
                key,
                font(key_size),
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
        room = label_width - TEXT_INDENT - LABEL_PAD
        text, size = fit_text(_label_text(label), 20, room, least=LEAST_SIZE)
        draw_text(image, (left + TEXT_INDENT, middle), text, font(size), style, anchor="lm")
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
