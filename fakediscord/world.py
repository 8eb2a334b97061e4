"""The world a bot sees: users, guilds, roles, channels, messages, interactions and commands,
the snowflake ids they get, and the gateway sessions their events go to.

:class:`World` holds the records. Its two parts change them as Discord does and build
Discord's payloads from them: :class:`~fakediscord.directory.Directory` the users, guilds
and channels, :class:`~fakediscord.messaging.Messaging` the messages. Interactions are
started and answered by :mod:`fakediscord.interactions`, commands synced by
:mod:`fakediscord.rest`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from fakediscord.directory import Directory
from fakediscord.messaging import Messaging
from fakediscord.model import Channel, CommandSync, Guild, InteractionRecord, MessageRecord, User
from fakediscord.protocol import DISCORD_EPOCH_MS, JSON, ApiError
from fakediscord.recorder import Recorder
from fakediscord.sessions import Session

__all__ = ["World"]


def guild_of(event: str, payload: JSON) -> int | None:
    """The guild an event is about: the guild itself for GUILD_CREATE, UPDATE and DELETE,
    else the payload's ``guild_id``; ``None`` outside any guild."""
    key = "id" if event in _GUILD_ITSELF else "guild_id"
    value = payload.get(key)
    return None if value is None else int(value)


_GUILD_ITSELF = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


class World:
    """Users, guilds, channels, messages, interactions and commands, with the bot user
    created first; :attr:`directory` and :attr:`messaging` make and change them.

    The bot user's id is also the application id. ``cdn_base`` is where attachment URLs point
    (set once the server knows its address).
    """

    def __init__(self, recorder: Recorder, *, bot_name: str, shard_count: int = 1) -> None:
        self.recorder = recorder
        #: The shards the bot must run (``GET /gateway/bot``); more than 1: IDENTIFY needs
        #: a ``shard``.
        self.shard_count = shard_count
        self.cdn_base = ""
        #: The language of a user or guild made without one.
        self.locale = "en-US"
        self._last_id = 0
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: list[MessageRecord] = []
        self.messages_by_id: dict[int, MessageRecord] = {}
        self.interactions: list[InteractionRecord] = []
        self.interactions_by_id: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_syncs: list[CommandSync] = []
        self.sessions: dict[str, Session] = {}
        self.directory = Directory(self)
        """Makes and changes the users, guilds and channels."""
        self.messaging = Messaging(self)
        """Posts, edits and deletes the messages."""
        self.bot_user_id = self.directory.add_user(bot_name, bot=True)
        self.application_id = self.bot_user_id

    def next_id(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new snowflake: the current time since the Discord epoch, always increasing.

        With ``shard`` (id, count), an id that shard owns as a guild id: its millisecond part
        is moved on by less than ``count`` milliseconds.
        """
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        candidate = max(self._last_id + 1, stamp)
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"shard {shard_id} is not one of {count}")
            millis = candidate >> 22
            millis += (shard_id - millis) % count
            candidate = max(candidate, millis << 22)
        self._last_id = candidate
        return self._last_id

    def dispatch(
        self, event: str, data: JSON | Callable[[Session], JSON | None], *, intent: int = 0
    ) -> None:
        """Dispatch ``event`` to every session whose intents include ``intent`` and whose
        shard owns the event's guild.

        ``data`` may be a function of the session, returning None to skip it.
        """
        for session in list(self.sessions.values()):
            if intent and not session.intents & intent:
                continue
            payload = data(session) if callable(data) else data
            if payload is not None and session.owns(guild_of(event, payload)):
                session.dispatch(event, payload)

    def guild(self, guild_id: str) -> Guild:
        """The guild ``guild_id``, or Discord's 404 Unknown Guild."""
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def channel(self, channel_id: int | str) -> Channel:
        """The channel ``channel_id``, or Discord's 404 Unknown Channel."""
        ch = self.channels.get(int(channel_id)) if str(channel_id).isdigit() else None
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch
