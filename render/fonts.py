"""The one typeface every picture uses, bundled with the package (no system fonts).

DejaVu Sans Condensed Bold: bold strokes stay legible at 12 px on a phone, and the condensed
width fits hex labels such as ``-10,-3`` inside small hexes. Text is laid out with Pillow's
basic layout so that pictures do not depend on whether libraqm is installed.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

FONT_FILE = "DejaVuSansCondensed-Bold.ttf"


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return (resources.files("render") / "fonts" / FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels (cached)."""
    return ImageFont.truetype(BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


_UNMAPPED = "\U0010fffd"
"""A private-use code point no font maps: it draws the font's "missing glyph" box."""


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    face = font(24)
    mask = face.getmask(char)
    missing = face.getmask(_UNMAPPED)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


def printable(text: str) -> str:
    """``text`` with what the bundled font cannot draw left out: emoji and their joiners
    are dropped, any other missing character (say, CJK) becomes ``?``; never blank."""
    kept = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Mn"):
            continue
        elif _has_glyph(char):
            kept.append(char)
        elif unicodedata.category(char) not in ("So", "Sk"):
            kept.append("?")
    cleaned = " ".join("".join(kept).split())
    return cleaned or "?"


def text_width(text: str, size: int) -> int:
    """The width in pixels of ``text`` set in the bundled font at ``size``."""
    left, _, right, _ = font(size).getbbox(text)
    return int(right - left)


def fit_text(text: str, size: int, width: int) -> str:
    """``text`` made :func:`printable`, shortened with an ellipsis if needed so that it fits
    ``width`` pixels."""
    text = printable(text)
    if text_width(text, size) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        shortened = text[:end].rstrip() + "\u2026"
        if text_width(shortened, size) <= width:
            return shortened
    return "\u2026"
