"""A local Discord-compatible server for end-to-end tests of discord.py bots.

It speaks enough of Discord's REST API (``/api/v10``), gateway websocket (``/gateway``) and CDN
(``/cdn``) for the real, unmodified discord.py client, models guilds, channels, members,
messages and interactions, and offers a test-facing API to act as users (slash commands,
autocomplete, button clicks), inject faults and wait for outcomes.  See
``/work/shared/discord/NOTES.md`` for the protocol facts it follows.

Point a client at it before login::

    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    discord.asset.Asset.BASE = server.cdn_base

or pass ``server.env()`` to a bot subprocess.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import fnmatch
import json
import logging
import mimetypes
import re
import secrets
import socket
import time
import traceback
from collections.abc import Awaitable, Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Final, Self, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "MANAGE_CHANNELS",
    "Attachment",
    "CommandSync",
    "DiscordServer",
    "Hold",
    "InteractionHandle",
    "InteractionRecord",
    "MessageRecord",
    "RequestRecord",
]

JSON = dict[str, Any]
_T = TypeVar("_T")
_Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]

ADMINISTRATOR: Final = 1 << 3
MANAGE_CHANNELS: Final = 1 << 4
DEFAULT_EVERYONE_PERMISSIONS: Final = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 31)
)
DEFAULT_BOT_PERMISSIONS: Final = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_CHANNELS | (1 << 13)
_ALL_PERMISSIONS: Final = (1 << 53) - 1

_EPHEMERAL: Final = 1 << 6
_LOADING: Final = 1 << 7
_SUPPRESS_NOTIFICATIONS: Final = 1 << 12
_KEPT_FLAGS: Final = (1 << 2) | _EPHEMERAL | _SUPPRESS_NOTIFICATIONS | (1 << 15)
_INTENT_MEMBERS: Final = 1 << 1
_INTENT_PRESENCES: Final = 1 << 8
_INTENT_GUILD_MESSAGES: Final = 1 << 9
_INTENT_DIRECT_MESSAGES: Final = 1 << 12
_INTENT_MESSAGE_CONTENT: Final = 1 << 15
_PRIVILEGED_INTENTS: Final = _INTENT_MEMBERS | _INTENT_PRESENCES | _INTENT_MESSAGE_CONTENT
_DISCORD_EPOCH_MS: Final = 1_420_070_400_000
_ATTACHMENT_SIZE_LIMIT: Final = 10 * 1024 * 1024
_MAX_STRING_OPTION: Final = 6000  # Discord's cap on a string option value
_USER_MENTION: Final = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION: Final = re.compile(r"<@&(\d+)>")
_PNG: Final = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
# fmt: off
_MEMBER_DEFAULTS: Final[JSON] = {
    "flags": 0, "deaf": False, "mute": False, "pending": False, "nick": None, "avatar": None,
    "premium_since": None, "communication_disabled_until": None,
}
_CHANNEL_DEFAULTS: Final[JSON] = {
    "permission_overwrites": [], "topic": None, "nsfw": False, "parent_id": None,
    "last_message_id": None, "rate_limit_per_user": 0,
}
_GUILD_DEFAULTS: Final[JSON] = {
    "icon": None, "features": [], "threads": [], "emojis": [], "stickers": [], "presences": [],
    "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
    "unavailable": False, "large": False, "preferred_locale": "en-US", "verification_level": 0,
    "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
    "nsfw_level": 0, "premium_tier": 0, "system_channel_id": None, "afk_timeout": 300,
}
# fmt: on
# Which callback types Discord accepts for each interaction type.
_ALLOWED_CALLBACKS: Final[Mapping[int, frozenset[int]]] = {
    2: frozenset({4, 5, 9}),
    3: frozenset({4, 5, 6, 7, 9}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7}),
}


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # Exactly "application/json": discord.py compares the header with == (NOTES pitfall 1).
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class _User:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> JSON:
        return {
            **{"id": str(self.id), "username": self.name, "global_name": self.name},
            **{"discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0},
        }


@dataclass
class _Role:
    id: int
    name: str
    permissions: int
    position: int

    def payload(self) -> JSON:
        return {
            **{"id": str(self.id), "name": self.name, "permissions": str(self.permissions)},
            **{"position": self.position, "color": 0, "hoist": False, "managed": False},
            **{"mentionable": True, "flags": 0},
        }


@dataclass
class _Channel:
    id: int
    name: str
    type: int
    guild_id: int | None
    position: int = 0
    recipient_id: int | None = None


@dataclass
class _Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, _Role] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids
    joined_at: str = field(default_factory=_now_iso)


@dataclass
class Attachment:
    """A file stored with a message, served at ``url``."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str

    def payload(self) -> JSON:
        """The attachment object of a message payload."""
        return {
            **{"id": str(self.id), "filename": self.filename, "size": len(self.data)},
            **{"url": self.url, "proxy_url": self.url, "content_type": self.content_type},
        }


@dataclass
class MessageRecord:
    """Everything the server knows about one message, including ephemeral ones."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    order: int
    content: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    mentions: list[int] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    notified: frozenset[int] = frozenset()
    interaction_id: int | None = None
    reference_id: int | None = None
    type: int = 0
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking user can see the message."""
        return bool(self.flags & _EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "thinking" placeholder not yet filled."""
        return bool(self.flags & _LOADING)

    def custom_ids(self) -> list[str]:
        """The custom ids of all components on the message, depth first."""
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]


@dataclass
class InteractionRecord:
    """One interaction dispatched to the bot and what the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    name: str
    payload: JSON
    dispatched_at: float
    message_id: int | None = None
    callback_type: int | None = None
    first_callback_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    errors: list[tuple[int, int]] = field(default_factory=list)
    expired: bool = False

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the first callback request (accepted or not)."""
        if self.first_callback_at is None:
            return None
        return self.first_callback_at - self.dispatched_at


@dataclass(frozen=True)
class RequestRecord:
    """One REST request as the server answered it."""

    method: str
    path: str
    status: int
    query: str = ""


@dataclass(frozen=True)
class CommandSync:
    """One bulk overwrite of application commands (``guild_id`` None for global)."""

    guild_id: int | None
    commands: list[JSON]


@dataclass
class _Fault:
    method: str
    pattern: str
    status: int
    remaining: int
    retry_after: float


@dataclass
class Hold:
    """Requests that :meth:`DiscordServer.hold` keeps unanswered, as a stalled Discord would.

    With ``after`` false a held request is not processed until :meth:`release`; with ``after``
    true it is processed (a posted message exists) and only its response waits. A request
    whose client disconnects while held is never processed (``after`` false) and never
    answered.
    """

    method: str
    pattern: str
    after: bool
    remaining: int
    held: list[RequestRecord] = field(default_factory=list)
    abandoned: list[RequestRecord] = field(default_factory=list)
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _closing: bool = False

    def release(self) -> None:
        """Let held and future matching requests go on."""
        self._released.set()


def _walk_components(components: Iterable[JSON]) -> Generator[JSON, None, None]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from _walk_components([component[key]])


class _Session:
    def __init__(self, session_id: str, intents: int) -> None:
        self.id = session_id
        self.intents = intents
        self.seq = 0
        self.conn: _Connection | None = None
        self.history: collections.deque[tuple[int, str]] = collections.deque(maxlen=2000)

    def dispatch(self, event: str, data: JSON) -> None:
        # The sequence number is assigned here, synchronously, so order follows call order.
        self.seq += 1
        text = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.history.append((self.seq, text))
        if self.conn is not None:
            self.conn.queue.put_nowait(text)


class _Connection:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: _Session | None = None
        self.ready = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while (text := await self.queue.get()) is not None:
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def send(self, op: int, data: Any) -> None:
        self.queue.put_nowait(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def detach(self) -> None:
        if self.session is not None and self.session.conn is self:
            self.session.conn = None
        self.ready = False
        self.queue.put_nowait(None)

    async def close(self, code: int, message: str = "") -> None:
        self.detach()
        await self.ws.close(code=code, message=message.encode())


class InteractionHandle:
    """Test-side handle on a dispatched interaction; ``await handle`` waits for the response."""

    def __init__(self, server: DiscordServer, record: InteractionRecord) -> None:
        self.server = server
        self.record = record

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record.name!r} id={self.record.id}>"

    def __await__(self) -> Generator[Any, None, InteractionRecord]:
        return self.response().__await__()

    @property
    def message(self) -> MessageRecord | None:
        """The original response message (placeholder, reply, or the updated component message)."""
        mid = self.record.original_message_id
        return None if mid is None else self.server.messages_by_id[mid]

    @property
    def followup_messages(self) -> list[MessageRecord]:
        """Messages the followups produced (after a thinking defer, the first is the original)."""
        return [self.server.messages_by_id[i] for i in self.record.followup_ids]

    async def response(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the first accepted callback; fails at once if the interaction expired."""
        rec = self.record

        def check() -> InteractionRecord | None:
            if rec.expired and rec.callback_type is None:
                raise AssertionError(
                    f"{self!r} was answered after the {self.server.ack_timeout}s limit "
                    f"(errors {rec.errors})\n{self.server.describe()}"
                )
            return rec if rec.callback_type is not None else None

        return await self.server.wait_for(
            check, timeout=timeout, what=f"the first response to interaction {rec.name!r}"
        )

    async def followups(self, count: int = 1, timeout: float = 5.0) -> list[MessageRecord]:
        """Wait until ``count`` followups were sent and return their messages."""
        await self.server.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            timeout=timeout,
            what=f"{count} followup(s) to interaction {self.record.name!r}",
        )
        return self.followup_messages[:count]


class _ErrorLogHandler(logging.Handler):
    def __init__(self, sink: Callable[[str], None]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.sink(self.format(record))


class DiscordServer:
    """A local Discord-compatible REST + gateway + CDN server on 127.0.0.1.

    Use ``async with DiscordServer() as server`` or ``await start()`` / ``await close()``.
    The bot logs in with ``server.token``; the bot user's id is also the application id.
    """

    def __init__(
        self,
        *,
        token: str = "test-token",
        bot_name: str = "TestBot",
        ack_timeout: float = 3.0,
        privileged_intents: int = 0,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self.token = token
        #: Seconds after dispatch within which an interaction callback is accepted.
        self.ack_timeout = ack_timeout
        #: Privileged intents the application is allowed (IDENTIFY with others closes 4014).
        self.privileged_intents = privileged_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self._last_id = 0
        self.users: dict[int, _User] = {}
        self.guilds: dict[int, _Guild] = {}
        self.channels: dict[int, _Channel] = {}
        self.bot_user_id = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user_id
        self.messages: list[MessageRecord] = []
        self.messages_by_id: dict[int, MessageRecord] = {}
        self.interactions: list[InteractionRecord] = []
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_syncs: list[CommandSync] = []
        self.requests: list[RequestRecord] = []
        self.unhandled: list[RequestRecord] = []
        self.crashes: list[str] = []
        self.error_logs: list[str] = []
        self.identify_count = 0
        self.resume_count = 0
        self._faults: list[_Fault] = []
        self._holds: list[Hold] = []
        self._nonces: dict[tuple[int, int, str], int] = {}
        #: Channel posts answered with an earlier message because their nonce was enforced.
        self.nonce_replays = 0
        self._sessions: dict[str, _Session] = {}
        self._connections: set[_Connection] = set()
        self._changed = asyncio.Event()
        self._log_handlers: list[tuple[logging.Logger, _ErrorLogHandler, int]] = []
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._routes = self._route_table()

    # ----------------------------------------------------------------- lifecycle and addresses

    async def start(self) -> Self:
        """Start listening on an ephemeral port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/cdn/{tail:.*}", self._handle_cdn)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        """Close gateway connections, stop listening and remove installed log handlers."""
        for hold in self._holds:
            hold._closing = True
            hold.release()
        for conn in list(self._connections):
            if not conn.ws.closed:
                await conn.close(1001, "server shutting down")
            conn.writer.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for logger, handler, level in self._log_handlers:
            logger.removeHandler(handler)
            logger.setLevel(level)
        self._log_handlers.clear()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if not self._port:
            raise RuntimeError("DiscordServer is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (wrap it in ``yarl.URL``)."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def cdn_base(self) -> str:
        """Value for ``discord.asset.Asset.BASE``."""
        return f"{self.base_url}/cdn"

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot subprocess at this server."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_CDN_BASE": self.cdn_base,
        }

    # -------------------------------------------------------------------------- world model

    def _next_id(self) -> int:
        stamp = (int(time.time() * 1000) - _DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, stamp)
        return self._last_id

    def add_user(self, name: str, *, bot: bool = False) -> int:
        """Create a user and return its id."""
        uid = self._next_id()
        self.users[uid] = _User(uid, name, bot)
        return uid

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: int | None = None,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
    ) -> int:
        """Create a guild with the bot in it (holding ``bot_permissions``); return its id."""
        gid = self._next_id()
        owner_id = owner if owner is not None else self.add_user(f"{name} owner")
        guild = _Guild(gid, name, owner_id)
        guild.roles[gid] = _Role(gid, "@everyone", everyone_permissions, 0)
        self.guilds[gid] = guild
        guild.members[owner_id] = []
        self.add_member(gid, self.bot_user_id, permissions=bot_permissions, announce=False)
        self._dispatch("GUILD_CREATE", self._guild_payload(guild))
        return gid

    def add_role(
        self, guild: int, name: str, permissions: int = 0, *, announce: bool = True
    ) -> int:
        """Create a role in ``guild`` and return its id."""
        g = self.guilds[guild]
        rid = self._next_id()
        g.roles[rid] = _Role(rid, name, permissions, len(g.roles))
        if announce:
            payload = {"guild_id": str(guild), "role": g.roles[rid].payload()}
            self._dispatch("GUILD_ROLE_CREATE", payload)
        return rid

    def add_member(
        self,
        guild: int,
        user: int,
        *,
        permissions: int = 0,
        roles: Iterable[int] = (),
        announce: bool = True,
    ) -> None:
        """Make ``user`` a member of ``guild``; ``permissions`` are granted through a role."""
        g = self.guilds[guild]
        role_ids = list(roles)
        if permissions:
            name = f"perms-{permissions:x}"
            role = next((r for r in g.roles.values() if r.name == name), None)
            role_ids.append(
                role.id if role else self.add_role(guild, name, permissions, announce=announce)
            )
        g.members[user] = role_ids
        if announce:
            payload = {**self._member_payload(g, user), "guild_id": str(guild)}
            self._dispatch("GUILD_MEMBER_ADD", payload, intent=_INTENT_MEMBERS)

    def add_channel(self, guild: int, name: str) -> int:
        """Create a text channel in ``guild`` and return its id."""
        g = self.guilds[guild]
        cid = self._next_id()
        self.channels[cid] = _Channel(cid, name, 0, guild, position=len(g.channel_ids))
        g.channel_ids.append(cid)
        self._dispatch("CHANNEL_CREATE", self._channel_payload(self.channels[cid]))
        return cid

    def dm_channel(self, user: int) -> int:
        """The id of the bot's DM channel with ``user`` (created on first use)."""
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient_id == user:
                return ch.id
        cid = self._next_id()
        self.channels[cid] = _Channel(cid, "", 1, None, recipient_id=user)
        return cid

    def permissions(self, guild: int, user: int) -> int:
        """Guild-level permissions of ``user`` (owner and Administrator get all)."""
        g = self.guilds[guild]
        if user == g.owner_id:
            return _ALL_PERMISSIONS
        perms = g.roles[guild].permissions
        for rid in g.members.get(user, []):
            perms |= g.roles[rid].permissions
        return _ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def _channel(self, channel_id: int | str) -> _Channel:
        ch = self.channels.get(int(channel_id)) if str(channel_id).isdigit() else None
        if ch is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return ch

    # ---------------------------------------------------------------------------- payloads

    def _user_payload(self, uid: int) -> JSON:
        return self.users[uid].payload()

    def _member_payload(self, guild: _Guild, uid: int, *, with_user: bool = True) -> JSON:
        roles = [str(r) for r in guild.members[uid]]
        payload: JSON = {**_MEMBER_DEFAULTS, "roles": roles, "joined_at": guild.joined_at}
        if with_user:
            payload["user"] = self._user_payload(uid)
        return payload

    def _channel_payload(self, ch: _Channel) -> JSON:
        if ch.type == 1:
            assert ch.recipient_id is not None
            recipients = [self._user_payload(ch.recipient_id)]
            return {"id": str(ch.id), "type": 1, "recipients": recipients, "last_message_id": None}
        ids = {"id": str(ch.id), "guild_id": str(ch.guild_id)}
        return {
            **_CHANNEL_DEFAULTS,
            **ids,
            "type": ch.type,
            "name": ch.name,
            "position": ch.position,
        }

    def _guild_payload(self, g: _Guild) -> JSON:
        return {
            **_GUILD_DEFAULTS,
            **{"id": str(g.id), "name": g.name, "owner_id": str(g.owner_id)},
            "joined_at": g.joined_at,
            "roles": [r.payload() for r in g.roles.values()],
            "channels": [self._channel_payload(self.channels[c]) for c in g.channel_ids],
            "members": [self._member_payload(g, uid) for uid in g.members],
            # member_count == len(members) keeps discord.py from chunking at startup.
            "member_count": len(g.members),
        }

    def message_payload(self, m: MessageRecord) -> JSON:
        """The message as Discord's API would return it."""
        # fmt: off
        payload: JSON = {
            "id": str(m.id), "channel_id": str(m.channel_id), "type": m.type,
            "content": m.content, "author": self._user_payload(m.author_id),
            "attachments": [a.payload() for a in m.attachments], "embeds": m.embeds,
            "components": m.components, "flags": m.flags, "pinned": False, "tts": False,
            "mentions": [self._user_payload(u) for u in m.mentions],
            "mention_roles": [str(r) for r in m.mention_roles],
            "mention_everyone": m.mention_everyone,
            "timestamp": m.created_at, "edited_timestamp": m.edited_at,
        }
        # fmt: on
        if m.guild_id is not None:
            payload["guild_id"] = str(m.guild_id)
            guild = self.guilds[m.guild_id]
            if m.author_id in guild.members:
                payload["member"] = self._member_payload(guild, m.author_id, with_user=False)
        if m.reference_id is not None:
            payload["message_reference"] = {"type": 0, "message_id": str(m.reference_id)}
        if m.interaction_id is not None:
            ix = self._interactions_by_id[m.interaction_id]
            payload["application_id"] = str(self.application_id)
            payload["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": self._user_payload(ix.user_id),
                "authorizing_integration_owners": {"0": str(ix.guild_id or 0)},
                **({"name": ix.name} if ix.type == 2 else {}),
                **({"interacted_message_id": str(ix.message_id)} if ix.message_id else {}),
            }
        return payload

    # ---------------------------------------------------------------------- messages

    def _compute_mentions(
        self, m: MessageRecord, allowed: JSON | None, replied_author: int | None
    ) -> None:
        explicit = allowed is not None
        allowed = allowed if allowed is not None else {"parse": ["users", "roles", "everyone"]}
        parse = set(allowed.get("parse", []))
        user_ids = list(dict.fromkeys(int(u) for u in _USER_MENTION.findall(m.content)))
        user_ids = [u for u in user_ids if u in self.users]
        if "users" not in parse:
            listed = {int(u) for u in allowed.get("users", [])}
            user_ids = [u for u in user_ids if u in listed]
        guild = self.guilds.get(m.guild_id) if m.guild_id is not None else None
        role_ids = [int(r) for r in _ROLE_MENTION.findall(m.content)]
        role_ids = [r for r in role_ids if guild is not None and r in guild.roles]
        if "roles" not in parse:
            listed = {int(r) for r in allowed.get("roles", [])}
            role_ids = [r for r in role_ids if r in listed]
        reply_pings = allowed.get("replied_user", False) if explicit else True
        if replied_author is not None and reply_pings and replied_author not in user_ids:
            user_ids.append(replied_author)
        m.mentions, m.mention_roles = user_ids, role_ids
        m.mention_everyone = "everyone" in parse and any(
            tag in m.content for tag in ("@everyone", "@here")
        )

    def _notified(self, m: MessageRecord) -> frozenset[int]:
        if m.ephemeral or m.flags & _SUPPRESS_NOTIFICATIONS:
            return frozenset()
        who = set(m.mentions)
        channel = self.channels[m.channel_id]
        if channel.recipient_id is not None:
            who.add(channel.recipient_id)
        if m.guild_id is not None:
            guild = self.guilds[m.guild_id]
            for uid, roles in guild.members.items():
                if m.mention_everyone or set(roles) & set(m.mention_roles):
                    who.add(uid)
            who &= set(guild.members)
        who.discard(m.author_id)
        return frozenset(u for u in who if not self.users[u].bot or u in m.mentions)

    def _make_attachments(
        self, channel_id: int, specs: list[JSON] | None, files: dict[int, tuple[str, bytes, str]]
    ) -> list[Attachment]:
        if specs is None:
            specs = [{"id": i} for i in sorted(files)]
        result = []
        for spec in specs:
            index = int(spec["id"])
            if index not in files:
                continue
            name, data, ctype = files[index]
            name = spec.get("filename") or name
            aid = self._next_id()
            url = f"{self.cdn_base}/attachments/{channel_id}/{aid}/{name}"
            guessed = mimetypes.guess_type(name)[0]
            result.append(Attachment(aid, name, data, guessed or ctype, url))
        return result

    def _validate_content(self, m: MessageRecord) -> None:
        if len(m.content) > 2000:
            raise _ApiError(
                400, 50035, "Invalid Form Body: content must be 2000 or fewer in length"
            )
        if not (m.content or m.embeds or m.attachments or m.components or m.loading):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _create_message(
        self,
        channel_id: int,
        author_id: int,
        body: JSON,
        files: dict[int, tuple[str, bytes, str]] | None = None,
        *,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> MessageRecord:
        ch = self._channel(channel_id)
        m = MessageRecord(
            id=self._next_id(),
            channel_id=ch.id,
            guild_id=ch.guild_id,
            author_id=author_id,
            order=len(self.messages),
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=(int(body.get("flags") or 0) & _KEPT_FLAGS) | extra_flags,
            interaction_id=interaction.id if interaction else None,
            type=20 if interaction is not None and interaction.type == 2 else 0,
        )
        m.attachments = self._make_attachments(ch.id, body.get("attachments"), files or {})
        replied_author = None
        if ref := body.get("message_reference"):
            m.reference_id = int(ref["message_id"])
            m.type = 19
            if (target := self.messages_by_id.get(m.reference_id)) is not None:
                replied_author = target.author_id
        self._validate_content(m)
        self._compute_mentions(m, body.get("allowed_mentions"), replied_author)
        m.notified = self._notified(m)
        self.messages.append(m)
        self.messages_by_id[m.id] = m
        if not m.ephemeral:
            self._dispatch_message("MESSAGE_CREATE", m)
        self._bump()
        return m

    def _edit_message(
        self, m: MessageRecord, body: JSON, files: dict[int, tuple[str, bytes, str]] | None = None
    ) -> MessageRecord:
        """Apply an edit; edits (and deferred fills) never notify anyone."""
        if "content" in body:
            m.content = str(body["content"] or "")
        for key in ("embeds", "components"):
            if key in body:
                setattr(m, key, list(body[key] or []))
        if "attachments" in body:
            keep = {int(a["id"]) for a in body["attachments"] or []}
            kept = [a for a in m.attachments if a.id in keep]
            specs = [a for a in body["attachments"] or [] if int(a["id"]) in (files or {})]
            m.attachments = kept + self._make_attachments(m.channel_id, specs, files or {})
        elif files:
            m.attachments += self._make_attachments(m.channel_id, None, files)
        if body.get("flags") is not None:
            m.flags = (m.flags & ~(1 << 2)) | (int(body["flags"]) & (1 << 2))
        m.flags &= ~_LOADING
        self._validate_content(m)
        self._compute_mentions(m, body.get("allowed_mentions"), None)
        m.edited_at = _now_iso()
        if not m.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", m)
        self._bump()
        return m

    def _delete_message(self, m: MessageRecord) -> None:
        m.deleted = True
        if not m.ephemeral:
            data = {"id": str(m.id), "channel_id": str(m.channel_id)}
            if m.guild_id is not None:
                data["guild_id"] = str(m.guild_id)
            intent = _INTENT_GUILD_MESSAGES if m.guild_id else _INTENT_DIRECT_MESSAGES
            self._dispatch("MESSAGE_DELETE", data, intent=intent)
        self._bump()

    def _visible_message(self, channel_id: str, message_id: str) -> MessageRecord:
        m = self.messages_by_id.get(int(message_id)) if message_id.isdigit() else None
        # Ephemeral messages are only reachable through the interaction webhook.
        if m is None or m.deleted or m.ephemeral or str(m.channel_id) != channel_id:
            raise _ApiError(404, 10008, "Unknown Message")
        return m

    async def say(self, user: int, channel: int, content: str) -> MessageRecord:
        """Post a message as ``user`` (a human) and dispatch MESSAGE_CREATE to the bot."""
        return self._create_message(channel, user, {"content": content})

    # ---------------------------------------------------------------------- gateway

    def _dispatch(
        self, event: str, data: JSON | Callable[[_Session], JSON | None], *, intent: int = 0
    ) -> None:
        for session in list(self._sessions.values()):
            if intent and not session.intents & intent:
                continue
            payload = data(session) if callable(data) else data
            if payload is not None:
                session.dispatch(event, payload)

    def _dispatch_message(self, event: str, m: MessageRecord) -> None:
        full = self.message_payload(m)

        def for_session(session: _Session) -> JSON:
            if (
                session.intents & _INTENT_MESSAGE_CONTENT
                or m.author_id == self.bot_user_id
                or m.guild_id is None
                or self.bot_user_id in m.mentions
            ):
                return full
            return {**full, "content": "", "embeds": [], "attachments": [], "components": []}

        intent = _INTENT_GUILD_MESSAGES if m.guild_id else _INTENT_DIRECT_MESSAGES
        self._dispatch(event, for_session, intent=intent)

    @property
    def connected(self) -> bool:
        """Whether a bot session is identified (or resumed) on a live websocket."""
        return any(c.ready for c in self._connections)

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot session is live on the gateway."""
        await self.wait_for(lambda: self.connected, timeout=timeout, what="a live gateway session")

    async def drop_gateway(self, code: int = 4000) -> int:
        """Close every gateway websocket with ``code`` (4000 makes discord.py resume).

        Returns how many connections were closed.
        """
        conns = [c for c in self._connections if not c.ws.closed]
        for conn in conns:
            await conn.close(code, "dropped by test")
        self._bump()
        return len(conns)

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        self._connections.add(conn)
        conn.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(msg.data))
        except Exception:
            self.crashes.append(f"server gateway handler failed:\n{traceback.format_exc()}")
            raise
        finally:
            conn.detach()
            self._connections.discard(conn)
            self._bump()
        return ws

    async def _on_gateway_message(self, conn: _Connection, msg: JSON) -> None:
        op, data = msg.get("op"), msg.get("d") or {}
        if op == 1:
            conn.send(11, None)
        elif op == 2:
            await self._identify(conn, data)
        elif op == 6:
            await self._resume(conn, data)
        elif op == 8:
            self._request_members(conn, data)

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if data.get("token") not in (self.token, f"Bot {self.token}"):
            await conn.close(4004, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & _PRIVILEGED_INTENTS & ~self.privileged_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return
        session = _Session(secrets.token_hex(16), intents)
        self._sessions[session.id] = session
        session.conn, conn.session = conn, session
        self.identify_count += 1
        ready: JSON = {
            "v": 10,
            "user": {**self._user_payload(self.bot_user_id), "verified": True, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        session.dispatch("READY", ready)
        for guild in self.guilds.values():
            session.dispatch("GUILD_CREATE", self._guild_payload(guild))
        conn.ready = True
        self._bump()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") not in (self.token, f"Bot {self.token}"):
            conn.send(9, False)
            return
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000, "session resumed elsewhere")
        last_seen = int(data.get("seq") or 0)
        for seq, text in session.history:
            if seq > last_seen:
                conn.queue.put_nowait(text)
        session.conn, conn.session = conn, session
        session.dispatch("RESUMED", {})  # discord.py writes a key into this dict
        conn.ready = True
        self.resume_count += 1
        self._bump()

    def _request_members(self, conn: _Connection, data: JSON) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None or conn.session is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            self._member_payload(guild, uid)
            for uid in guild.members
            if (uid in wanted if wanted else self.users[uid].name.lower().startswith(query))
        ]
        if limit := int(data.get("limit") or 0):
            members = members[:limit]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------------- REST plumbing

    def _route_table(self) -> list[tuple[str, re.Pattern[str], bool, _Handler]]:
        webhook_message = "/webhooks/{app}/{token}/messages/{msg}"
        channel_message = "/channels/{channel}/messages/{msg}"
        gpd = ("GET", "PATCH", "DELETE")
        # (method, path, needs bot auth, handler); interaction webhooks authenticate by token.
        # fmt: off
        table: list[tuple[str, str, bool, _Handler]] = [
            ("GET", "/users/@me", True, self._get_me),
            ("GET", "/oauth2/applications/@me", True, self._get_app),
            ("GET", "/gateway", False, self._get_gateway),
            ("GET", "/gateway/bot", True, self._get_gateway),
            ("GET", "/applications/{app}/commands", True, self._get_commands),
            ("PUT", "/applications/{app}/commands", True, self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", True, self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", True, self._put_commands),
            ("POST", "/interactions/{ix}/{token}/callback", False, self._callback),
            ("POST", "/webhooks/{app}/{token}", False, self._followup),
            *[(m, webhook_message, False, self._webhook_message) for m in gpd],
            ("GET", "/channels/{channel}", True, self._get_channel),
            ("GET", "/channels/{channel}/messages", True, self._history),
            ("POST", "/channels/{channel}/messages", True, self._post_message),
            *[(m, channel_message, True, self._channel_message) for m in gpd],
            ("POST", "/channels/{channel}/typing", True, self._typing),
            ("POST", "/users/@me/channels", True, self._open_dm),
            ("GET", "/users/{user}", True, self._get_user),
            ("GET", "/guilds/{guild}/members/{user}", True, self._get_member),
        ]
        # fmt: on
        return [
            (method, re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)), auth, handler)
            for method, path, auth, handler in table
        ]

    def inject_fault(
        self,
        method: str,
        path: str,
        *,
        status: int = 500,
        count: int = 1,
        retry_after: float = 0.05,
    ) -> None:
        """Answer the next ``count`` requests matching ``method`` ("*" for any) and the glob
        ``path`` (relative to /api/v10, e.g. "/channels/*/messages") with ``status``:
        500, or 429 with Retry-After ``retry_after`` seconds and rate-limit headers.
        Faults are consumed in the order they were injected."""
        self._faults.append(_Fault(method.upper(), path, status, count, retry_after))

    def hold(self, method: str, path: str, *, count: int = 1, after: bool = False) -> Hold:
        """Hold the next ``count`` requests matching ``method`` and the glob ``path`` without
        an answer until the returned :class:`Hold` is released; ``after`` processes them
        first. For killing a client while its request is in flight."""
        hold = Hold(method.upper(), path, after, count)
        self._holds.append(hold)
        return hold

    def _take_hold(self, method: str, path: str) -> Hold | None:
        for hold in self._holds:
            if (
                hold.remaining
                and hold.method in ("*", method)
                and fnmatch.fnmatchcase(path, hold.pattern)
            ):
                hold.remaining -= 1
                return hold
        return None

    async def _wait_held(self, request: web.Request, path: str, hold: Hold) -> bool:
        """Wait until ``hold`` is released: True, or the client went away: False."""
        record = RequestRecord(request.method, path, 0, request.query_string)
        hold.held.append(record)
        self._bump()
        while not hold._released.is_set():
            transport = request.transport
            if transport is None or transport.is_closing():
                break
            # aiohttp does not cancel a handler when its client disconnects: poll for it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hold._released.wait(), 0.05)
        transport = request.transport
        if hold._closing or transport is None or transport.is_closing():
            hold.abandoned.append(record)
            self._bump()
            return False
        return True

    @property
    def pending_faults(self) -> int:
        """How many injected fault responses have not been served yet."""
        return sum(f.remaining for f in self._faults)

    def _take_fault(self, method: str, path: str) -> web.Response | None:
        fault = next(
            (
                f
                for f in self._faults
                if f.remaining
                and f.method in ("*", method)
                and fnmatch.fnmatchcase(path, f.pattern)
            ),
            None,
        )
        if fault is None:
            return None
        fault.remaining -= 1
        if fault.status != 429:
            error = {"code": 0, "message": f"{fault.status}: injected fault"}
            return _json_response(error, fault.status)
        wait = fault.retry_after
        # fmt: off
        headers = {
            "Retry-After": str(max(1, round(wait))), "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
            "X-RateLimit-Reset-After": f"{wait:.3f}", "X-RateLimit-Bucket": "injected-fault",
            "X-RateLimit-Scope": "user",
            # discord.py treats a 429 without Via as a Cloudflare ban and does not retry.
            "Via": "1.1 google",
        }
        # fmt: on
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after}
        return _json_response({**body, "global": False}, 429, headers)

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        hold = self._take_hold(request.method, path)
        if hold is not None and not hold.after and not await self._wait_held(request, path, hold):
            return web.Response(status=499)  # nobody is listening any more
        response: web.StreamResponse | None = self._take_fault(request.method, path)
        if response is None:
            response = await self._route(request, path)
        if hold is not None and hold.after and not await self._wait_held(request, path, hold):
            return web.Response(status=499)
        record = RequestRecord(request.method, path, response.status, request.query_string)
        self.requests.append(record)
        self._bump()
        return response

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        params: dict[str, str] = {}
        try:
            for method, pattern, auth, handler in self._routes:
                if method == request.method and (match := pattern.fullmatch(path)):
                    params = match.groupdict()
                    if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized")
                    return await handler(request, params)
            self.unhandled.append(RequestRecord(request.method, path, 404, request.query_string))
            raise _ApiError(404, 0, "404: Not Found")
        except _ApiError as e:
            if (ix := self._interactions_by_token.get(params.get("token", ""))) is not None:
                ix.errors.append((e.status, e.code))
            return _json_response({"code": e.code, "message": e.message}, e.status)
        except Exception:
            # A server bug must fail the test, not look like a Discord error the bot handles.
            self.crashes.append(
                f"server failed on {request.method} {path}:\n{traceback.format_exc()}"
            )
            return _json_response({"code": 0, "message": "test server bug"}, 400)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes, str]]]:
        files: dict[int, tuple[str, bytes, str]] = {}
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

    async def _handle_cdn(self, request: web.Request) -> web.StreamResponse:
        parts = request.match_info["tail"].split("/")
        if len(parts) == 4 and parts[0] == "attachments" and parts[2].isdigit():
            for m in self.messages:
                for a in m.attachments:
                    if a.id == int(parts[2]):
                        return web.Response(body=a.data, headers={"Content-Type": a.content_type})
        return web.Response(body=_PNG, headers={"Content-Type": "image/png"})

    # ---------------------------------------------------------------------- REST handlers

    async def _typing(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        self._channel(p["channel"])
        return web.Response(status=204)

    async def _get_me(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return _json_response({**self._user_payload(self.bot_user_id), "verified": True})

    async def _get_app(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        bot = self._user_payload(self.bot_user_id)
        # fmt: off
        return _json_response({
            "id": str(self.application_id), "name": bot["username"], "description": "",
            "icon": None, "bot_public": False, "bot_require_code_grant": False, "owner": bot,
            "verify_key": "0" * 64, "flags": 0, "team": None, "bot": bot, "summary": "",
            "interactions_endpoint_url": None,  # non-null makes discord.py warn
        })
        # fmt: on

    async def _get_gateway(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _command_scope(self, p: dict[str, str]) -> int | None:
        if int(p["app"]) != self.application_id:
            raise _ApiError(404, 10002, "Unknown Application")
        if "guild" not in p:
            return None
        if int(p["guild"]) not in self.guilds:
            raise _ApiError(404, 10004, "Unknown Guild")
        return int(p["guild"])

    async def _get_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return _json_response(self.commands.get(self._command_scope(p), []))

    async def _put_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        scope = self._command_scope(p)
        body = await request.json()
        old = {(c["name"], c["type"]): c["id"] for c in self.commands.get(scope, [])}
        stored = []
        for cmd in body:
            ctype = int(cmd.get("type", 1))
            stored.append(
                {
                    "description": "",
                    "options": [],
                    "default_member_permissions": None,
                    "nsfw": False,
                    **cmd,
                    "type": ctype,
                    # Discord keeps a command's id across overwrites when name and type match.
                    "id": old.get((cmd["name"], ctype)) or str(self._next_id()),
                    "application_id": str(self.application_id),
                    "version": str(self._next_id()),
                    **({"guild_id": str(scope)} if scope is not None else {}),
                }
            )
        self.commands[scope] = stored
        self.command_syncs.append(CommandSync(scope, stored))
        return _json_response(stored)

    async def _get_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return _json_response(self._channel_payload(self._channel(p["channel"])))

    async def _history(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ch = self._channel(p["channel"])
        q = request.query
        limit = min(int(q.get("limit", 50)), 100)
        before, after = int(q.get("before", 1 << 63)), int(q.get("after", 0))
        found = [
            m
            for m in self.messages
            if m.channel_id == ch.id and not m.deleted and not m.ephemeral and after < m.id < before
        ]
        # Discord returns newest first; with only `after` it pages from the oldest side.
        found = found[:limit] if "after" in q and "before" not in q else found[-limit:]
        return _json_response([self.message_payload(m) for m in reversed(found)])

    async def _post_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body, files = await self._read_body(request)
        channel = self._channel(p["channel"])
        enforced = body.get("nonce") is not None and bool(body.get("enforce_nonce"))
        key = (channel.id, self.bot_user_id, str(body.get("nonce")))
        # Like Discord: a repeated enforced nonce gets the earlier message, none is created.
        if enforced and (earlier := self.messages_by_id.get(self._nonces.get(key, 0))):
            self.nonce_replays += 1
            return _json_response(self.message_payload(earlier))
        m = self._create_message(channel.id, self.bot_user_id, body, files)
        if enforced:
            self._nonces[key] = m.id
        return _json_response(self.message_payload(m))

    async def _channel_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        m = self._visible_message(p["channel"], p["msg"])
        if request.method == "DELETE":
            self._delete_message(m)
            return web.Response(status=204)
        if request.method == "PATCH":
            if m.author_id != self.bot_user_id:
                raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
            body, files = await self._read_body(request)
            self._edit_message(m, body, files)
        return _json_response(self.message_payload(m))

    async def _open_dm(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        uid = int((await request.json())["recipient_id"])
        if uid not in self.users:
            raise _ApiError(404, 10013, "Unknown User")
        return _json_response(self._channel_payload(self.channels[self.dm_channel(uid)]))

    async def _get_user(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        if not p["user"].isdigit() or int(p["user"]) not in self.users:
            raise _ApiError(404, 10013, "Unknown User")
        return _json_response(self._user_payload(int(p["user"])))

    def _guild(self, guild_id: str) -> _Guild:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        guild = self._guild(p["guild"])
        if not p["user"].isdigit() or int(p["user"]) not in guild.members:
            raise _ApiError(404, 10007, "Unknown Member")
        return _json_response(self._member_payload(guild, int(p["user"])))

    # ------------------------------------------------------------------ interaction REST side

    def _interaction_for(self, token: str) -> InteractionRecord:
        ix = self._interactions_by_token.get(token)
        if ix is None or ix.callback_type is None:
            # Followups and @original edits need an acknowledged interaction.
            raise _ApiError(404, 10015, "Unknown Webhook")
        return ix

    async def _callback(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        loop_now = asyncio.get_running_loop().time()
        ix = self._interactions_by_id.get(int(p["ix"])) if p["ix"].isdigit() else None
        if ix is None or ix.token != p["token"]:
            raise _ApiError(404, 10062, "Unknown interaction")
        if ix.first_callback_at is None:
            ix.first_callback_at = loop_now
        if ix.callback_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if ix.expired or loop_now - ix.dispatched_at > self.ack_timeout:
            ix.expired = True
            self._bump()
            raise _ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        ctype, data = int(body["type"]), body.get("data") or {}
        if ctype not in _ALLOWED_CALLBACKS[ix.type]:
            raise _ApiError(400, 50035, f"Invalid callback type {ctype} for interaction {ix.type}")
        message: MessageRecord | None = None
        if ctype == 4:
            message = self._create_message(
                ix.channel_id, self.bot_user_id, data, files, interaction=ix
            )
        elif ctype == 5:
            flags = _LOADING | (int(data.get("flags") or 0) & _EPHEMERAL)
            message = self._create_message(
                ix.channel_id, self.bot_user_id, {}, interaction=ix, extra_flags=flags
            )
        elif ctype in (6, 7) and ix.message_id is not None:
            message = self.messages_by_id[ix.message_id]
            if ctype == 7:
                self._edit_message(message, data, files)
        elif ctype == 8:
            ix.choices = list(data.get("choices") or [])
        elif ctype == 9:
            ix.modal = data
        ix.callback_type = ctype
        if message is not None:
            ix.original_message_id = message.id
        self._bump()
        if "with_response" not in request.query:
            return web.Response(status=204)
        info: JSON = {"id": str(ix.id), "type": ix.type}
        resource: JSON = {"type": ctype}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = ctype == 5
            info["response_message_ephemeral"] = message.ephemeral
            resource["message"] = self.message_payload(message)
        return _json_response({"interaction": info, "resource": resource})

    async def _followup(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ix = self._interaction_for(p["token"])
        body, files = await self._read_body(request)
        original = self.messages_by_id.get(ix.original_message_id or 0)
        if ix.callback_type == 5 and original is not None and original.loading:
            # The first followup after a thinking defer fills the placeholder: an edit,
            # so it keeps the defer's ephemeral flag and notifies nobody.
            m = self._edit_message(original, body, files)
        else:
            m = self._create_message(ix.channel_id, self.bot_user_id, body, files, interaction=ix)
        ix.followup_ids.append(m.id)
        self._bump()
        if request.query.get("wait") in ("1", "true", "True"):
            return _json_response(self.message_payload(m))
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        ix = self._interaction_for(p["token"])
        raw = p["msg"]
        mid = ix.original_message_id if raw == "@original" else int(raw) if raw.isdigit() else 0
        m = self.messages_by_id.get(mid or 0)
        if m is None or m.deleted or (mid != ix.original_message_id and mid not in ix.followup_ids):
            raise _ApiError(404, 10008, "Unknown Message")
        if request.method == "DELETE":
            self._delete_message(m)
            return web.Response(status=204)
        if request.method == "PATCH":
            body, files = await self._read_body(request)
            self._edit_message(m, body, files)
        return _json_response(self.message_payload(m))

    # --------------------------------------------------------------- acting as users

    def _find_command(self, channel: _Channel, name: str, ctype: int = 1) -> tuple[JSON, bool]:
        scopes: list[int | None] = [channel.guild_id, None] if channel.guild_id else [None]
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd["type"] == ctype:
                    return cmd, scope is not None
        known = sorted(
            f"{c['name']}@{s or 'global'}" for s, cs in self.commands.items() for c in cs
        )
        raise LookupError(f"command {name!r} was never synced for channel {channel.id}: {known}")

    def _resolve_option(
        self, defn: JSON, value: Any, resolved: dict[str, JSON], guild: _Guild | None
    ) -> Any:
        kind = defn["type"]
        if kind in (3, 4, 5, 10):
            converted = {3: str, 4: int, 5: bool, 10: float}[kind](value)
            choices = [c["value"] for c in defn.get("choices") or []]
            if choices and converted not in choices:
                raise ValueError(f"option {defn['name']!r}: {converted!r} not in choices {choices}")
            # Discord refuses values outside an option's declared bounds before any bot sees them.
            if kind == 3:
                low, high = defn.get("min_length", 0), defn.get("max_length", _MAX_STRING_OPTION)
                measured = len(converted)
            else:
                low, high, measured = defn.get("min_value"), defn.get("max_value"), converted
            if (low is not None and measured < low) or (high is not None and measured > high):
                shown = f"length {measured}" if kind == 3 else repr(converted)
                raise ValueError(f"option {defn['name']!r}: {shown} not in {low}..{high}")
            return converted
        key = str(int(value))
        if kind in (6, 9) and int(value) in self.users:
            resolved.setdefault("users", {})[key] = self._user_payload(int(value))
            if guild is not None and int(value) in guild.members:
                member = self._member_payload(guild, int(value), with_user=False)
                member["permissions"] = str(self.permissions(guild.id, int(value)))
                resolved.setdefault("members", {})[key] = member
        elif kind in (7, 9) and int(value) in self.channels:
            ch = self._channel_payload(self.channels[int(value)])
            perms = self.permissions(guild.id, self.bot_user_id) if guild else _ALL_PERMISSIONS
            resolved.setdefault("channels", {})[key] = {**ch, "permissions": str(perms)}
        elif kind in (8, 9) and guild is not None and int(value) in guild.roles:
            resolved.setdefault("roles", {})[key] = guild.roles[int(value)].payload()
        else:
            raise ValueError(f"option {defn['name']!r}: cannot resolve {value!r} (type {kind})")
        return key

    def _command_data(
        self,
        channel: _Channel,
        path: tuple[str, ...],
        options: Mapping[str, Any],
        focused: str | None,
    ) -> JSON:
        cmd, guild_scoped = self._find_command(channel, path[0])
        defs: list[JSON] = cmd.get("options") or []
        steps: list[tuple[str, int]] = []
        for name in path[1:]:
            sub = next((o for o in defs if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise LookupError(f"{' '.join(path)}: no subcommand {name!r} in {cmd['name']!r}")
            steps.append((name, sub["type"]))
            defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs]
            raise LookupError(f"{' '.join(path)!r} needs a subcommand, one of {subs}")
        by_name = {o["name"]: o for o in defs}
        unknown = set(options) - set(by_name)
        if unknown:
            raise ValueError(
                f"{' '.join(path)}: unknown options {sorted(unknown)}, has {list(by_name)}"
            )
        missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
        if missing and focused is None:
            raise ValueError(f"{' '.join(path)}: missing required options {missing}")
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        resolved: dict[str, JSON] = {}
        built: list[JSON] = []
        for name, value in options.items():
            option: JSON = {"name": name, "type": by_name[name]["type"]}
            if name == focused:
                if not by_name[name].get("autocomplete"):
                    raise ValueError(f"option {name!r} of {' '.join(path)} has no autocomplete")
                option.update(value=str(value), focused=True)
            else:
                option["value"] = self._resolve_option(by_name[name], value, resolved, guild)
            built.append(option)
        for name, kind in reversed(steps):
            built = [{"type": kind, "name": name, "options": built}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
        if guild_scoped:
            # Present exactly for guild commands: it selects the tree's guild command table.
            data["guild_id"] = str(channel.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    async def _start_interaction(
        self,
        kind: int,
        user: int,
        channel: _Channel,
        data: JSON,
        name: str,
        *,
        message: MessageRecord | None = None,
        timeout: float,
    ) -> InteractionRecord:
        await self.wait_connected(timeout)
        ix_id, token = self._next_id(), secrets.token_urlsafe(48)
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: JSON = {
            "id": str(ix_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": _ATTACHMENT_SIZE_LIMIT,
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id if guild else 0)},
            "context": 0 if guild else 1,
            "channel_id": str(channel.id),
            "data": data,
        }
        if guild is not None:
            if user not in guild.members:
                raise ValueError(f"user {user} is not a member of guild {guild.id}")
            perms = self.permissions(guild.id, self.bot_user_id)
            member = self._member_payload(guild, user)
            member["permissions"] = str(self.permissions(guild.id, user))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                app_permissions=str(perms),
                member=member,
                channel={**self._channel_payload(channel), "permissions": str(perms)},
            )
        else:
            payload.update(user=self._user_payload(user), channel=self._channel_payload(channel))
            payload["app_permissions"] = str(DEFAULT_BOT_PERMISSIONS)
        if message is not None:
            payload["message"] = self.message_payload(message)
        loop_now = asyncio.get_running_loop().time()
        ix = InteractionRecord(
            ix_id, token, kind, user, channel.id, channel.guild_id, name, payload, loop_now,
            message_id=message.id if message else None,
        )  # fmt: skip
        self.interactions.append(ix)
        self._interactions_by_id[ix_id] = ix
        self._interactions_by_token[token] = ix
        # Like Discord, an interaction goes to one session only: the newest live one.
        live = [s for s in self._sessions.values() if s.conn is not None and s.conn.ready]
        live[-1].dispatch("INTERACTION_CREATE", payload)
        self._bump()
        return ix

    async def slash(
        self,
        user: int,
        channel: int,
        *path: str,
        options: Mapping[str, Any] | None = None,
        timeout: float = 5.0,
    ) -> InteractionHandle:
        """Invoke ``/path...`` as ``user`` in ``channel`` (e.g. ``"game", "play"``).

        Option values: str/int/bool/float, or ids for user/channel/role options. Raises
        LookupError for a command the bot never synced, ValueError for bad options.
        """
        ch = self._channel(channel)
        data = self._command_data(ch, path, options or {}, None)
        ix = await self._start_interaction(2, user, ch, data, " ".join(path), timeout=timeout)
        return InteractionHandle(self, ix)

    async def autocomplete(
        self,
        user: int,
        channel: int,
        *path: str,
        options: Mapping[str, Any],
        focused: str,
        timeout: float = 5.0,
    ) -> list[JSON]:
        """Type ``options[focused]`` into ``/path...`` and return the bot's choices."""
        ch = self._channel(channel)
        data = self._command_data(ch, path, options, focused)
        name = f"autocomplete {' '.join(path)} {focused}={options[focused]!r}"
        ix = await self._start_interaction(4, user, ch, data, name, timeout=timeout)
        await InteractionHandle(self, ix).response(timeout)
        assert ix.choices is not None
        return ix.choices

    def _message_for_component(self, user: int, message: MessageRecord | int) -> MessageRecord:
        m = self.messages_by_id[message if isinstance(message, int) else message.id]
        if m.deleted:
            raise ValueError(f"message {m.id} was deleted")
        ix = self._interactions_by_id.get(m.interaction_id or 0)
        if m.ephemeral and ix is not None and ix.user_id != user:
            raise ValueError(f"only the invoking user can use ephemeral message {m.id}")
        return m

    def _component(self, m: MessageRecord, custom_id: str, kinds: Iterable[int]) -> JSON:
        for comp in _walk_components(m.components):
            if comp.get("custom_id") == custom_id and comp["type"] in kinds:
                if comp.get("disabled"):
                    raise ValueError(f"component {custom_id!r} on message {m.id} is disabled")
                return comp
        raise ValueError(f"no component {custom_id!r} on message {m.id}: {m.custom_ids()}")

    async def click(
        self, user: int, message: MessageRecord | int, custom_id: str, *, timeout: float = 5.0
    ) -> InteractionHandle:
        """Click the button ``custom_id`` on ``message`` as ``user``."""
        m = self._message_for_component(user, message)
        self._component(m, custom_id, (2,))
        data = {"custom_id": custom_id, "component_type": 2}
        ix = await self._start_interaction(
            3,
            user,
            self.channels[m.channel_id],
            data,
            f"click {custom_id}",
            message=m,
            timeout=timeout,
        )
        return InteractionHandle(self, ix)

    async def select(
        self,
        user: int,
        message: MessageRecord | int,
        custom_id: str,
        values: Iterable[str | int],
        *,
        timeout: float = 5.0,
    ) -> InteractionHandle:
        """Choose ``values`` in the select menu ``custom_id`` (string or user select)."""
        m = self._message_for_component(user, message)
        comp = self._component(m, custom_id, (3, 5))
        data: JSON = {"custom_id": custom_id, "component_type": comp["type"]}
        data["values"] = [str(v) for v in values]
        if comp["type"] == 5:
            data["resolved"] = {"users": {v: self._user_payload(int(v)) for v in data["values"]}}
        ix = await self._start_interaction(
            3,
            user,
            self.channels[m.channel_id],
            data,
            f"select {custom_id}",
            message=m,
            timeout=timeout,
        )
        return InteractionHandle(self, ix)

    @property
    def ack_latencies(self) -> list[float]:
        """Dispatch-to-first-callback times of all answered interactions, in dispatch order."""
        return [ix.ack_latency for ix in self.interactions if ix.ack_latency is not None]

    # ---------------------------------------------------------------- waiting and diagnostics

    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def record_problem(self, text: str) -> None:
        """Record a fatal client-side problem (e.g. a bot subprocess died); waits fail fast."""
        self.crashes.append(text)
        self._bump()

    def watch_task(self, task: asyncio.Task[Any], name: str = "client") -> None:
        """Record an exception ending ``task`` (e.g. ``client.start()``) as a crash."""

        def done(t: asyncio.Task[Any]) -> None:
            if not t.cancelled() and (exc := t.exception()) is not None:
                lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
                self.record_problem(f"{name} task crashed:\n{''.join(lines)}")

        task.add_done_callback(done)

    def capture_error_logs(self, logger_name: str = "discord") -> None:
        """Record ERROR log records of ``logger_name`` (discord.py only logs swallowed errors)."""
        logger = logging.getLogger(logger_name)
        handler = _ErrorLogHandler(self._record_error_log)
        self._log_handlers.append((logger, handler, logger.level))
        logger.addHandler(handler)
        if logger.getEffectiveLevel() > logging.ERROR:
            logger.setLevel(logging.ERROR)

    def _record_error_log(self, text: str) -> None:
        self.error_logs.append(text)
        self._bump()

    def describe(self, limit: int = 10) -> str:
        """A human-readable summary of recent state, for assertion messages."""
        lines = []
        if self.crashes:
            lines += ["client/server crashes:", *self.crashes]
        if self.error_logs:
            lines += ["error logs:", *self.error_logs]
        lines.append(
            f"gateway: connected={self.connected} identifies={self.identify_count} "
            f"resumes={self.resume_count}; command syncs={len(self.command_syncs)}"
        )
        lines.append(f"recent messages ({len(self.messages)} total):")
        for m in self.messages[-limit:]:
            state = " ".join(
                s for s, on in (("ephemeral", m.ephemeral), ("loading", m.loading),
                                ("deleted", m.deleted)) if on
            )  # fmt: skip
            author = self.users[m.author_id].name
            lines.append(
                f"  #{m.order} {m.id} in {m.channel_id} by {author} {state}: {m.content!r:.120}"
            )
        lines.append("recent interactions:")
        for ix in self.interactions[-limit:]:
            lines.append(
                f"  {ix.name!r} callback={ix.callback_type} followups={len(ix.followup_ids)} "
                f"errors={ix.errors}"
            )
        lines.append("recent requests: " + ", ".join(
            f"{r.method} {r.path} {r.status}" for r in self.requests[-limit:]
        ))  # fmt: skip
        if self.unhandled:
            lines.append(f"unmodelled routes: {[(r.method, r.path) for r in self.unhandled]}")
        return "\n".join(lines)

    async def wait_for(
        self, check: Callable[[], _T | None], *, timeout: float = 5.0, what: str
    ) -> _T:
        """Wait until ``check()`` returns a truthy value and return that value.

        Re-checked after every server-side change; fails fast on a recorded crash and raises
        AssertionError naming ``what`` with a summary of recent state on timeout.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            if self.crashes:
                raise AssertionError(f"crashed while waiting for {what}\n{self.describe()}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}\n{self.describe()}"
                )
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def guard(self, awaitable: Awaitable[_T], *, timeout: float = 5.0, what: str) -> _T:
        """Await ``awaitable`` (e.g. ``client.wait_until_ready()``) with :meth:`wait_for`'s
        timeout and crash reporting."""
        task = asyncio.ensure_future(awaitable)
        task.add_done_callback(lambda _: self._bump())
        try:
            await self.wait_for(task.done, timeout=timeout, what=what)
        finally:
            task.cancel()
        return task.result()

    async def wait_for_message(
        self,
        predicate: Callable[[MessageRecord], bool],
        *,
        timeout: float = 5.0,
        what: str = "a matching message",
        since: int = 0,
    ) -> MessageRecord:
        """Wait for a (non-deleted) message with ``order >= since`` satisfying ``predicate``."""

        def check() -> MessageRecord | None:
            candidates = self.messages[since:]
            return next((m for m in candidates if not m.deleted and predicate(m)), None)

        return await self.wait_for(check, timeout=timeout, what=what)

    def channel_messages(
        self, channel: int, *, include_ephemeral: bool = True
    ) -> list[MessageRecord]:
        """Non-deleted messages of ``channel`` in creation order."""
        return [
            m
            for m in self.messages
            if m.channel_id == channel and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def assert_clean(self, *, allow_unhandled: bool = False) -> None:
        """Fail if a crash, an error log or (unless allowed) an unmodelled route was recorded."""
        problems = bool(self.crashes or self.error_logs)
        if problems or (self.unhandled and not allow_unhandled):
            raise AssertionError(f"problems recorded by the Discord test server\n{self.describe()}")
