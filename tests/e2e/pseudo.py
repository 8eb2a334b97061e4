"""The pseudo-locale's reader: finds every text the bot sent that escaped translation.

In the pseudo-locale (``en-XA``) every translated text comes wrapped as ``⟦text¤¤¤⟧``. The
local Discord server hands this reader each text the bot sends people (see
``fakediscord.protocol.TEXTS``); it notes any word outside the brackets that is not a name, a
mention, a link, a number or a command, and gives back the text with the brackets and padding
taken off, so the tests' English expectations hold in either locale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

OPEN, CLOSE, PAD = "⟦", "⟧", "¤"

_SAFE = re.compile(
    r"<(?:@[!&]?|#)\d+>"  # mentions of people, roles and channels
    r"|<t:-?\d+(?::\w)?>"  # Discord's timestamps, which every client writes in its language
    r"|<a?:\w+:\d+>"  # custom emoji
    r"|\]\([^)]*\)"  # a link's address
    r"|https?://\S+"
    r"|`[^`]*`"  # code: commands, options and what people type
    r"|\b\w*\d\w*\b"  # words with a digit: numbers, coordinates, ids
    r"|\bcascadia-\S+"  # file names
    r"|\b\w+\.(?:png|json|txt|gif)\b"
    r"|\b[A-Z]\w+/[\w/+-]+"  # time zones, named as the IANA database names them
    r"|\(seat \d+\)"  # a part of a name: look-alike names told apart, the same in every record
)
_WORD = re.compile(r"[^\W\d_]{2,}")


def outside(text: str) -> str:
    """The parts of ``text`` outside every ``⟦ ⟧`` (what was not translated)."""
    depth, kept = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def plain(text: str) -> str:
    """``text`` without the pseudo-locale's brackets and padding: its English."""
    return re.sub(f"{PAD}*{CLOSE}", "", text).replace(OPEN, "")


@dataclass
class PseudoReader:
    """Reads the bot's texts in the pseudo-locale; ``escaped`` lists what was not translated.

    ``names`` gives the names that are not the bot's to translate (people's, the server's,
    channels' and roles'), asked for only when a text has words outside the brackets.
    """

    names: Callable[[], Iterable[str]]
    escaped: list[str] = field(default_factory=list)
    read_back: set[str] = field(default_factory=set)
    """The lines this reader gave back in English: the bot may read a message of its own back
    from Discord and send it again (after a restart), as English as the server then holds it."""

    def __call__(self, key: str, text: str) -> str:
        english = plain(text)
        fresh = "\n".join(line for line in text.split("\n") if line not in self.read_back)
        self.read_back.update(english.split("\n"))
        rest = _SAFE.sub(" ", outside(fresh))
        words = _WORD.findall(rest)
        if words:
            known = {word for name in self.names() for word in _WORD.findall(name)}
            words = [w for w in words if w not in known]
        if words:
            self.escaped.append(f"{key}: {' '.join(words)!r} in {text!r}")
        return english
