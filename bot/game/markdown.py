"""Discord markdown escaping for names in message text, without importing discord.

The same rule as ``discord.utils.escape_markdown`` with its defaults (a test compares them):
every markdown character gets a backslash, links are left alone.
"""

from __future__ import annotations

import re

_MARKDOWN = r"(?P<markdown>[_\\~|\*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)"
_URL = r"(?P<url><[^: >]+:\/[^ >]+>|(?:https?|steam):\/\/[^\s<]+[^<.,:;\"\'\]\s])"
_PATTERN = re.compile(f"(?:{_URL}|{_MARKDOWN})", re.MULTILINE)


def escape_markdown(text: str) -> str:
    """``text`` with Discord's markdown characters escaped and links kept as they are."""
    return _PATTERN.sub(_replacement, text)


def _replacement(match: re.Match[str]) -> str:
    url = match["url"]
    return url if url else "\\" + match["markdown"]
