"""Habitats and wildlife differ by shape or pattern, not only by colour."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import Habitat, Wildlife
from render import glyphs, theme


def _silhouette(wildlife: Wildlife, radius: int = 30) -> Image.Image:
    mask = Image.new("L", (2 * radius + 4, 2 * radius + 4), 0)
    glyphs.draw_wildlife(
        ImageDraw.Draw(mask), wildlife, radius + 2, radius + 2, radius, 255, hole=255
    )
    return mask


def _pattern(habitat: Habitat, size: int = 40) -> Image.Image:
    """Where the habitat's pattern is drawn, whatever its colours."""
    sprite = glyphs.habitat_sprite(habitat, size)
    fill = theme.HABITAT_FILL[habitat]
    return sprite.point([0 if i == fill else 255 for i in range(256)], "L")


def _share_differing(a: Image.Image, b: Image.Image) -> float:
    differ = ImageChops.logical_xor(a.convert("1"), b.convert("1")).histogram()[255]
    union = ImageChops.logical_or(a.convert("1"), b.convert("1")).histogram()[255]
    return differ / union


@pytest.mark.parametrize(("a", "b"), list(combinations(Wildlife, 2)))
def test_wildlife_silhouettes_differ(a: Wildlife, b: Wildlife) -> None:
    # At least a quarter of the area the two cover differs (bear and fox heads both have
    # ears; one is round, the other pointed).
    assert _share_differing(_silhouette(a), _silhouette(b)) > 0.25


@pytest.mark.parametrize(("a", "b"), list(combinations(Habitat, 2)))
def test_habitat_patterns_differ(a: Habitat, b: Habitat) -> None:
    assert _share_differing(_pattern(a), _pattern(b)) > 0.4


@pytest.mark.parametrize("habitat", list(Habitat))
def test_every_habitat_has_a_visible_pattern(habitat: Habitat) -> None:
    coverage = _pattern(habitat).histogram()[255] / (glyphs.sprite_box(40)[0] * 80)
    assert 0.04 < coverage < 0.5
    fill, ink = theme.HABITAT_RGB[habitat]
    # The pattern stands out from its ground in lightness, not only in hue.
    assert abs(sum(fill) - sum(ink)) > 120


@pytest.mark.parametrize("size", [20, 27, 58])
@pytest.mark.parametrize("rotation", range(6))
def test_split_masks_cover_half_a_hex(size: int, rotation: int) -> None:
    whole = glyphs.hex_mask(size).histogram()[255]
    half = glyphs.hex_mask(size, rotation).histogram()[255]
    assert half == pytest.approx(whole / 2, rel=0.08)
