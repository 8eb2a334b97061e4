"""Colours of every picture: one palette, built at import in a fixed order.

Habitats and wildlife differ in lightness as well as hue, and each also has its own pattern
or shape (see :mod:`render.glyphs`), so a colour-blind player can tell them apart. On a phone
the patterns blur into their hex's colour, so the habitats' mean colours stay apart under
simulated deuteranopia, protanopia and tritanopia too (``tests/render/test_colorblind.py``,
``benchmarks/colorblind.py``).
"""

from __future__ import annotations

from engine import Habitat, Wildlife
from render.palette import RGB, Palette, TextStyle

PALETTE = Palette()

# --- colour values --------------------------------------------------------------------------

BG_RGB: RGB = (43, 47, 54)
HEADER_RGB: RGB = (30, 33, 38)
PANEL_RGB: RGB = (58, 63, 72)
INK_RGB: RGB = (22, 24, 28)
WHITE_RGB: RGB = (255, 255, 255)
TEXT_RGB: RGB = (238, 240, 243)
DIM_RGB: RGB = (166, 174, 186)
CREAM_RGB: RGB = (250, 246, 234)
PILL_RGB: RGB = (22, 24, 28)
FRONTIER_RGB: RGB = (62, 68, 78)
FRONTIER_EDGE_RGB: RGB = (122, 131, 145)
FRONTIER_TEXT_RGB: RGB = (228, 232, 238)
HIGHLIGHT_RGB: RGB = (255, 60, 172)
GOLD_RGB: RGB = (246, 196, 42)
AMBER_RGB: RGB = (255, 190, 40)
ROW_A_RGB: RGB = (50, 54, 62)
ROW_B_RGB: RGB = (60, 65, 74)
WIN_A_RGB: RGB = (92, 78, 34)
WIN_B_RGB: RGB = (104, 88, 38)
WIN_C_RGB: RGB = (76, 64, 28)
CONE_RGB: RGB = (150, 96, 52)
CONE_DARK_RGB: RGB = (96, 58, 28)

HABITAT_RGB: dict[Habitat, tuple[RGB, RGB]] = {
    # (fill, pattern)
    Habitat.MOUNTAIN: ((136, 136, 146), (76, 76, 86)),
    Habitat.FOREST: ((40, 118, 54), (8, 54, 18)),
    Habitat.PRAIRIE: ((240, 208, 88), (176, 138, 30)),
    Habitat.WETLAND: ((150, 220, 190), (58, 126, 98)),
    Habitat.RIVER: ((48, 108, 220), (152, 190, 254)),
}

WILDLIFE_RGB: dict[Wildlife, tuple[RGB, RGB, RGB]] = {
    # (token disc, glyph on the token, glyph on a cream "may hold" disc)
    Wildlife.BEAR: ((92, 58, 38), CREAM_RGB, (92, 58, 38)),
    Wildlife.ELK: ((214, 160, 100), INK_RGB, (160, 100, 40)),
    Wildlife.SALMON: ((238, 104, 128), INK_RGB, (212, 58, 92)),
    Wildlife.HAWK: ((118, 186, 238), INK_RGB, (32, 112, 196)),
    Wildlife.FOX: ((244, 126, 32), INK_RGB, (222, 96, 6)),
}

# --- palette indices ------------------------------------------------------------------------

BG = PALETTE.color(BG_RGB)
HEADER = PALETTE.color(HEADER_RGB)
PANEL = PALETTE.color(PANEL_RGB)
INK = PALETTE.color(INK_RGB)
WHITE = PALETTE.color(WHITE_RGB)
TEXT = PALETTE.color(TEXT_RGB)
DIM = PALETTE.color(DIM_RGB)
CREAM = PALETTE.color(CREAM_RGB)
PILL = PALETTE.color(PILL_RGB)
FRONTIER = PALETTE.color(FRONTIER_RGB)
FRONTIER_EDGE = PALETTE.color(FRONTIER_EDGE_RGB)
HIGHLIGHT = PALETTE.color(HIGHLIGHT_RGB)
GOLD = PALETTE.color(GOLD_RGB)
AMBER = PALETTE.color(AMBER_RGB)
ROW_A = PALETTE.color(ROW_A_RGB)
ROW_B = PALETTE.color(ROW_B_RGB)
WIN_A = PALETTE.color(WIN_A_RGB)
WIN_B = PALETTE.color(WIN_B_RGB)
WIN_C = PALETTE.color(WIN_C_RGB)
CONE = PALETTE.color(CONE_RGB)
CONE_DARK = PALETTE.color(CONE_DARK_RGB)

HABITAT_FILL: dict[Habitat, int] = {h: PALETTE.color(rgb[0]) for h, rgb in HABITAT_RGB.items()}
HABITAT_PATTERN: dict[Habitat, int] = {h: PALETTE.color(rgb[1]) for h, rgb in HABITAT_RGB.items()}
TOKEN_FILL: dict[Wildlife, int] = {w: PALETTE.color(rgb[0]) for w, rgb in WILDLIFE_RGB.items()}
TOKEN_GLYPH: dict[Wildlife, int] = {w: PALETTE.color(rgb[1]) for w, rgb in WILDLIFE_RGB.items()}
OPTION_GLYPH: dict[Wildlife, int] = {w: PALETTE.color(rgb[2]) for w, rgb in WILDLIFE_RGB.items()}

# --- text styles (each pair of text and background colours used anywhere) ------------------

LABEL = PALETTE.add_text(WHITE_RGB, PILL_RGB)
FRONTIER_LABEL = PALETTE.add_text(FRONTIER_TEXT_RGB, FRONTIER_RGB)
TITLE = PALETTE.add_text(WHITE_RGB, HEADER_RGB)
TITLE_DIM = PALETTE.add_text(DIM_RGB, HEADER_RGB)
TITLE_ALERT = PALETTE.add_text(HIGHLIGHT_RGB, HEADER_RGB)
BODY = PALETTE.add_text(TEXT_RGB, BG_RGB)
BODY_DIM = PALETTE.add_text(DIM_RGB, BG_RGB)
ON_PANEL = PALETTE.add_text(TEXT_RGB, PANEL_RGB)
ON_PANEL_DIM = PALETTE.add_text(DIM_RGB, PANEL_RGB)
ON_CREAM = PALETTE.add_text(INK_RGB, CREAM_RGB)
ON_AMBER = PALETTE.add_text(INK_RGB, AMBER_RGB)
ON_ROW: dict[int, TextStyle] = {
    ROW_A: PALETTE.add_text(TEXT_RGB, ROW_A_RGB),
    ROW_B: PALETTE.add_text(TEXT_RGB, ROW_B_RGB),
    WIN_A: PALETTE.add_text(WHITE_RGB, WIN_A_RGB),
    WIN_B: PALETTE.add_text(WHITE_RGB, WIN_B_RGB),
    HEADER: TITLE,
    WIN_C: PALETTE.add_text(WHITE_RGB, WIN_C_RGB),
}
ON_ROW_DIM: dict[int, TextStyle] = {
    ROW_A: PALETTE.add_text(DIM_RGB, ROW_A_RGB),
    ROW_B: PALETTE.add_text(DIM_RGB, ROW_B_RGB),
    WIN_A: PALETTE.add_text((222, 206, 160), WIN_A_RGB),
    WIN_B: PALETTE.add_text((222, 206, 160), WIN_B_RGB),
    HEADER: TITLE_DIM,
    WIN_C: PALETTE.add_text((222, 206, 160), WIN_C_RGB),
}
WINNER_BG: dict[int, int] = {ROW_A: WIN_A, ROW_B: WIN_B, HEADER: WIN_C}
"""The background of a winner's cell on each row background."""

# --- players (the score chart's lines and the replay's headers) ------------------------------

PLAYER_RGB: tuple[RGB, ...] = (
    (86, 180, 233),
    (240, 150, 20),
    (214, 122, 176),
    (236, 226, 80),
)
"""One colour per seat, told apart in lightness as well as hue (sky blue, orange, pink,
yellow); each seat also has its own mark (see :func:`render.glyphs.draw_player_mark`)."""
PLAYER_TEXT: tuple[TextStyle, ...] = tuple(PALETTE.add_text(rgb, BG_RGB) for rgb in PLAYER_RGB)
"""Text in each seat's colour on the background."""
PLAYER: tuple[int, ...] = tuple(PALETTE.color(rgb) for rgb in PLAYER_RGB)
