"""The fixed 256-colour palette every picture is drawn in, and antialiased text on it.

Pictures are drawn straight into palette ("P") images: they encode several times faster
and smaller than RGB ones. Antialiased text needs in-between colours, so each pair of text
and background colours the pictures use gets a short ramp of blends in the palette. The
palette is built once, at import, in a fixed order, so the same state always gives the same
bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

RAMP_LEVELS = 8
"""Blends per text ramp, background and text colour included."""


@dataclass(frozen=True, slots=True)
class TextStyle:
    """A text colour on a known background: ``base`` is the palette index of the
    background end of a ramp of ``levels`` blends ending at the text colour."""

    base: int
    levels: int
    fg: RGB
    bg: RGB


class Palette:
    """Colours and text ramps in a fixed order (at most 256 entries)."""

    def __init__(self) -> None:
        self._colors: list[RGB] = []
        self._styles: dict[tuple[RGB, RGB], TextStyle] = {}

    def color(self, rgb: RGB) -> int:
        """The index of ``rgb``, added at the end if it is new."""
        if rgb in self._colors:
            return self._colors.index(rgb)
        return self._append(rgb)

    def _append(self, rgb: RGB) -> int:
        if len(self._colors) >= 256:
            raise ValueError("the palette is full")
        self._colors.append(rgb)
        return len(self._colors) - 1

    def add_text(self, fg: RGB, bg: RGB) -> TextStyle:
        """Register antialiased text in ``fg`` on ``bg`` (once per pair)."""
        known = self._styles.get((fg, bg))
        if known is not None:
            return known
        base = len(self._colors)
        for level in range(RAMP_LEVELS):
            t = level / (RAMP_LEVELS - 1)
            self._append(
                (
                    round(bg[0] + (fg[0] - bg[0]) * t),
                    round(bg[1] + (fg[1] - bg[1]) * t),
                    round(bg[2] + (fg[2] - bg[2]) * t),
                )
            )
        style = TextStyle(base, RAMP_LEVELS, fg, bg)
        self._styles[fg, bg] = style
        return style

    def text(self, fg: RGB, bg: RGB) -> TextStyle:
        """The registered style for ``fg`` text on ``bg``; KeyError if it was never added."""
        return self._styles[fg, bg]

    def rgb(self, index: int) -> RGB:
        """The colour at ``index``."""
        return self._colors[index]

    def __len__(self) -> int:
        return len(self._colors)

    def data(self) -> list[int]:
        """The palette as Pillow wants it: 768 channel values, unused entries black."""
        flat = [channel for rgb in self._colors for channel in rgb]
        return flat + [0] * (768 - len(flat))


def new_image(palette: Palette, size: tuple[int, int], background: int) -> Image.Image:
    """A blank palette image filled with the colour at index ``background``."""
    image = Image.new("P", size, background)
    image.putpalette(palette.data())
    return image


@cache
def _ramp_table(style: TextStyle) -> bytes:
    top = style.levels - 1
    return bytes([0] + [style.base + (value * top + 127) // 255 for value in range(1, 256)])


_NONZERO = bytes([0] + [255] * 255)


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    style: TextStyle,
    *,
    anchor: str = "la",
) -> tuple[int, int, int, int]:
    """Draw antialiased ``text`` with its ``anchor`` at ``xy``; returns the box it covers.

    The blends assume the pixels under the text are ``style.bg``.
    """
    x, y = round(xy[0]), round(xy[1])
    glyphs = _text_bitmaps(text, font, style, anchor)
    if glyphs is None:
        return (x, y, x, y)
    left, top, right, bottom, indices, mask = glyphs
    box = (x + left, y + top, x + right, y + bottom)
    image.paste(indices, box[:2], mask)
    return box


# Labels, numbers and names repeat from one picture to the next: draw each text once.
@lru_cache(maxsize=4096)
def _text_bitmaps(
    text: str, font: ImageFont.FreeTypeFont, style: TextStyle, anchor: str
) -> tuple[int, int, int, int, Image.Image, Image.Image] | None:
    """The offsets of ``text``'s box from its anchor, its palette indices and its mask."""
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    width, height = right - left, bottom - top
    if width <= 0 or height <= 0:
        return None
    coverage = Image.new("L", (width, height), 0)
    ImageDraw.Draw(coverage).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    indices, mask = ink(coverage, style)
    return left, top, right, bottom, indices, mask


def ink(coverage: Image.Image, style: TextStyle) -> tuple[Image.Image, Image.Image]:
    """Text drawn in white on black into the "L" image ``coverage``, as palette indices of
    ``style``'s ramp and the mask to paste them with."""
    # bytes.translate maps every coverage value through a table at C speed.
    raw = coverage.tobytes()
    indices = Image.frombytes("P", coverage.size, raw.translate(_ramp_table(style)))
    mask = Image.frombytes("L", coverage.size, raw.translate(_NONZERO))
    return indices, mask
