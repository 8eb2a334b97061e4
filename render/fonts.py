"""The typefaces the pictures use, bundled with the package (no system fonts).

Everything the pictures say themselves (titles, numbers, hex labels) is set in DejaVu Sans
Condensed Bold: bold strokes stay legible at 12 px on a phone, and the condensed width fits
hex labels such as ``-10,-3`` inside small hexes. That text is laid out with Pillow's basic
layout, so that it does not depend on whether libraqm is installed.

Player names can be in any script, so they are set through a fallback chain, :data:`FACES`:
each character goes to the first face whose character map covers it (see
:mod:`render.names`). DejaVu covers Latin, Greek, Cyrillic, Hebrew and Arabic; Droid Sans
Fallback Chinese and Japanese; NanumSquare Korean; a few Noto Sans faces the large South and
South-East Asian scripts; Noto Emoji the emoji, in monochrome. Names are shaped with libraqm
where Pillow has it (:data:`SHAPING`), which joins Arabic letters and lays right-to-left text
out correctly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont, features

from render.cmap import Coverage, read_coverage

FONT_FILE = "DejaVuSansCondensed-Bold.ttf"

SHAPING = bool(features.check("raqm"))
"""Whether Pillow can shape text (libraqm with FriBiDi and HarfBuzz). Without it, names are
still drawn right to left where they should be, with Arabic letters in their joined forms
where the fonts have them (see :mod:`render.names`)."""


@dataclass(frozen=True, slots=True)
class Face:
    """One typeface of the name fallback chain."""

    file: str
    emoji: bool = False
    """An emoji face: it also maps digits and ``#`` for keycaps, which must not take a
    name's digits away from the text faces."""


FACES = (
    Face(FONT_FILE),
    Face("DroidSansFallbackFull.ttf"),
    Face("NanumSquareB.ttf"),
    Face("NotoSansDevanagari-Bold.ttf"),
    Face("NotoSansBengali-Bold.ttf"),
    Face("NotoSansTamil-Bold.ttf"),
    Face("NotoSansThai-Bold.ttf"),
    Face("NotoEmoji-Bold.ttf", emoji=True),
)
"""The name fallback chain, in order of preference; the first face is :func:`font`'s."""


@lru_cache(maxsize=len(FACES))
def _font_bytes(file: str) -> bytes:
    return (resources.files("render") / "fonts" / file).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled UI font at ``size`` pixels, basic layout (cached)."""
    return ImageFont.truetype(
        BytesIO(_font_bytes(FONT_FILE)), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=128)
def face_font(index: int, size: int, *, shaping: bool = SHAPING) -> ImageFont.FreeTypeFont:
    """Face ``index`` of :data:`FACES` at ``size`` pixels, shaped with libraqm when
    ``shaping`` (cached)."""
    layout = ImageFont.Layout.RAQM if shaping else ImageFont.Layout.BASIC
    return ImageFont.truetype(BytesIO(_font_bytes(FACES[index].file)), size, layout_engine=layout)


@lru_cache(maxsize=len(FACES))
def coverage(index: int) -> Coverage:
    """The characters face ``index`` of :data:`FACES` has glyphs for."""
    return read_coverage(_font_bytes(FACES[index].file))


def text_width(text: str, size: int) -> int:
    """The width in pixels of ``text`` set in the bundled UI font at ``size``."""
    left, _, right, _ = font(size).getbbox(text)
    return int(right - left)


ELLIPSIS = "\u2026"


def fitting_size(text: str, size: int, width: float, *, least: int) -> int:
    """The largest size from ``size`` down to ``least`` at which ``text`` is at most
    ``width`` pixels wide (``least`` when none is): a label in a longer language shrinks
    rather than running into its neighbour."""
    for candidate in range(size, least - 1, -1):
        if text_width(text, candidate) <= width:
            return candidate
    return least


def fit_text(text: str, size: int, width: float, *, least: int) -> tuple[str, int]:
    """``text`` and the size to set it at so that it is at most ``width`` pixels wide: the
    largest from ``size`` down to ``least``, and at ``least`` shortened with an ellipsis
    when even that is too wide."""
    chosen = fitting_size(text, size, width, least=least)
    if text_width(text, chosen) <= width:
        return text, chosen
    low, high, best = 0, len(text) - 1, ELLIPSIS
    while low <= high:
        middle = (low + high) // 2
        candidate = text[:middle].rstrip() + ELLIPSIS
        if text_width(candidate, chosen) <= width:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best, chosen


def wrap_words(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at ``size``, broken between words (a
    word wider than the line stands alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
