"""The display: the four tile-and-token pairs as the commands number them, the tiles left,
the scoring cards in play and, when three tokens match, the hint that a wipe is possible."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import TURNS_PER_PLAYER, GameState, Habitat, Wildlife, can_wipe_three
from i18n import N_, _
from render import glyphs, theme
from render.cards import card_name, reminder
from render.fonts import fit_text, fitting_size, font, text_width, wrap_words
from render.palette import draw_text, new_image
from render.tiles import draw_empty_slot, draw_tile, hex_points, outline_width
from render.words import habitat_word, wildlife_heading

WIDTH = 840
MARGIN = 16
HEADER_HEIGHT = 60
COLUMN = 193
GAP = (WIDTH - 2 * MARGIN - 4 * COLUMN) // 3
PANEL_HEIGHT = 372
TILE_SIZE = 64
TOKEN_RADIUS = 38
BANNER_HEIGHT = 52
CARD_ROW = 38
LEGEND_HEIGHT = 48
LEAST_SIZE = 14
"""No text of the display shrinks below this to fit a longer language."""

WIPE_HINTS: dict[Wildlife, str] = {
    Wildlife.BEAR: N_("3 bear tokens match: you may wipe them (once this turn)"),
    Wildlife.ELK: N_("3 elk tokens match: you may wipe them (once this turn)"),
    Wildlife.SALMON: N_("3 salmon tokens match: you may wipe them (once this turn)"),
    Wildlife.HAWK: N_("3 hawk tokens match: you may wipe them (once this turn)"),
    Wildlife.FOX: N_("3 fox tokens match: you may wipe them (once this turn)"),
}
"""The banner when three display tokens of a species match, by species."""


def _height(hint: bool, variant: bool) -> int:
    height = HEADER_HEIGHT + MARGIN + PANEL_HEIGHT + MARGIN
    if hint:
        height += BANNER_HEIGHT + MARGIN
    rows = 2 if variant else len(Wildlife)
    return height + 30 + rows * CARD_ROW + MARGIN + LEGEND_HEIGHT


def render_display_image(state: GameState) -> Image.Image:
    """The display of ``state`` as a palette image (see :func:`render.render_display`)."""
    hint = can_wipe_three(state)
    matching = state.three_of_a_kind() if hint else None
    height = _height(hint, state.cards.variant is not None)
    image = new_image(theme.PALETTE, (WIDTH, height), theme.BG)
    draw = ImageDraw.Draw(image)
    _draw_header(image, state)
    top = HEADER_HEIGHT + MARGIN
    for slot in range(4):
        left = MARGIN + slot * (COLUMN + GAP)
        _draw_pair(image, draw, state, slot, left, top, matching)
    y = top + PANEL_HEIGHT + MARGIN
    if matching is not None:
        _draw_banner(image, draw, matching, y)
        y += BANNER_HEIGHT + MARGIN
    y = _draw_cards(image, draw, state, y)
    _draw_legend(image, draw, y + MARGIN // 2)
    return image


def _draw_header(image: Image.Image, state: GameState) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER_HEIGHT - 1), fill=theme.HEADER)
    middle = HEADER_HEIGHT / 2
    if state.is_over:
        title = _("Game over")
    else:
        title = _("Round {round} of {rounds}", round=state.round, rounds=TURNS_PER_PLAYER)
    box = draw_text(
        image, (WIDTH - MARGIN, middle), str(state.tiles_left), font(30), theme.TITLE, anchor="rm"
    )
    left_words, size = fit_text(_("tiles left"), 20, 200, least=LEAST_SIZE)
    box = draw_text(
        image, (box[0] - 10, middle), left_words, font(size), theme.TITLE_DIM, anchor="rm"
    )
    _draw_stack_icon(image, box[0] - 26, round(middle))
    room = box[0] - 26 - 13 - 16
    title, size = fit_text(title, 28, room - MARGIN, least=LEAST_SIZE)
    box = draw_text(image, (MARGIN, middle), title, font(size), theme.TITLE, anchor="lm")
    if state.solo and not state.is_over:
        # Solo rules: after the turn, the pair left furthest from the stacks is discarded.
        start = max(MARGIN + 246, box[2] + 16)
        _draw_solo_hint(image, _("solo: rightmost pair left is discarded"), start, room - start)


def _draw_solo_hint(image: Image.Image, hint: str, left: int, room: int) -> None:
    """The solo rule in the header: on one line at 16 px or a little smaller, else on two
    lines, else shortened."""
    middle = HEADER_HEIGHT / 2
    one_line = fitting_size(hint, 16, room, least=LEAST_SIZE)
    if text_width(hint, one_line) > room:
        for size in range(LEAST_SIZE, 11, -1):
            lines = wrap_words(hint, room, size)
            if len(lines) == 2 and all(text_width(line, size) <= room for line in lines):
                for line, y in zip(lines, (middle - size * 0.6, middle + size * 0.6), strict=True):
                    draw_text(image, (left, y), line, font(size), theme.TITLE_DIM, anchor="lm")
                return
    hint, size = fit_text(hint, one_line, room, least=LEAST_SIZE)
    draw_text(image, (left, middle), hint, font(size), theme.TITLE_DIM, anchor="lm")


def _draw_stack_icon(image: Image.Image, cx: int, cy: int) -> None:
    draw = ImageDraw.Draw(image)
    for step, habitat in zip(
        (6, 0, -6), (Habitat.RIVER, Habitat.FOREST, Habitat.PRAIRIE), strict=True
    ):
        draw.polygon(
            hex_points(cx, cy + step, 13),
            fill=theme.HABITAT_FILL[habitat],
            outline=theme.INK,
            width=2,
        )


def _draw_pair(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    slot: int,
    left: int,
    top: int,
    matching: Wildlife | None,
) -> None:
    cx = left + COLUMN // 2
    draw.rounded_rectangle(
        (left, top, left + COLUMN, top + PANEL_HEIGHT), radius=14, fill=theme.PANEL
    )
    # The pair number, as the commands name it.
    badge_y = top + 40
    draw.ellipse(
        (cx - 29, badge_y - 29, cx + 29, badge_y + 29), fill=theme.CREAM, outline=theme.INK, width=3
    )
    draw_text(image, (cx, badge_y + 1), str(slot + 1), font(42), theme.ON_CREAM, anchor="mm")
    tile_y = badge_y + 40 + TILE_SIZE
    tile = state.display_tiles[slot]
    if tile is None:
        draw_empty_slot(image, cx, tile_y, TILE_SIZE)
        taken, size = fit_text(_("taken"), 20, 2 * TILE_SIZE - 16, least=LEAST_SIZE)
        draw_text(image, (cx, tile_y), taken, font(size), theme.FRONTIER_LABEL, anchor="mm")
    else:
        draw_tile(image, cx, tile_y, TILE_SIZE, tile, 0, None, icon_scale=1.3)
    token_y = tile_y + TILE_SIZE + 20 + TOKEN_RADIUS
    token = state.display_tokens[slot]
    if token is None:
        r = TOKEN_RADIUS
        draw.ellipse(
            (cx - r, token_y - r, cx + r, token_y + r),
            fill=theme.FRONTIER,
            outline=theme.FRONTIER_EDGE,
            width=outline_width(TILE_SIZE),
        )
        taken, size = fit_text(_("taken"), 20, COLUMN - 12, least=LEAST_SIZE)
        draw_text(image, (cx, token_y + r + 18), taken, font(size), theme.ON_PANEL_DIM, anchor="mm")
        return
    if token is matching:
        ring = TOKEN_RADIUS + 9
        draw.ellipse((cx - ring, token_y - ring, cx + ring, token_y + ring), fill=theme.AMBER)
    glyphs.draw_token(draw, token, cx, token_y, TOKEN_RADIUS)
    name, size = fit_text(wildlife_heading(token), 22, COLUMN - 12, least=LEAST_SIZE)
    draw_text(
        image, (cx, token_y + TOKEN_RADIUS + 22), name, font(size), theme.ON_PANEL, anchor="mm"
    )


def _draw_banner(
    image: Image.Image, draw: ImageDraw.ImageDraw, matching: Wildlife, top: int
) -> None:
    draw.rounded_rectangle(
        (MARGIN, top, WIDTH - MARGIN, top + BANNER_HEIGHT), radius=12, fill=theme.AMBER
    )
    middle = top + BANNER_HEIGHT / 2
    glyphs.draw_token(draw, matching, MARGIN + 30, middle, 18)
    room = WIDTH - 2 * MARGIN - 58 - 12
    text, size = fit_text(_(WIPE_HINTS[matching]), 22, room, least=LEAST_SIZE)
    draw_text(image, (MARGIN + 58, middle), text, font(size), theme.ON_AMBER, anchor="lm")


def _draw_cards(image: Image.Image, draw: ImageDraw.ImageDraw, state: GameState, top: int) -> int:
    heading, size = fit_text(_("Scoring cards"), 20, WIDTH - 2 * MARGIN, least=LEAST_SIZE)
    draw_text(image, (MARGIN, top + 12), heading, font(size), theme.BODY_DIM, anchor="lm")
    y = top + 30
    cards = state.cards
    if cards.variant is not None:
        # One card scores every species: say it once.
        middle = y + CARD_ROW // 2
        for index, wildlife in enumerate(Wildlife):
            glyphs.draw_option(draw, wildlife, MARGIN + 16 + index * 36, middle, 16)
        title = _("{variant} card for all wildlife", variant=card_name(cards, Wildlife.BEAR))
        title, size = fit_text(title, 22, REMINDER_ROOM, least=LEAST_SIZE)
        draw_text(image, (MARGIN + 190, middle), title, font(size), theme.BODY, anchor="lm")
        y += CARD_ROW
        _draw_reminder(image, reminder(cards, Wildlife.BEAR), y + CARD_ROW // 2)
        return y + CARD_ROW
    for wildlife in Wildlife:
        middle = y + CARD_ROW // 2
        glyphs.draw_option(draw, wildlife, MARGIN + 16, middle, 16)
        name = f"{wildlife_heading(wildlife)} {card_name(cards, wildlife)}"
        name, size = fit_text(name, 22, 190 - 42 - 8, least=LEAST_SIZE)
        draw_text(image, (MARGIN + 42, middle), name, font(size), theme.BODY, anchor="lm")
        _draw_reminder(image, reminder(cards, wildlife), middle)
        y += CARD_ROW
    return y


REMINDER_ROOM = WIDTH - 2 * MARGIN - 190
"""The width a card's title or reminder has, right of the names."""


def _draw_reminder(image: Image.Image, text: str, middle: float) -> None:
    text, size = fit_text(text, 20, REMINDER_ROOM, least=LEAST_SIZE)
    draw_text(image, (MARGIN + 190, middle), text, font(size), theme.BODY_DIM, anchor="lm")


LEGEND_GAP = 34
"""Room between one habitat's word and the next hex of the legend."""


def _legend_size(words: list[str], keystone: str) -> int:
    """The size the legend's words are set at: 19, smaller if they would not fit across."""
    room = WIDTH - 2 * MARGIN - 14 - 14
    for size in range(19, LEAST_SIZE - 1, -1):
        used = sum(22 + text_width(word, size) + LEGEND_GAP for word in words)
        if used + text_width(keystone, size) <= room:
            return size
    return LEAST_SIZE


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw, top: int) -> None:
    middle = top + LEGEND_HEIGHT // 2
    x = MARGIN + 14
    words = [habitat_word(habitat) for habitat in Habitat]
    keystone = _("keystone")
    size = _legend_size(words, keystone)
    for habitat, word in zip(Habitat, words, strict=True):
        glyphs.paste_habitats(image, (habitat,), 0, x, middle, 16)
        draw.polygon(hex_points(x, middle, 16), outline=theme.INK, width=1)
        box = draw_text(image, (x + 22, middle), word, font(size), theme.BODY_DIM, anchor="lm")
        x = box[2] + LEGEND_GAP
    glyphs.draw_star(draw, x - 4, middle, 12)
    draw_text(image, (x + 14, middle), keystone, font(size), theme.BODY_DIM, anchor="lm")
