"""PNG encoding with fixed settings: no timestamps or metadata, so equal pictures give
equal bytes."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

COMPRESS_LEVEL = 6
"""zlib's default: palette pictures encode in a few milliseconds at it; level 9 and
``optimize`` cost several times as much for a few percent."""


def encode(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    buffer = BytesIO()
    image.save(buffer, "PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()
