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


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """Discord's link to a message, or to its channel (or thread) without ``message_id``."""
    channel = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return channel if message_id is None else f"{channel}/{message_id}"
