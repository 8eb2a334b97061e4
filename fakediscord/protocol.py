"""Discord's wire vocabulary as this server uses it: bit flags, limits, defaults, errors.

Values follow Discord's API v10 as discord.py 2.x parses it. Permission, message-flag and
intent bits are Discord's own; payload defaults fill the fields discord.py reads with a
``KeyError`` when they are missing (see ``fakediscord/README.md`` for the facts behind them).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Final

from aiohttp import BodyPartReader, web

__all__ = [
    "ADMINISTRATOR",
    "ATTACH_FILES",
    "COMPONENTS_V2",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "JSON",
    "MANAGE_CHANNELS",
    "MANAGE_GUILD",
    "MANAGE_THREADS",
    "READ_MESSAGE_HISTORY",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "VIEW_CHANNEL",
]

JSON = dict[str, Any]
"""A JSON object as sent or received."""
Files = dict[int, tuple[str, bytes, str]]
"""Uploaded files by their ``files[n]`` index: file name, data, content type."""

ADMINISTRATOR: Final = 1 << 3
MANAGE_CHANNELS: Final = 1 << 4
MANAGE_GUILD: Final = 1 << 5
"""Manage Server, in Discord's settings."""
VIEW_CHANNEL: Final = 1 << 10
SEND_MESSAGES: Final = 1 << 11
EMBED_LINKS: Final = 1 << 14
ATTACH_FILES: Final = 1 << 15
READ_MESSAGE_HISTORY: Final = 1 << 16
MENTION_EVERYONE: Final = 1 << 17
MANAGE_THREADS: Final = 1 << 34
CREATE_PUBLIC_THREADS: Final = 1 << 35
CREATE_PRIVATE_THREADS: Final = 1 << 36
SEND_MESSAGES_IN_THREADS: Final = 1 << 38
DEFAULT_EVERYONE_PERMISSIONS: Final = (
    (1 << 6)
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | (1 << 18)
    | (1 << 31)
    | SEND_MESSAGES_IN_THREADS
)
"""View channel, send messages (also in threads), embed links, attach files, read history,
and the like."""
SENDING_PERMISSIONS: Final = (
    SEND_MESSAGES | SEND_MESSAGES_IN_THREADS | EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE
)
"""What a member cannot use in a channel where they may not send messages (Discord's rule)."""
DEFAULT_BOT_PERMISSIONS: Final = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_CHANNELS | (1 << 13)
"""The everyone permissions plus Manage Channels and Manage Messages."""
ALL_PERMISSIONS: Final = (1 << 53) - 1

EPHEMERAL: Final = 1 << 6
LOADING: Final = 1 << 7
SUPPRESS_EMBEDS: Final = 1 << 2
SUPPRESS_NOTIFICATIONS: Final = 1 << 12
COMPONENTS_V2: Final = 1 << 15
"""IS_COMPONENTS_V2: the message is its components (no content); set for good once set."""
KEPT_FLAGS: Final = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
"""Message flags a bot may set when it creates a message."""

INTENT_MEMBERS: Final = 1 << 1
INTENT_PRESENCES: Final = 1 << 8
INTENT_GUILD_MESSAGES: Final = 1 << 9
INTENT_DIRECT_MESSAGES: Final = 1 << 12
INTENT_MESSAGE_CONTENT: Final = 1 << 15
PRIVILEGED_INTENTS: Final = INTENT_MEMBERS | INTENT_PRESENCES | INTENT_MESSAGE_CONTENT

DISCORD_EPOCH_MS: Final = 1_420_070_400_000
ATTACHMENT_SIZE_LIMIT: Final = 10 * 1024 * 1024
MAX_CONTENT: Final = 2000
MAX_STRING_OPTION: Final = 6000  # Discord's cap on a string option value
THREAD_TYPES: Final = frozenset({10, 11, 12})
"""Channel types of threads (announcement, public, private)."""
DM_CHANNEL: Final = 1
PUBLIC_THREAD: Final = 11
PRIVATE_THREAD: Final = 12
MAX_THREAD_NAME: Final = 100
AUTO_ARCHIVE_DURATIONS: Final = frozenset({60, 1440, 4320, 10080})
"""The minutes of inactivity after which Discord may archive a thread: the only values taken."""
USER_MENTION: Final = re.compile(r"<@!?(\d+)>")
ROLE_MENTION: Final = re.compile(r"<@&(\d+)>")
PNG: Final = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
"""A 1x1 PNG, served for every CDN path that is not an attachment."""

# fmt: off
MEMBER_DEFAULTS: Final[JSON] = {
    "flags": 0, "deaf": False, "mute": False, "pending": False, "nick": None, "avatar": None,
    "premium_since": None, "communication_disabled_until": None,
}
CHANNEL_DEFAULTS: Final[JSON] = {
    "permission_overwrites": [], "topic": None, "nsfw": False, "parent_id": None,
    "last_message_id": None, "rate_limit_per_user": 0,
}
GUILD_DEFAULTS: Final[JSON] = {
    "icon": None, "features": [], "threads": [], "emojis": [], "stickers": [], "presences": [],
    "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
    "unavailable": False, "large": False, "preferred_locale": "en-US", "verification_level": 0,
    "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
    "nsfw_level": 0, "premium_tier": 0, "system_channel_id": None, "afk_timeout": 300,
}
# fmt: on

ALLOWED_CALLBACKS: Final[Mapping[int, frozenset[int]]] = {
    2: frozenset({4, 5, 9}),
    3: frozenset({4, 5, 6, 7, 9}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7}),
}
"""Which callback types Discord accepts for each interaction type."""


class ApiError(Exception):
    """A Discord error answer: HTTP ``status`` with Discord's JSON error ``code``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def now_iso() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json``."""
    # discord.py compares the header with ==, so aiohttp's "; charset=utf-8" breaks it.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def walk_components(components: Iterable[JSON]) -> Generator[JSON, None, None]:
    """Every component of a message's component tree, depth first."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


TextHook = Callable[[str, str], str]
"""What a test does with every text the bot sends people: ``(key, text) -> text`` (key is the
JSON field, such as ``content``, ``label`` or ``description``), given to :class:`DiscordServer`
as ``texts``: it may inspect the text and give back what Discord is to keep."""

TEXTS: Final[web.AppKey[TextHook]] = web.AppKey("texts")

TEXT_KEYS: Final = frozenset({"content", "label", "placeholder", "title", "description", "name"})
"""The fields of a message, interaction answer or thread that people read (``name``: a
thread's, an embed field's, an autocomplete choice's); ``value`` too inside embed fields."""


def pass_texts(body: Any, hook: TextHook, *, parent: str = "") -> Any:
    """``body`` with every text people read (see :data:`TEXT_KEYS`) passed through ``hook``."""
    if isinstance(body, list):
        return [pass_texts(item, hook, parent=parent) for item in body]
    if not isinstance(body, dict):
        return body
    out: JSON = {}
    for key, value in body.items():
        readable = key in TEXT_KEYS or (key == "value" and parent == "fields")
        if key == "name" and parent == "attachments":
            readable = False  # a file's name
        if isinstance(value, str) and readable:
            out[key] = hook(key, value)
        elif key in ("components", "embeds", "attachments", "fields", "choices", "data"):
            out[key] = pass_texts(value, hook, parent=key)
        elif isinstance(value, dict | list):
            out[key] = pass_texts(value, hook, parent=parent)
        else:
            out[key] = value
    return out


async def read_body(request: web.Request) -> tuple[Any, Files]:
    """The JSON body of a request, and its files when it is multipart, with every text people
    read passed through the server's :data:`TEXTS` hook when it has one.

    Multipart bodies carry the JSON in the field ``payload_json`` and the files in
    ``files[0]``, ``files[1]``, ...; the JSON's ``attachments`` map each index to a file.
    """
    body, files = await _read_body(request)
    hook = request.app.get(TEXTS)
    return (body if hook is None else pass_texts(body, hook)), files


async def _read_body(request: web.Request) -> tuple[Any, Files]:
    files: Files = {}
    if not request.content_type.startswith("multipart/"):
        return (await request.json() if request.body_exists else {}), files
    payload: Any = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            payload = json.loads(await part.text())
        elif part.name and (found := re.fullmatch(r"files\[(\d+)\]", part.name)):
            ctype = part.headers.get("Content-Type", "application/octet-stream")
            name = part.filename or f"file{found[1]}"
            files[int(found[1])] = (name, bytes(await part.read()), ctype)
    return payload, files
