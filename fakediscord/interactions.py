"""Interactions, from both ends: users invoking commands, autocomplete, buttons and selects,
and the bot answering through the callback and webhook endpoints.

The rules the server holds the bot to, as Discord does:

* the first callback must come within ``ack_timeout`` seconds (3 on Discord) of dispatch, or
  it gets ``404 / 10062 Unknown interaction`` and the interaction is marked expired;
* a second callback gets ``400 / 40060``; a callback type the interaction type does not allow
  gets 400 (4 message, 5 deferred "thinking" message, 6 deferred update, 7 update message,
  8 autocomplete choices, 9 modal);
* followups and ``@original`` edits before any callback get ``404 / 10015 Unknown Webhook``;
* a thinking defer (5) creates a placeholder flagged LOADING (and EPHEMERAL if asked); the
  first followup after it fills the placeholder, an edit, so its mentions notify nobody;
* ``?with_response=1`` answers with the interaction and the created message, whose
  ``response_message_id`` is how discord.py binds a sent view to its message;
* an interaction goes to one gateway session only, the newest live one of the shard that
  owns the channel's guild (waited for, up to the caller's timeout, while there is none),
  and only the invoking user may use the components of an ephemeral message;
* an answer (a reply, a defer, a followup, an update or a webhook edit) into an archived
  thread reopens it, as a post does, unless it is locked and the bot may not Manage Threads
  (400 50083); a user acts in a locked thread only with Manage Threads.
"""

# Waiting helpers take explicit timeouts so failures can say what was awaited for how long.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Generator, Iterable, Mapping
from typing import Any

from aiohttp import web

from fakediscord.commands import command_data
from fakediscord.gateway import Gateway
from fakediscord.model import Channel, InteractionRecord, MessageRecord
from fakediscord.protocol import (
    ALLOWED_CALLBACKS,
    ATTACHMENT_SIZE_LIMIT,
    DEFAULT_BOT_PERMISSIONS,
    DM_CHANNEL,
    EPHEMERAL,
    JSON,
    LOADING,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    THREAD_TYPES,
    VIEW_CHANNEL,
    ApiError,
    json_response,
    read_body,
    walk_components,
)
from fakediscord.recorder import Recorder
from fakediscord.world import World

__all__ = ["InteractionHandle", "Interactions"]


class InteractionHandle:
    """Test-side handle on a dispatched interaction; ``await handle`` waits for the response."""

    def __init__(self, interactions: Interactions, record: InteractionRecord) -> None:
        self.interactions = interactions
        self.record = record

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record.name!r} id={self.record.id}>"

    def __await__(self) -> Generator[Any, None, InteractionRecord]:
        return self.response().__await__()

    @property
    def message(self) -> MessageRecord | None:
        """The original response message (placeholder, reply, or the updated component message)."""
        mid = self.record.original_message_id
        return None if mid is None else self.interactions.world.messages_by_id[mid]

    @property
    def followup_messages(self) -> list[MessageRecord]:
        """Messages the followups produced (after a thinking defer, the first is the original)."""
        return [self.interactions.world.messages_by_id[i] for i in self.record.followup_ids]

    async def response(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the first accepted callback; fails at once if the interaction expired."""
        rec = self.record

        def check() -> InteractionRecord | None:
            if rec.expired and rec.callback_type is None:
                raise AssertionError(
                    f"{self!r} was answered after the {self.interactions.ack_timeout}s limit "
                    f"(errors {rec.errors})\n{self.interactions.recorder.describe()}"
                )
            return rec if rec.callback_type is not None else None

        return await self.interactions.recorder.wait_for(
            check, timeout=timeout, what=f"the first response to interaction {rec.name!r}"
        )

    async def followups(self, count: int = 1, timeout: float = 5.0) -> list[MessageRecord]:
        """Wait until ``count`` followups were sent and return their messages."""
        await self.interactions.recorder.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            timeout=timeout,
            what=f"{count} followup(s) to interaction {self.record.name!r}",
        )
        return self.followup_messages[:count]


class Interactions:
    """The interactions dispatched to the bot, and the endpoints it answers them through."""

    def __init__(
        self, world: World, recorder: Recorder, gateway: Gateway, *, ack_timeout: float
    ) -> None:
        self.world = world
        self.recorder = recorder
        self.gateway = gateway
        #: Seconds after dispatch within which an interaction callback is accepted.
        self.ack_timeout = ack_timeout

    def _interaction_for(self, token: str) -> InteractionRecord:
        ix = self.world.interactions_by_token.get(token)
        if ix is None or ix.callback_type is None:
            # Followups and @original edits need an acknowledged interaction.
            raise ApiError(404, 10015, "Unknown Webhook")
        return ix

    async def callback(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """POST /interactions/{id}/{token}/callback: the bot acknowledges an interaction."""
        loop_now = asyncio.get_running_loop().time()
        ix = self.world.interactions_by_id.get(int(p["ix"])) if p["ix"].isdigit() else None
        if ix is None or ix.token != p["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if ix.first_callback_at is None:
            ix.first_callback_at = loop_now
        if ix.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if ix.expired or loop_now - ix.dispatched_at > self.ack_timeout:
            ix.expired = True
            self.recorder.bump()
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        ctype, data = int(body["type"]), body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS[ix.type]:
            raise ApiError(400, 50035, f"Invalid callback type {ctype} for interaction {ix.type}")
        message: MessageRecord | None = None
        if ctype == 4:
            message = self.world.messaging.create_message(
                ix.channel_id, self.world.bot_user_id, data, files, interaction=ix
            )
        elif ctype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self.world.messaging.create_message(
                ix.channel_id, self.world.bot_user_id, {}, interaction=ix, extra_flags=flags
            )
        elif ctype in (6, 7) and ix.message_id is not None:
            message = self.world.messages_by_id[ix.message_id]
            if ctype == 7:
                self.world.messaging.edit_message(message, data, files, interaction=True)
        elif ctype == 8:
            ix.choices = list(data.get("choices") or [])
        elif ctype == 9:
            ix.modal = data
        ix.callback_type = ctype
        if message is not None:
            ix.original_message_id = message.id
        self.recorder.bump()
        if "with_response" not in request.query:
            return web.Response(status=204)
        info: JSON = {"id": str(ix.id), "type": ix.type}
        resource: JSON = {"type": ctype}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = ctype == 5
            info["response_message_ephemeral"] = message.ephemeral
            resource["message"] = self.world.messaging.message_payload(message)
        return json_response({"interaction": info, "resource": resource})

    async def followup(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a followup message (or the deferred reply)."""
        ix = self._interaction_for(p["token"])
        body, files = await read_body(request)
        original = self.world.messages_by_id.get(ix.original_message_id or 0)
        if ix.callback_type == 5 and original is not None and original.loading:
            # The first followup after a thinking defer fills the placeholder: an edit,
            # so it keeps the defer's ephemeral flag and notifies nobody.
            m = self.world.messaging.edit_message(original, body, files, interaction=True)
        else:
            m = self.world.messaging.create_message(
                ix.channel_id, self.world.bot_user_id, body, files, interaction=ix
            )
        ix.followup_ids.append(m.id)
        self.recorder.bump()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.world.messaging.message_payload(m))
        return web.Response(status=204)

    async def webhook_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """GET, PATCH or DELETE the original response or a followup."""
        ix = self._interaction_for(p["token"])
        raw = p["msg"]
        mid = ix.original_message_id if raw == "@original" else int(raw) if raw.isdigit() else 0
        m = self.world.messages_by_id.get(mid or 0)
        if m is None or m.deleted or (mid != ix.original_message_id and mid not in ix.followup_ids):
            raise ApiError(404, 10008, "Unknown Message")
        if request.method == "DELETE":
            self.world.messaging.delete_message(m)
            return web.Response(status=204)
        if request.method == "PATCH":
            body, files = await read_body(request)
            self.world.messaging.edit_message(m, body, files, interaction=True)
        return json_response(self.world.messaging.message_payload(m))

    async def _start(
        self,
        kind: int,
        user: int,
        channel: Channel,
        data: JSON,
        name: str,
        *,
        message: MessageRecord | None = None,
        timeout: float,
    ) -> InteractionRecord:
        # Like Discord, an interaction goes to one session only: the newest live one of the
        # shard that owns the channel's guild (which may be restarting: it is waited for).
        self._check_reach(user, channel)
        await self.gateway.wait_serving(channel.guild_id, timeout)
        ix_id, token = self.world.next_id(), secrets.token_urlsafe(48)
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: JSON = {
            "id": str(ix_id),
            "application_id": str(self.world.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "locale": self.world.users[user].locale if user in self.world.users else "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id if guild else 0)},
            "context": 0 if guild else 1,
            "channel_id": str(channel.id),
            "data": data,
        }
        if guild is not None:
            if user not in guild.members:
                raise ValueError(f"user {user} is not a member of guild {guild.id}")
            # Both as the channel's overwrites leave them, as Discord sends them.
            perms = self.world.directory.channel_permissions(channel.id, self.world.bot_user_id)
            member = self.world.directory.member_payload(guild, user)
            member["permissions"] = str(self.world.directory.channel_permissions(channel.id, user))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                app_permissions=str(perms),
                member=member,
                channel={
                    **self.world.directory.channel_payload(channel),
                    "permissions": str(perms),
                },
            )
        else:
            payload.update(
                user=self.world.directory.user_payload(user),
                channel=self.world.directory.channel_payload(channel),
            )
            payload["app_permissions"] = str(DEFAULT_BOT_PERMISSIONS)
        if message is not None:
            payload["message"] = self.world.messaging.message_payload(message)
        loop_now = asyncio.get_running_loop().time()
        ix = InteractionRecord(
            ix_id, token, kind, user, channel.id, channel.guild_id, name, payload, loop_now,
            message_id=message.id if message else None,
        )  # fmt: skip
        self.world.interactions.append(ix)
        self.world.interactions_by_id[ix_id] = ix
        self.world.interactions_by_token[token] = ix
        live = [s for s in self.world.sessions.values() if s.live and s.owns(channel.guild_id)]
        live[-1].dispatch("INTERACTION_CREATE", payload)
        self.recorder.bump()
        return ix

    def _check_reach(self, user: int, channel: Channel) -> None:
        """Refuse, as the Discord app would not offer it, acting in another user's DM with the
        bot, in a private thread the user cannot see, or in a locked thread without Manage
        Threads."""
        if channel.type == DM_CHANNEL and channel.recipient_id != user:
            raise ValueError(
                f"channel {channel.id} is the bot's DM with user {channel.recipient_id}, "
                f"not with user {user}"
            )
        if channel.type not in THREAD_TYPES:
            return
        guild = self.world.guilds[channel.guild_id or 0]
        perms = self.world.directory.channel_permissions(channel.id, user)
        if user not in guild.members:
            return
        if channel.type == PRIVATE_THREAD and not perms & VIEW_CHANNEL:
            raise ValueError(f"user {user} cannot see private thread {channel.id}")
        if channel.locked and not perms & MANAGE_THREADS:
            raise ValueError(f"thread {channel.id} is locked: user {user} cannot act in it")

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
        ch = self.world.channel(channel)
        data = command_data(self.world, ch, path, options or {}, None)
        ix = await self._start(2, user, ch, data, " ".join(path), timeout=timeout)
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
        ch = self.world.channel(channel)
        data = command_data(self.world, ch, path, options, focused)
        name = f"autocomplete {' '.join(path)} {focused}={options[focused]!r}"
        ix = await self._start(4, user, ch, data, name, timeout=timeout)
        await InteractionHandle(self, ix).response(timeout)
        assert ix.choices is not None
        return ix.choices

    def _message_for_component(
        self, user: int, message: MessageRecord | int, *, forged: bool = False
    ) -> MessageRecord:
        m = self.world.messages_by_id[message if isinstance(message, int) else message.id]
        if m.deleted:
            raise ValueError(f"message {m.id} was deleted")
        ix = self.world.interactions_by_id.get(m.interaction_id or 0)
        if m.ephemeral and ix is not None and ix.user_id != user and not forged:
            raise ValueError(f"only the invoking user can use ephemeral message {m.id}")
        return m

    def _component(self, m: MessageRecord, custom_id: str, kinds: Iterable[int]) -> JSON:
        for comp in walk_components(m.components):
            if comp.get("custom_id") == custom_id and comp["type"] in kinds:
                if comp.get("disabled"):
                    raise ValueError(f"component {custom_id!r} on message {m.id} is disabled")
                return comp
        raise ValueError(f"no component {custom_id!r} on message {m.id}: {m.custom_ids()}")

    async def click(
        self,
        user: int,
        message: MessageRecord | int,
        custom_id: str,
        *,
        timeout: float = 5.0,
        forged: bool = False,
    ) -> InteractionHandle:
        """Click the button ``custom_id`` on ``message`` as ``user``; ``forged`` clicks it even
        on another user's ephemeral message (a custom id passed on and replayed), so that the
        bot's own check of who presses is tested."""
        m = self._message_for_component(user, message, forged=forged)
        self._component(m, custom_id, (2,))
        data = {"custom_id": custom_id, "component_type": 2}
        ix = await self._start(
            3,
            user,
            self.world.channels[m.channel_id],
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
            data["resolved"] = {
                "users": {v: self.world.directory.user_payload(int(v)) for v in data["values"]}
            }
        ix = await self._start(
            3,
            user,
            self.world.channels[m.channel_id],
            data,
            f"select {custom_id}",
            message=m,
            timeout=timeout,
        )
        return InteractionHandle(self, ix)

    @property
    def ack_latencies(self) -> list[float]:
        """Dispatch-to-first-callback times of all answered interactions, in dispatch order."""
        return [ix.ack_latency for ix in self.world.interactions if ix.ack_latency is not None]
