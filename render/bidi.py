"""Right-to-left text in a line drawn as several runs: embedding levels, run order, and a
plain visual form for when Pillow cannot shape.

A name set through the font fallback becomes several runs (one per face), and libraqm only
orders the text inside one run, so the order of the runs is worked out here: a reduced form
of the Unicode bidirectional algorithm (UAX #9) for one line without explicit embeddings
(names are cleaned of those), rules W1, W7, N1, N2, I1, I2 and L2. Where libraqm is missing,
:func:`visual_form` turns a right-to-left run into left-to-right drawing order itself, with
Arabic letters in their joined presentation forms.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

T = TypeVar("T")

_LTR, _RTL, _NUMBER, _NEUTRAL = "L", "R", "N", "X"


def _kinds(text: str) -> list[str]:
    kinds: list[str] = []
    for char in text:
        bidi = unicodedata.bidirectional(char)
        if bidi == "NSM" and kinds:
            kind = kinds[-1]  # W1: a mark takes the kind of its base.
        elif bidi == "L":
            kind = _LTR
        elif bidi in ("R", "AL"):
            kind = _RTL
        elif bidi in ("EN", "AN"):
            kind = _NUMBER
        else:
            kind = _NEUTRAL
        kinds.append(kind)
    return kinds


def base_level(text: str) -> int:
    """The paragraph level of ``text``: 1 (right to left) when its first strong character
    is right-to-left, else 0."""
    for kind in _kinds(text):
        if kind in (_LTR, _RTL):
            return 1 if kind == _RTL else 0
    return 0


def levels(text: str) -> list[int]:
    """The embedding level of each character of ``text`` (even: left to right)."""
    kinds = _kinds(text)
    base = base_level(text)
    outer = _RTL if base else _LTR
    # W7: a number after left-to-right text (or at the start of a left-to-right line) is
    # part of it.
    strong = outer
    for index, kind in enumerate(kinds):
        if kind in (_LTR, _RTL):
            strong = kind
        elif kind == _NUMBER and strong == _LTR:
            kinds[index] = _LTR
    # N1, N2: neutrals between two runs of one direction take it (numbers count as
    # right-to-left), other neutrals take the paragraph's.
    index = 0
    while index < len(kinds):
        if kinds[index] != _NEUTRAL:
            index += 1
            continue
        end = index
        while end < len(kinds) and kinds[end] == _NEUTRAL:
            end += 1
        before = _direction(kinds[index - 1]) if index > 0 else outer
        after = _direction(kinds[end]) if end < len(kinds) else outer
        kinds[index:end] = [before if before == after else outer] * (end - index)
        index = end
    # I1, I2.
    table = {_LTR: 2 * base, _RTL: 1, _NUMBER: 2}
    return [table[kind] for kind in kinds]


def _direction(kind: str) -> str:
    return _LTR if kind == _LTR else _RTL


def reorder(items: Sequence[T], level_of: Callable[[T], int]) -> list[T]:
    """``items`` (runs of one level each, in logical order) in visual order, left to right
    (rule L2: from the highest level down to 1, reverse every sequence at that level or
    above)."""
    ordered = list(items)
    item_levels = [level_of(item) for item in ordered]
    for level in range(max(item_levels, default=0), 0, -1):
        index = 0
        while index < len(ordered):
            if item_levels[index] < level:
                index += 1
                continue
            end = index
            while end < len(ordered) and item_levels[end] >= level:
                end += 1
            ordered[index:end] = ordered[index:end][::-1]
            item_levels[index:end] = item_levels[index:end][::-1]
            index = end
    return ordered


_OPENING, _CLOSING = "([{<\u00ab\u2039", ")]}>\u00bb\u203a"
_MIRRORED = dict(zip(_OPENING + _CLOSING, _CLOSING + _OPENING, strict=True))


def visual_form(text: str, covered: Callable[[str], bool]) -> str:
    """A right-to-left run of ``text`` in the order to draw it left to right without a
    shaper: Arabic letters in their joined presentation forms where ``covered`` says the
    face has them, brackets mirrored, the characters reversed. Vowel marks (Hebrew niqqud,
    Arabic harakat) are left out: without a shaper they land beside their letter, not on
    it, and names read well without them."""
    shaped = _join_arabic(text, covered)
    kept = [_MIRRORED.get(c, c) for c in shaped if unicodedata.category(c) not in ("Mn", "Me")]
    return "".join(reversed(kept))


_FORMS = ("ISOLATED", "FINAL", "INITIAL", "MEDIAL")
_TATWEEL = "\u0640"
_LAM = "\u0644"


@cache
def _forms(char: str) -> dict[str, str]:
    """The presentation forms Unicode has for an Arabic letter (none for other characters)."""
    name = unicodedata.name(char, "")
    if not name.startswith("ARABIC LETTER "):
        return {}
    found = {}
    for form in _FORMS:
        try:
            found[form] = unicodedata.lookup(f"{name} {form} FORM")
        except KeyError:
            continue
    return found


def _joins_forward(char: str) -> bool:
    """Whether ``char`` connects to the letter after it (dual-joining)."""
    return char == _TATWEEL or "INITIAL" in _forms(char)


def _joins_back(char: str) -> bool:
    return char == _TATWEEL or "FINAL" in _forms(char)


@cache
def _lam_alef(alef: str, final: bool) -> str | None:
    name = unicodedata.name(alef, "")
    if not name.startswith("ARABIC LETTER ALEF"):
        return None
    form = "FINAL" if final else "ISOLATED"
    try:
        return unicodedata.lookup(f"ARABIC LIGATURE LAM WITH {name[14:]} {form} FORM")
    except KeyError:
        return None


def _join_arabic(text: str, covered: Callable[[str], bool]) -> str:
    letters = [i for i, c in enumerate(text) if unicodedata.category(c) not in ("Mn", "Me")]
    out = list(text)
    skip: set[int] = set()
    for place, index in enumerate(letters):
        if index in skip:
            continue
        char = text[index]
        before = text[letters[place - 1]] if place > 0 else ""
        after = text[letters[place + 1]] if place + 1 < len(letters) else ""
        back = bool(before) and _joins_forward(before) and _joins_back(char)
        if char == _LAM and after:
            ligature = _lam_alef(after, back)
            if ligature is not None and covered(ligature):
                out[index] = ligature
                out[letters[place + 1]] = ""
                skip.add(letters[place + 1])
                continue
        forward = bool(after) and _joins_forward(char) and _joins_back(after)
        form = {
            (False, False): "ISOLATED",
            (True, False): "FINAL",
            (False, True): "INITIAL",
            (True, True): "MEDIAL",
        }[back, forward]
        shaped = _forms(char).get(form)
        if shaped is not None and covered(shaped):
            out[index] = shaped
    return "".join(out)
