"""The invisible code points both name cleaners drop (bot messages and pictures alike)."""

from __future__ import annotations

import unicodedata

from engine import INVISIBLE_CODE_POINTS


def test_no_invisible_code_point_is_a_format_character_which_goes_by_its_category() -> None:
    categories = {unicodedata.category(chr(code)) for code in INVISIBLE_CODE_POINTS}
    assert "Cf" not in categories


def test_the_fillers_and_variation_selectors_are_invisible() -> None:
    fillers = ["HANGUL FILLER", "HANGUL CHOSEONG FILLER", "BRAILLE PATTERN BLANK"]
    selectors = ["VARIATION SELECTOR-1", "VARIATION SELECTOR-16", "VARIATION SELECTOR-256"]
    for name in [*fillers, *selectors, "COMBINING GRAPHEME JOINER"]:
        assert ord(unicodedata.lookup(name)) in INVISIBLE_CODE_POINTS, name
