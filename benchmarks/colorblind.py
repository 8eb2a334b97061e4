"""How far apart the habitats are on a phone for colour-blind players, and the measuring that
``tests/render/test_colorblind.py`` holds to a threshold.

Run from the repository root: ``PYTHONPATH=. python benchmarks/colorblind.py`` or
``python -m benchmarks.colorblind``. For a usual late-game environment picture and for a
long line of tiles (the smallest hexes), each habitat's hex (its colour and pattern, drawn as
the pictures draw it) is scaled (area average) to the picture shown 360 px wide, seen through
Machado, Oliveira and Fernandes' (2009) simulations at severity 1.0, applied in linear RGB,
and its interior's mean colour taken in CIELAB. It prints, per vision, the CIE76 ΔE of the
three closest pairs of habitats, then each habitat's mean lightness L* and how much of its
pattern still shows (the standard deviation of L* inside the hex). Plain Pillow and
arithmetic (the project has no numpy): the hexes are a few hundred pixels.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from PIL import Image, ImageFilter

from benchmarks import positions
from engine import Habitat
from render import glyphs
from render.environment import plan_environment

Matrix = tuple[tuple[float, float, float], ...]
Lab = tuple[float, float, float]

MACHADO: dict[str, Matrix] = {
    # Machado et al. 2009, severity 1.0, for linear RGB.
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""The simulations, by the colour vision they stand for."""

PHONE_WIDTH = 360
"""The width (CSS pixels) a picture is shown at on a 390 px wide phone, Discord's margins
off."""
MIN_DELTA_E = 20.0
"""Two habitats at least this far apart (CIE76 ΔE) in every simulation, at phone size. 2.3 is
just noticeable side by side and about 10 clear on large patches; a hex on a phone is small
(10 to 25 px) and seen among others, and small marks need far larger differences to be told
apart (Szafir, 2018), so twice that."""


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(linear: float) -> float:
    c = min(1.0, max(0.0, linear))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: tuple[int, int, int], vision: str | None) -> tuple[float, float, float]:
    """``rgb`` (sRGB, 0-255) as seen with ``vision`` (a key of :data:`MACHADO`; None:
    unchanged)."""
    if vision is None:
        return (float(rgb[0]), float(rgb[1]), float(rgb[2]))
    lin = [_linear(c) for c in rgb]
    return tuple(  # type: ignore[return-value]
        _encoded(sum(m * c for m, c in zip(row, lin, strict=True))) for row in MACHADO[vision]
    )


def lab(rgb: Iterable[float]) -> Lab:
    """CIELAB (D65) of an sRGB colour given as 0-255 floats."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a: Lab, b: Lab) -> float:
    """CIE76 ΔE: the straight distance in CIELAB."""
    return math.dist(a, b)


def phone_hex(habitat: Habitat, hex_size: int, picture_width: int) -> Image.Image:
    """The hex of ``habitat`` as a picture ``picture_width`` wide with hexes of ``hex_size``
    draws it, scaled (area average) to that picture shown :data:`PHONE_WIDTH` wide: RGB."""
    sprite = glyphs.habitat_sprite(habitat, hex_size).convert("RGB")
    scale = PHONE_WIDTH / picture_width
    size = (max(1, round(sprite.width * scale)), max(1, round(sprite.height * scale)))
    return sprite.resize(size, Image.Resampling.BOX)


def _interior(hex_size: int, size: tuple[int, int]) -> Image.Image:
    """The hex's inside at ``size``, a pixel in from its edge (where the outline goes)."""
    mask = glyphs.hex_mask(hex_size).resize(size, Image.Resampling.BOX)
    mask = mask.point(lambda v: 255 if v == 255 else 0)
    return mask.filter(ImageFilter.MinFilter(3))


@dataclass(frozen=True, slots=True)
class Seen:
    """A habitat's hex at phone size as one vision sees it: its mean colour (CIELAB) and how
    much of its pattern shows (the standard deviation of lightness L* inside it)."""

    mean: Lab
    texture: float


def seen(habitat: Habitat, vision: str | None, hex_size: int, picture_width: int) -> Seen:
    """``habitat``'s hex interior at phone size, through ``vision``."""
    image = phone_hex(habitat, hex_size, picture_width)
    mask = _interior(hex_size, image.size)
    data, inside = image.tobytes(), mask.tobytes()
    pixels = [
        lab(simulate((data[3 * i], data[3 * i + 1], data[3 * i + 2]), vision))
        for i in range(len(inside))
        if inside[i]
    ]
    mean = tuple(sum(p[k] for p in pixels) / len(pixels) for k in range(3))
    spread = math.sqrt(sum((p[0] - mean[0]) ** 2 for p in pixels) / len(pixels))
    return Seen(mean, spread)  # type: ignore[arg-type]


def pair_distances(
    vision: str | None, hex_size: int, picture_width: int
) -> dict[tuple[Habitat, Habitat], float]:
    """ΔE between the mean colours of every pair of habitats, as :func:`seen`."""
    means = {h: seen(h, vision, hex_size, picture_width).mean for h in Habitat}
    return {(a, b): delta_e(means[a], means[b]) for a, b in combinations(Habitat, 2)}


@cache
def pictures() -> dict[str, tuple[int, int]]:
    """Hex size and picture width of a usual late-game environment (the largest hexes) and
    of a long line of tiles (the smallest, in the widest picture)."""
    late = plan_environment(positions.late_four_player().seats[0].environment)
    line = plan_environment(positions.straight_line().seats[0].environment)
    return {"late game": (late.hex_size, late.width), "long line": (line.hex_size, line.width)}


def main() -> None:
    print(f"habitats at phone size ({PHONE_WIDTH} px wide), CIE76 ΔE, threshold {MIN_DELTA_E:g}")
    for picture, (hex_size, width) in pictures().items():
        shown = round(hex_size * PHONE_WIDTH / width, 1)
        print(f"\n{picture}: {width} px wide, hexes {hex_size} px, {shown} px on the phone")
        print(f"  {'vision':<13} closest pairs")
        for vision in [None, *MACHADO]:
            pairs = sorted(pair_distances(vision, hex_size, width).items(), key=lambda p: p[1])
            closest = ", ".join(f"{a}-{b} {d:.1f}" for (a, b), d in pairs[:3])
            print(f"  {vision or 'normal':<13} {closest}")
        for vision in (None, "deuteranopia"):
            looks = [seen(h, vision, hex_size, width) for h in Habitat]
            row = ", ".join(
                f"{h} {s.mean[0]:.0f} ±{s.texture:.1f}" for h, s in zip(Habitat, looks, strict=True)
            )
            print(f"  L* ± pattern, {vision or 'normal'}: {row}")


if __name__ == "__main__":
    main()
