"""Which characters a TrueType or OpenType font has glyphs for, read from its ``cmap`` table.

Pillow draws a missing character as the font's "missing glyph" box and cannot say whether a
character is covered, so the font fallback reads the character map itself: the Unicode
subtables of format 4 (the Basic Multilingual Plane) and 12 (all planes), which every font
the package ships has. Standard library only.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from collections.abc import Iterable

# (platform, encoding) of the Unicode subtables, the full-repertoire ones first.
_UNICODE_SUBTABLES = ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3), (0, 1), (0, 0))


class Coverage:
    """A set of code points kept as sorted, disjoint ``[start, end]`` ranges."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str) or len(char) != 1:
            return False
        code = ord(char)
        index = bisect_right(self._starts, code) - 1
        return index >= 0 and code <= self._ends[index]

    def __len__(self) -> int:
        return sum(end - start + 1 for start, end in zip(self._starts, self._ends, strict=True))

    def __repr__(self) -> str:
        return f"Coverage({len(self._starts)} ranges, {len(self)} code points)"


class FontFormatError(ValueError):
    """The data is not a font with a Unicode character map this module can read."""


def read_coverage(data: bytes) -> Coverage:
    """The code points that the font in ``data`` (a TrueType or OpenType file) maps to a
    glyph other than the missing-glyph box."""
    table = _table(data, b"cmap")
    _, count = struct.unpack_from(">HH", data, table)
    subtables: dict[tuple[int, int], int] = {}
    for index in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, table + 4 + 8 * index)
        subtables.setdefault((platform, encoding), table + offset)
    for key in _UNICODE_SUBTABLES:
        start = subtables.get(key)
        if start is None:
            continue
        (fmt,) = struct.unpack_from(">H", data, start)
        if fmt == 12:
            return Coverage(_format12(data, start))
        if fmt == 4:
            return Coverage(_format4(data, start))
    raise FontFormatError("no Unicode character map of format 4 or 12")


def _table(data: bytes, tag: bytes) -> int:
    if data[:4] == b"ttcf":
        raise FontFormatError("font collections are not supported")
    (count,) = struct.unpack_from(">H", data, 4)
    for index in range(count):
        entry_tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if entry_tag == tag:
            return int(offset)
    raise FontFormatError(f"no {tag.decode()} table")


def _format12(data: bytes, start: int) -> list[tuple[int, int]]:
    (groups,) = struct.unpack_from(">I", data, start + 12)
    ranges = []
    for index in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * index)
        if glyph == 0:
            # A group starting at the missing glyph covers all but its first code point.
            first += 1
        if first <= last:
            ranges.append((first, last))
    return ranges


def _format4(data: bytes, start: int) -> list[tuple[int, int]]:
    (doubled,) = struct.unpack_from(">H", data, start + 6)
    segments = doubled // 2
    ends_at = start + 14
    starts_at = ends_at + doubled + 2
    deltas_at = starts_at + doubled
    range_offsets_at = deltas_at + doubled
    ranges = []
    for index in range(segments):
        (end,) = struct.unpack_from(">H", data, ends_at + 2 * index)
        (first,) = struct.unpack_from(">H", data, starts_at + 2 * index)
        (delta,) = struct.unpack_from(">h", data, deltas_at + 2 * index)
        where = range_offsets_at + 2 * index
        (range_offset,) = struct.unpack_from(">H", data, where)
        if first == 0xFFFF:
            continue
        if range_offset == 0:
            # Glyph = code + delta (mod 65536); only one code can land on glyph 0.
            missing = (-delta) % 0x10000
            if first <= missing <= end:
                ranges += [(first, missing - 1), (missing + 1, end)]
            else:
                ranges.append((first, end))
            continue
        for code in range(first, end + 1):
            (glyph,) = struct.unpack_from(">H", data, where + range_offset + 2 * (code - first))
            if glyph != 0 and (glyph + delta) % 0x10000 != 0:
                ranges.append((code, code))
    return [(a, b) for a, b in ranges if a <= b]
