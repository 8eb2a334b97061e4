"""Golden-image comparison: a rendered PNG against ``tests/render/golden/NAME.png``.

Pictures are compared pixel by pixel with a small tolerance (a different FreeType or zlib
may shift a few antialiased pixels; it never moves a tile). A failing comparison writes
the picture it got beside the expected one as ``NAME.actual.png`` (git-ignored) to look
at. Golden files change only on purpose: run the tests with ``CASCADIA_REGEN_GOLDEN=1``.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.golden import REGENERATE

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

CHANNEL_TOLERANCE = 40
"""A pixel counts as different when a channel moved by more than this (out of 255)."""
PIXEL_TOLERANCE = 0.001
"""The share of pixels that may differ before the comparison fails."""


def differing_share(expected: Image.Image, actual: Image.Image) -> float:
    """The share of pixels whose colour differs by more than :data:`CHANNEL_TOLERANCE`."""
    diff = ImageChops.difference(expected.convert("RGB"), actual.convert("RGB"))
    worst = ImageChops.lighter(
        ImageChops.lighter(diff.getchannel("R"), diff.getchannel("G")), diff.getchannel("B")
    )
    histogram = worst.histogram()
    different = sum(histogram[CHANNEL_TOLERANCE + 1 :])
    return different / (expected.width * expected.height)


def assert_matches_golden(name: str, png: bytes) -> None:
    """Compare ``png`` with the golden image ``name`` (or rewrite it when regenerating)."""
    expected_path = GOLDEN_DIR / f"{name}.png"
    actual_path = GOLDEN_DIR / f"{name}.actual.png"
    if REGENERATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        expected_path.write_bytes(png)
        actual_path.unlink(missing_ok=True)
        return
    if not expected_path.exists():
        actual_path.write_bytes(png)
        pytest.fail(f"no golden image {expected_path.name}; run with CASCADIA_REGEN_GOLDEN=1")
    actual = Image.open(BytesIO(png))
    with Image.open(expected_path) as expected:
        if expected.size != actual.size:
            actual_path.write_bytes(png)
            pytest.fail(f"{name}: size {actual.size} != golden {expected.size}; see {actual_path}")
        share = differing_share(expected, actual)
    if share > PIXEL_TOLERANCE:
        actual_path.write_bytes(png)
        pytest.fail(
            f"{name}: {share:.2%} of pixels differ from the golden image; see {actual_path}"
        )
    actual_path.unlink(missing_ok=True)
