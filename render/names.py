"""Player names in pictures: any script, cleaned for display, shortened to fit.

A name is first cleaned (:func:`display_name`): invisible characters go, so two names that
look alike are drawn alike. Each character is then given the first face of
:data:`render.fonts.FACES` that covers it (spaces, digits, punctuation and marks stay with
the text around them), the runs of one face and one direction are put in visual order
(:mod:`render.bidi`), and each run is shaped by libraqm where Pillow has it. Runs sit on
the baseline of the UI font, so a name in several scripts reads as one line.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine import INVISIBLE_CODE_POINTS
from render import bidi
from render.fonts import FACES, SHAPING, coverage, face_font
from render.palette import TextStyle, ink

ELLIPSIS = "\u2026"
MISSING = "?"
"""Drawn for a character no bundled face has (say, Adlam), so a name is never blank."""
MAX_CHARS = 120
"""Longer names are cut before they are laid out: no picture has room for more."""

_ZWJ = "\u200d"
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _covered_anywhere(char: str) -> bool:
    return any(char in coverage(index) for index in range(len(FACES)))


def _emoji_like(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk")


@lru_cache(maxsize=1024)
def display_name(name: str) -> str:
    """``name`` as pictures show it: composed (NFC), without control, format, private-use
    and other invisible characters (a zero-width joiner stays only inside an emoji
    sequence), runs of white space as one space, characters no bundled face covers as
    ``?``; at most :data:`MAX_CHARS` characters; never empty."""
    kept: list[str] = []
    text = unicodedata.normalize("NFC", name)
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            kept.append(" ")
        elif char == _ZWJ:
            after = text[index + 1 : index + 2]
            if kept and _emoji_like(kept[-1]) and after and _emoji_like(after):
                kept.append(char)
        elif category in ("Cc", "Cf", "Cs", "Co") or ord(char) in INVISIBLE_CODE_POINTS:
            continue
        elif _covered_anywhere(char):
            kept.append(char)
        elif category[0] in "LNPS":
            kept.append(MISSING)
        # Other uncovered characters (marks, unassigned code points) are left out.
    cleaned = " ".join("".join(kept).split())
    return cleaned[:MAX_CHARS] or MISSING


@dataclass(frozen=True, slots=True)
class Run:
    """Part of a line drawn with one face in one direction; ``text`` is in drawing order
    when the line is not shaped, else in logical order."""

    text: str
    face: int
    rtl: bool


@dataclass(frozen=True, slots=True)
class Line:
    """A cleaned name laid out at one size: its runs from left to right, and its advance
    width in pixels."""

    text: str
    size: int
    runs: tuple[Run, ...]
    width: int
    shaping: bool


def _attaches(char: str) -> bool:
    """Marks, joiners and skin tones: always in the run of the character before."""
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me") or char == _ZWJ or ord(char) in _SKIN_TONES
    )


def _stays(char: str) -> bool:
    """Spaces, digits and punctuation: kept in the current run when its face has them."""
    strong = unicodedata.bidirectional(char) in ("L", "R", "AL")
    return not strong and not unicodedata.category(char).startswith("L")


def _faces(text: str) -> list[int]:
    """The face of each character: the first in the chain that covers it, unless it goes
    with the run before (the UI face for the rare character no face covers)."""
    chosen: list[int] = []
    for char in text:
        current = chosen[-1] if chosen else None
        if current is not None and (
            _attaches(char)
            or (_stays(char) and not FACES[current].emoji and char in coverage(current))
        ):
            chosen.append(current)
            continue
        chosen.append(next((i for i in range(len(FACES)) if char in coverage(i)), 0))
    return chosen


@lru_cache(maxsize=2048)
def layout(text: str, size: int, *, shaping: bool = SHAPING) -> Line:
    """``text`` (already a :func:`display_name`) laid out at ``size`` pixels."""
    faces = _faces(text)
    char_levels = bidi.levels(text)
    logical: list[tuple[int, int, str]] = []
    for char, face, level in zip(text, faces, char_levels, strict=True):
        if logical and logical[-1][:2] == (face, level):
            logical[-1] = (face, level, logical[-1][2] + char)
        else:
            logical.append((face, level, char))
    runs = []
    width = 0.0
    for face, level, chunk in bidi.reorder(logical, lambda run: run[1]):
        rtl = level % 2 == 1
        font = face_font(face, size, shaping=shaping)
        if shaping:
            width += font.getlength(chunk, direction="rtl" if rtl else "ltr")
            runs.append(Run(chunk, face, rtl))
        else:
            drawn = bidi.visual_form(chunk, coverage(face).__contains__) if rtl else chunk
            width += font.getlength(drawn)
            runs.append(Run(drawn, face, rtl))
    return Line(text, size, tuple(runs), round(width), shaping)


def _cut_points(text: str) -> list[int]:
    """Where ``text`` may be cut without splitting a character from its marks or an emoji
    sequence."""
    return [
        index
        for index in range(1, len(text))
        if not _attaches(text[index]) and text[index - 1] != _ZWJ
    ]


@lru_cache(maxsize=1024)
def fit_name(name: str, size: int, width: int, *, shaping: bool = SHAPING) -> Line:
    """``name`` cleaned and laid out at ``size``, shortened with an ellipsis if needed so
    that it is at most ``width`` pixels wide."""
    text = display_name(name)
    whole = layout(text, size, shaping=shaping)
    if whole.width <= width and len(text) < MAX_CHARS:
        return whole
    cuts = _cut_points(text)
    best = layout(ELLIPSIS, size, shaping=shaping)
    low, high = 0, len(cuts) - 1
    while low <= high:
        middle = (low + high) // 2
        candidate = layout(text[: cuts[middle]].rstrip() + ELLIPSIS, size, shaping=shaping)
        if candidate.width <= width:
            best = candidate
            low = middle + 1
        else:
            high = middle - 1
    return best


def draw_line(
    image: Image.Image,
    xy: tuple[float, float],
    line: Line,
    style: TextStyle,
    *,
    anchor: str = "lm",
) -> tuple[int, int, int, int]:
    """Draw ``line`` antialiased with its ``anchor`` at ``xy``: ``l``, ``m`` or ``r``
    across, then ``m`` (the UI font's middle) or ``s`` (the baseline) down. Returns the box
    it covers. The blends assume the pixels under the text are ``style.bg``."""
    horizontal, vertical = anchor[0], anchor[1]
    ascent, descent = face_font(0, line.size, shaping=line.shaping).getmetrics()
    baseline = xy[1] + ((ascent - descent) / 2 if vertical == "m" else 0)
    origin = xy[0] - {"l": 0.0, "m": line.width / 2, "r": float(line.width)}[horizontal]
    left, top, indices, mask = _line_bitmaps(line, style)
    x, y = round(origin) + left, round(baseline) + top
    image.paste(indices, (x, y), mask)
    return (x, y, x + indices.width, y + indices.height)


def _direction(run: Run, shaping: bool) -> str | None:
    if not shaping:
        return None
    return "rtl" if run.rtl else "ltr"


# Names repeat from one picture to the next: draw each once.
@lru_cache(maxsize=512)
def _line_bitmaps(line: Line, style: TextStyle) -> tuple[int, int, Image.Image, Image.Image]:
    """The offsets of ``line``'s box from its origin on the baseline, its palette indices
    and its mask."""
    placed: list[tuple[float, Run, ImageFont.FreeTypeFont]] = []
    left, top, right, bottom = 0, 0, 1, 1
    pen = 0.0
    for run in line.runs:
        font = face_font(run.face, line.size, shaping=line.shaping)
        direction = _direction(run, line.shaping)
        x0, y0, x1, y1 = font.getbbox(run.text, anchor="ls", direction=direction)
        left, top = min(left, int(pen + x0)), min(top, int(y0))
        right, bottom = max(right, int(pen + x1) + 1), max(bottom, int(y1))
        placed.append((pen, run, font))
        pen += font.getlength(run.text, direction=direction)
    coverage_image = Image.new("L", (right - left, bottom - top), 0)
    draw = ImageDraw.Draw(coverage_image)
    for x, run, font in placed:
        draw.text(
            (x - left, -top),
            run.text,
            font=font,
            fill=255,
            anchor="ls",
            direction=_direction(run, line.shaping),
        )
    indices, mask = ink(coverage_image, style)
    return left, top, indices, mask


def clear_caches() -> None:
    """Forget every name laid out and drawn (benchmarks measure fresh drawing)."""
    for cached in (display_name, layout, fit_name, _line_bitmaps):
        cached.cache_clear()


def fit_title(text: str, size: int, width: int, *, least: int) -> Line:
    """``text`` (a title, which may hold names) laid out whole at the largest size from
    ``size`` down to ``least`` at which it fits ``width`` pixels, else shortened at
    ``least``: a title in a longer language shrinks a little before it is cut."""
    whole = display_name(text)
    for candidate in range(size, least, -1):
        line = fit_name(text, candidate, width)
        if line.text == whole:
            return line
    return fit_name(text, least, width)
