"""Members' names as the bot writes them: cleaned, told apart, and harmless in a message.

A display name is the member's to choose, so it may hide characters that show as nothing,
copy another member's name, or spell Discord's mention syntax (``<@id>``, ``<@&id>``,
``<#id>``, ``</command:id>``, ``@everyone``). :func:`seat_names` gives each seated player a
visible name unique in the game (the pictures draw the same names); :func:`safe` writes one
into message text so that it reads as typed and mentions, pings and markdown nobody.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from bot.game.markdown import escape_markdown
from engine import INVISIBLE_CODE_POINTS

MAX_NAME = 80
"""Longer names are cut: no message needs more, and a sheet column has no room."""
NO_NAME = "?"

_ZERO_WIDTH_SPACE = "\u200b"
_ZWJ = "\u200d"
# The start of every mention Discord renders: users, roles, channels, slash commands.
_MENTION_START = re.compile(r"<(?=[@#/])")
_EVERYONE = re.compile(r"@(?=everyone|here)", re.IGNORECASE)


def clean(name: str) -> str:
    """``name`` as it shows: composed (NFC), without control, format, private-use and other
    invisible characters (a zero-width joiner stays inside an emoji sequence), white space
    runs as one space, at most :data:`MAX_NAME` characters, never empty."""
    text = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            kept.append(" ")
        elif char == _ZWJ:
            after = text[index + 1 : index + 2]
            if kept and _pictographic(kept[-1]) and after and _pictographic(after):
                kept.append(char)
        elif (
            category not in ("Cc", "Cf", "Cs", "Co", "Cn")
            and ord(char) not in INVISIBLE_CODE_POINTS
        ):
            kept.append(char)
    cleaned = " ".join("".join(kept).split())
    return cleaned[:MAX_NAME].rstrip() or NO_NAME


def seat_names(names: Sequence[str]) -> list[str]:
    """The players' names in seat order, cleaned, with names that would look the same told
    apart by their seat number: ``["Sam (seat 1)", "Ada", "Sam (seat 3)"]``.

    Score sheets rank players by name, so the names must differ; comparing cleaned names
    without case catches a copy made with an invisible character or another capital.
    """
    cleaned = [clean(name) for name in names]
    counts = Counter(name.casefold() for name in cleaned)
    unique = [
        f"{name} (seat {seat})" if counts[name.casefold()] > 1 else name
        for seat, name in enumerate(cleaned, start=1)
    ]
    if len({name.casefold() for name in unique}) < len(unique):
        # A member named like another's disambiguated name ("Sam (seat 3)"): number them all.
        unique = [f"{name} (seat {seat})" for seat, name in enumerate(cleaned, start=1)]
    return unique


def safe(name: str) -> str:
    """``name`` for message text: markdown escaped, and mention syntax broken with a
    zero-width space, so that it shows as typed but never as a live mention."""
    text = escape_markdown(name)
    text = _MENTION_START.sub("<" + _ZERO_WIDTH_SPACE, text)
    return _EVERYONE.sub("@" + _ZERO_WIDTH_SPACE, text)


def _pictographic(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk")
