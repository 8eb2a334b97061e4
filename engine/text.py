"""Text the players supply, such as their names: what of it shows as nothing.

The bot writes names into messages and the renderer draws them in pictures; both drop the
same invisible characters, so a name reads the same in both, and a copy of another
player's name made with a character nobody can see is caught as a copy.
"""

from __future__ import annotations

INVISIBLE_CODE_POINTS: frozenset[int] = frozenset(
    {
        0x034F,  # combining grapheme joiner
        0x115F,  # Hangul choseong filler
        0x1160,  # Hangul jungseong filler
        0x17B4,  # Khmer vowel inherent aq
        0x17B5,  # Khmer vowel inherent aa
        0x180B,  # Mongolian free variation selectors one to three
        0x180C,
        0x180D,
        0x180F,  # Mongolian free variation selector four
        0x2800,  # Braille pattern blank
        0x3164,  # Hangul filler
        0xFFA0,  # halfwidth Hangul filler
        *range(0xFE00, 0xFE10),  # variation selectors 1-16
        *range(0xE0100, 0xE01F0),  # variation selectors 17-256
    }
)
"""Code points outside category Cf that show as nothing (format characters go by their
category anyway): fillers, the blank Braille pattern, variation selectors, the combining
grapheme joiner. Test a character with ``ord(char) in INVISIBLE_CODE_POINTS``."""
