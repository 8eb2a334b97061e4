"""The world a bot sees: users, guilds, roles, channels and messages, and the events they make.

:class:`World` holds the state and builds Discord's payloads from it. Creating, editing and
deleting a message here is what Discord does on a bot's REST request: the message is stored,
its mentions are parsed under ``allowed_mentions``, who it notified is fixed at creation, and
MESSAGE_CREATE/UPDATE/DELETE go to every gateway session whose intents ask for them.
"""

from __future__ import annotations

import dataclasses
import mimetypes
import time
from collections.abc import Callable, Iterable

from fakediscord import layouts
from fakediscord.model import (
    Attachment,
    Channel,
    CommandSync,
    Guild,
    InteractionRecord,
    MessageRecord,
    Overwrite,
    Role,
    User,
)
from fakediscord.protocol import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    CHANNEL_DEFAULTS,
    COMPONENTS_V2,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DISCORD_EPOCH_MS,
    DM_CHANNEL,
    GUILD_DEFAULTS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MEMBERS,
    INTENT_MESSAGE_CONTENT,
    JSON,
    KEPT_FLAGS,
    LOADING,
    MANAGE_THREADS,
    MAX_CONTENT,
    MEMBER_DEFAULTS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    ROLE_MENTION,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SENDING_PERMISSIONS,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    THREAD_TYPES,
    USER_MENTION,
    VIEW_CHANNEL,
    ApiError,
    Files,
    now_iso,
)
from fakediscord.recorder import Recorder
from fakediscord.sessions import Session

__all__ = ["Files", "World"]

Files = Files
"""Uploaded files by their ``files[n]`` index: file name, data, content type."""


def guild_of(event: str, payload: JSON) -> int | None:
    """The guild an event is about: the guild itself for GUILD_CREATE, UPDATE and DELETE,
    else the payload's ``guild_id``; ``None`` outside any guild."""
    key = "id" if event in _GUILD_ITSELF else "guild_id"
    value = payload.get(key)
    return None if value is None else int(value)


_GUILD_ITSELF = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


class World:
    """Users, guilds, channels, messages and interactions, with the bot user created first.

    The bot user's id is also the application id. ``cdn_base`` is where attachment URLs point
    (set once the server knows its address).
    """

    def __init__(self, recorder: Recorder, *, bot_name: str, shard_count: int = 1) -> None:
        self.recorder = recorder
        #: The shards the bot must run (``GET /gateway/bot``); more than 1: IDENTIFY needs
        #: a ``shard``.
        self.shard_count = shard_count
        self.cdn_base = ""
        self._last_id = 0
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.bot_user_id = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user_id
        self.messages: list[MessageRecord] = []
        self.messages_by_id: dict[int, MessageRecord] = {}
        self.interactions: list[InteractionRecord] = []
        self.interactions_by_id: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_syncs: list[CommandSync] = []
        self.sessions: dict[str, Session] = {}

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

    def add_user(self, name: str, *, bot: bool = False) -> int:
        """Create a user and return its id."""
        uid = self.next_id()
        self.users[uid] = User(uid, name, bot)
        return uid

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: int | None = None,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        shard: tuple[int, int] | None = None,
    ) -> int:
        """Create a guild with the bot in it (holding ``bot_permissions``); return its id.

        ``shard`` (id, count) picks an id whose events go to that shard.
        """
        gid = self.next_id(shard=shard)
        owner_id = owner if owner is not None else self.add_user(f"{name} owner")
        guild = Guild(gid, name, owner_id)
        guild.roles[gid] = Role(gid, "@everyone", everyone_permissions, 0)
        self.guilds[gid] = guild
        guild.members[owner_id] = []
        self.add_member(gid, self.bot_user_id, permissions=bot_permissions, announce=False)
        self.dispatch("GUILD_CREATE", self.guild_payload(guild))
        return gid

    def add_role(
        self, guild: int, name: str, permissions: int = 0, *, announce: bool = True
    ) -> int:
        """Create a role in ``guild`` and return its id."""
        g = self.guilds[guild]
        rid = self.next_id()
        g.roles[rid] = Role(rid, name, permissions, len(g.roles))
        if announce:
            payload = {"guild_id": str(guild), "role": g.roles[rid].payload()}
            self.dispatch("GUILD_ROLE_CREATE", payload)
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
            payload = {**self.member_payload(g, user), "guild_id": str(guild)}
            self.dispatch("GUILD_MEMBER_ADD", payload, intent=INTENT_MEMBERS)

    def add_channel(self, guild: int, name: str) -> int:
        """Create a text channel in ``guild`` and return its id."""
        g = self.guilds[guild]
        cid = self.next_id()
        self.channels[cid] = Channel(cid, name, 0, guild, position=len(g.channel_ids))
        g.channel_ids.append(cid)
        self.dispatch("CHANNEL_CREATE", self.channel_payload(self.channels[cid]))
        return cid

    def dm_channel(self, user: int) -> int:
        """The id of the bot's DM channel with ``user`` (created on first use)."""
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient_id == user:
                return ch.id
        cid = self.next_id()
        self.channels[cid] = Channel(cid, "", 1, None, recipient_id=user)
        return cid

    def permissions(self, guild: int, user: int) -> int:
        """Guild-level permissions of ``user`` (owner and Administrator get all)."""
        g = self.guilds[guild]
        if user == g.owner_id:
            return ALL_PERMISSIONS
        perms = g.roles[guild].permissions
        for rid in g.members.get(user, []):
            perms |= g.roles[rid].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions(self, channel_id: int, user: int) -> int:
        """What ``user`` may do in a guild channel or thread, as Discord computes it: the guild
        permissions, then the channel's overwrites (@everyone, the member's roles together,
        the member), a thread taking its parent's; without View Channel nothing is allowed,
        and without Send Messages (in a thread: Send Messages in Threads) no attaching,
        embedding or mentioning everyone either. A private thread is hidden (nothing allowed)
        from everyone but its members and those who may Manage Threads there."""
        ch = self.channels[channel_id]
        send = SEND_MESSAGES_IN_THREADS if ch.type in THREAD_TYPES else SEND_MESSAGES
        if ch.type == PRIVATE_THREAD and user not in ch.thread_members:
            parent = self.channel_permissions(ch.parent_id or 0, user)
            if not parent & MANAGE_THREADS:
                return 0
        if ch.parent_id is not None:
            ch = self.channels[ch.parent_id]
        if ch.guild_id is None:
            return ALL_PERMISSIONS
        perms = self.permissions(ch.guild_id, user)
        if perms == ALL_PERMISSIONS:
            return perms
        g = self.guilds[ch.guild_id]
        everyone = ch.overwrites.get(g.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        roles = [ch.overwrites[r] for r in g.members.get(user, []) if r in ch.overwrites]
        deny = allow = 0
        for overwrite in roles:
            deny |= overwrite.deny
            allow |= overwrite.allow
        perms = (perms & ~deny) | allow
        member = ch.overwrites.get(user)
        if member is not None and member.type == 1:
            perms = (perms & ~member.deny) | member.allow
        if not perms & VIEW_CHANNEL:
            return 0
        if not perms & send:
            # Sending in threads and in the channel are separate: one does not gate the other.
            other = SEND_MESSAGES if send == SEND_MESSAGES_IN_THREADS else SEND_MESSAGES_IN_THREADS
            perms &= ~(SENDING_PERMISSIONS & ~other)
        return perms

    def set_overwrite(self, channel: int, target: int, *, allow: int = 0, deny: int = 0) -> None:
        """Set the channel's permission overwrite for a role or member ``target`` (both 0
        removes it) and dispatch CHANNEL_UPDATE."""
        ch = self.channels[channel]
        if ch.guild_id is None:
            raise ValueError(f"channel {channel} is a DM channel: it has no overwrites")
        kind = 0 if target in self.guilds[ch.guild_id].roles else 1
        if allow or deny:
            ch.overwrites[target] = Overwrite(target, kind, allow, deny)
        else:
            ch.overwrites.pop(target, None)
        self.dispatch("CHANNEL_UPDATE", self.channel_payload(ch))
        self.recorder.bump()

    def set_role_permissions(self, guild: int, role: int, permissions: int) -> None:
        """Change what a role (the guild's id: @everyone) allows; dispatch GUILD_ROLE_UPDATE."""
        r = self.guilds[guild].roles[role]
        r.permissions = permissions
        self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild), "role": r.payload()})
        self.recorder.bump()

    def add_thread(
        self,
        channel: int,
        name: str,
        *,
        owner: int | None = None,
        private: bool = False,
        invitable: bool = True,
    ) -> int:
        """Open a thread in the text channel ``channel``, its ``owner`` (the guild's owner by
        default) its first member: public (type 11), or ``private`` (type 12). THREAD_CREATE,
        with ``newly_created``, goes to the bot where it can see the thread. Return its id."""
        parent = self.channels[channel]
        if parent.guild_id is None or parent.type != 0:
            raise ValueError(f"channel {channel} is not a guild text channel: no threads there")
        tid = self.next_id()
        owner_id = owner if owner is not None else self.guilds[parent.guild_id].owner_id
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = Channel(tid, name, kind, parent.guild_id, parent_id=parent.id, owner_id=owner_id)
        thread.invitable = invitable
        thread.thread_members[owner_id] = now_iso()
        self.channels[tid] = thread
        if not private or self._bot_sees(thread):
            self.dispatch("THREAD_CREATE", {**self.channel_payload(thread), "newly_created": True})
        self.recorder.bump()
        return tid

    def _bot_sees(self, ch: Channel) -> bool:
        return bool(self.channel_permissions(ch.id, self.bot_user_id) & VIEW_CHANNEL)

    def add_thread_member(self, thread: int, user: int) -> None:
        """Make ``user`` (a member of the guild) a member of ``thread``, as Discord does on
        ``PUT /channels/{thread}/thread-members/{user}``.

        THREAD_MEMBERS_UPDATE goes, where the bot sees the thread, to a session with the
        (privileged) members intent, or to any session when the bot itself was added; a
        private thread the bot could not see before reaches it first as a THREAD_CREATE
        carrying its own thread member.
        """
        ch = self.channels[thread]
        if ch.type not in THREAD_TYPES or ch.guild_id is None:
            raise ValueError(f"channel {thread} is not a thread")
        guild = self.guilds[ch.guild_id]
        if user not in guild.members:
            raise ValueError(f"user {user} is not a member of guild {guild.id}")
        if user in ch.thread_members:
            return
        saw = self._bot_sees(ch)
        ch.thread_members[user] = now_iso()
        if user == self.bot_user_id and not saw:
            self.dispatch("THREAD_CREATE", self.channel_payload(ch))
        added = {**self._thread_member(ch, user), "member": self.member_payload(guild, user)}
        if self._bot_sees(ch):
            self._members_update(ch, user, {"added_members": [added]})
        self.recorder.bump()

    def remove_thread_member(self, thread: int, user: int) -> None:
        """Take ``user`` out of ``thread``; THREAD_MEMBERS_UPDATE as for
        :meth:`add_thread_member`."""
        ch = self.channels[thread]
        saw = self._bot_sees(ch)
        if ch.thread_members.pop(user, None) is None:
            return
        if saw:
            self._members_update(ch, user, {"removed_member_ids": [str(user)]})
        self.recorder.bump()

    def _members_update(self, ch: Channel, user: int, change: JSON) -> None:
        # Discord sends others' thread joins and leaves only with the members intent.
        payload = {"id": str(ch.id), "guild_id": str(ch.guild_id), **change}
        payload["member_count"] = len(ch.thread_members)
        intent = 0 if user == self.bot_user_id else INTENT_MEMBERS
        self.dispatch("THREAD_MEMBERS_UPDATE", payload, intent=intent)

    def _thread_member(self, ch: Channel, user: int) -> JSON:
        return {
            **{"id": str(ch.id), "user_id": str(user)},
            **{"join_timestamp": ch.thread_members[user], "flags": 0},
        }

    def set_accepts_dms(self, user: int, accepts: bool) -> None:
        """Whether ``user`` lets the bot message them directly (their privacy setting)."""
        self.users[user].accepts_dms = accepts

    def dm_messages(self, user: int) -> list[MessageRecord]:
        """The non-deleted messages of the bot's DM channel with ``user``, oldest first
        (none when it was never opened)."""
        for ch in self.channels.values():
            if ch.type == DM_CHANNEL and ch.recipient_id == user:
                return self.channel_messages(ch.id)
        return []

    def delete_channel(self, channel: int) -> None:
        """Delete a channel (with its threads) or a thread: later requests about it get 404
        Unknown Channel; CHANNEL_DELETE (THREAD_DELETE for a thread) is dispatched."""
        ch = self.channel(channel)
        if ch.guild_id is None:
            raise ValueError(f"channel {channel} is a DM channel: it cannot be deleted")
        for thread in [c for c in self.channels.values() if c.parent_id == ch.id]:
            self.delete_channel(thread.id)
        del self.channels[ch.id]
        g = self.guilds[ch.guild_id]
        if ch.id in g.channel_ids:
            g.channel_ids.remove(ch.id)
        if ch.type in THREAD_TYPES:
            ids = {"id": str(ch.id), "guild_id": str(ch.guild_id), "type": ch.type}
            self.dispatch("THREAD_DELETE", {**ids, "parent_id": str(ch.parent_id)})
        else:
            self.dispatch("CHANNEL_DELETE", self.channel_payload(ch))
        self.recorder.bump()

    def remove_member(self, guild: int, user: int) -> None:
        """``user`` leaves ``guild``; GUILD_MEMBER_REMOVE goes only to sessions with the
        (privileged) members intent, as on Discord."""
        g = self.guilds[guild]
        del g.members[user]
        payload = {"guild_id": str(guild), "user": self.user_payload(user)}
        self.dispatch("GUILD_MEMBER_REMOVE", payload, intent=INTENT_MEMBERS)
        self.recorder.bump()

    def channel(self, channel_id: int | str) -> Channel:
        """The channel ``channel_id``, or Discord's 404 Unknown Channel."""
        ch = self.channels.get(int(channel_id)) if str(channel_id).isdigit() else None
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch

    def user_payload(self, uid: int) -> JSON:
        """The user object of ``uid``."""
        return self.users[uid].payload()

    def member_payload(self, guild: Guild, uid: int, *, with_user: bool = True) -> JSON:
        """The guild member object of ``uid`` (inside a message, without ``user``)."""
        roles = [str(r) for r in guild.members[uid]]
        payload: JSON = {**MEMBER_DEFAULTS, "roles": roles, "joined_at": guild.joined_at}
        if with_user:
            payload["user"] = self.user_payload(uid)
        return payload

    def channel_payload(self, ch: Channel) -> JSON:
        """The channel object of ``ch``."""
        if ch.type == 1:
            assert ch.recipient_id is not None
            recipients = [self.user_payload(ch.recipient_id)]
            return {"id": str(ch.id), "type": 1, "recipients": recipients, "last_message_id": None}
        ids = {"id": str(ch.id), "guild_id": str(ch.guild_id)}
        if ch.type in THREAD_TYPES:
            # fmt: off
            payload: JSON = {
                **ids, "type": ch.type, "name": ch.name, "parent_id": str(ch.parent_id),
                "owner_id": str(ch.owner_id), "last_message_id": None, "rate_limit_per_user": 0,
                "message_count": 0, "member_count": len(ch.thread_members), "flags": 0,
                "thread_metadata": {
                    "archived": False, "auto_archive_duration": 1440, "locked": False,
                    "archive_timestamp": now_iso(),
                    **({"invitable": ch.invitable} if ch.type == PRIVATE_THREAD else {}),
                },
            }
            # fmt: on
            if self.bot_user_id in ch.thread_members:
                # The bot's own thread member, as Discord adds it for the current user.
                payload["member"] = self._thread_member(ch, self.bot_user_id)
            return payload
        return {
            **CHANNEL_DEFAULTS,
            **ids,
            "type": ch.type,
            "name": ch.name,
            "position": ch.position,
            "permission_overwrites": [o.payload() for o in ch.overwrites.values()],
        }

    def guild_payload(self, g: Guild) -> JSON:
        """The full guild object of GUILD_CREATE: roles, channels, members."""
        return {
            **GUILD_DEFAULTS,
            **{"id": str(g.id), "name": g.name, "owner_id": str(g.owner_id)},
            "joined_at": g.joined_at,
            "roles": [r.payload() for r in g.roles.values()],
            "channels": [self.channel_payload(self.channels[c]) for c in g.channel_ids],
            "threads": [
                self.channel_payload(c)
                for c in self.channels.values()
                if c.guild_id == g.id
                and c.type in THREAD_TYPES
                and (c.type != PRIVATE_THREAD or self._bot_sees(c))
            ],
            "members": [self.member_payload(g, uid) for uid in g.members],
            # member_count == len(members) keeps discord.py from chunking at startup.
            "member_count": len(g.members),
        }

    def message_payload(self, m: MessageRecord) -> JSON:
        """The message as Discord's API would return it."""
        # fmt: off
        payload: JSON = {
            "id": str(m.id), "channel_id": str(m.channel_id), "type": m.type,
            "content": m.content, "author": self.user_payload(m.author_id),
            "attachments": [a.payload() for a in m.attachments], "embeds": m.embeds,
            "components": m.components, "flags": m.flags, "pinned": False, "tts": False,
            "mentions": [self.user_payload(u) for u in m.mentions],
            "mention_roles": [str(r) for r in m.mention_roles],
            "mention_everyone": m.mention_everyone,
            "timestamp": m.created_at, "edited_timestamp": m.edited_at,
        }
        # fmt: on
        if m.guild_id is not None:
            payload["guild_id"] = str(m.guild_id)
            guild = self.guilds[m.guild_id]
            if m.author_id in guild.members:
                payload["member"] = self.member_payload(guild, m.author_id, with_user=False)
        if m.reference_id is not None:
            payload["message_reference"] = {"type": 0, "message_id": str(m.reference_id)}
        if m.interaction_id is not None:
            ix = self.interactions_by_id[m.interaction_id]
            payload["application_id"] = str(self.application_id)
            payload["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": self.user_payload(ix.user_id),
                "authorizing_integration_owners": {"0": str(ix.guild_id or 0)},
                **({"name": ix.name} if ix.type == 2 else {}),
                **({"interacted_message_id": str(ix.message_id)} if ix.message_id else {}),
            }
        return payload

    def _compute_mentions(
        self, m: MessageRecord, allowed: JSON | None, replied_author: int | None
    ) -> None:
        explicit = allowed is not None
        allowed = allowed if allowed is not None else {"parse": ["users", "roles", "everyone"]}
        parse = set(allowed.get("parse", []))
        text = m.text
        user_ids = list(dict.fromkeys(int(u) for u in USER_MENTION.findall(text)))
        user_ids = [u for u in user_ids if u in self.users]
        if "users" not in parse:
            listed = {int(u) for u in allowed.get("users", [])}
            user_ids = [u for u in user_ids if u in listed]
        guild = self.guilds.get(m.guild_id) if m.guild_id is not None else None
        role_ids = [int(r) for r in ROLE_MENTION.findall(text)]
        role_ids = [r for r in role_ids if guild is not None and r in guild.roles]
        if "roles" not in parse:
            listed = {int(r) for r in allowed.get("roles", [])}
            role_ids = [r for r in role_ids if r in listed]
        reply_pings = allowed.get("replied_user", False) if explicit else True
        if replied_author is not None and reply_pings and replied_author not in user_ids:
            user_ids.append(replied_author)
        m.mentions, m.mention_roles = user_ids, role_ids
        m.mention_everyone = "everyone" in parse and any(
            tag in text for tag in ("@everyone", "@here")
        )

    def _notified(self, m: MessageRecord) -> frozenset[int]:
        if m.ephemeral or m.flags & SUPPRESS_NOTIFICATIONS:
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
        self, channel_id: int, specs: list[JSON] | None, files: Files
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
            aid = self.next_id()
            url = f"{self.cdn_base}/attachments/{channel_id}/{aid}/{name}"
            guessed = mimetypes.guess_type(name)[0]
            description = spec.get("description")
            result.append(Attachment(aid, name, data, guessed or ctype, url, description))
        return result

    def _validate_content(self, m: MessageRecord) -> None:
        if m.components_v2 and (m.content or m.embeds):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body: content and embeds cannot be used with IS_COMPONENTS_V2",
            )
        layouts.check(m.components, v2=m.components_v2)
        if len(m.content) > MAX_CONTENT:
            raise ApiError(
                400, 50035, f"Invalid Form Body: content must be {MAX_CONTENT} or fewer in length"
            )
        if not (m.content or m.embeds or m.attachments or m.components or m.loading):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def create_message(
        self,
        channel_id: int,
        author_id: int,
        body: JSON,
        files: Files | None = None,
        *,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> MessageRecord:
        """Store a new message as Discord does on a POST, and dispatch MESSAGE_CREATE."""
        ch = self.channel(channel_id)
        m = MessageRecord(
            id=self.next_id(),
            channel_id=ch.id,
            guild_id=ch.guild_id,
            author_id=author_id,
            order=len(self.messages),
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=(int(body.get("flags") or 0) & KEPT_FLAGS) | extra_flags,
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
        m.components = layouts.stored(m.components, m.attachments)
        self._compute_mentions(m, body.get("allowed_mentions"), replied_author)
        m.notified = self._notified(m)
        self.messages.append(m)
        self.messages_by_id[m.id] = m
        if not m.ephemeral:
            self.dispatch_message("MESSAGE_CREATE", m)
        self.recorder.bump()
        return m

    def edit_message(
        self, m: MessageRecord, body: JSON, files: Files | None = None
    ) -> MessageRecord:
        """Apply an edit; edits (and deferred fills) never notify anyone. A refused edit
        changes nothing."""
        before = dataclasses.replace(m)
        try:
            self._apply_edit(m, body, files)
        except ApiError:
            for name in ("content", "embeds", "components", "attachments", "flags"):
                setattr(m, name, getattr(before, name))
            raise
        m.edited_at = now_iso()
        if not m.ephemeral:
            self.dispatch_message("MESSAGE_UPDATE", m)
        self.recorder.bump()
        return m

    def _apply_edit(self, m: MessageRecord, body: JSON, files: Files | None) -> None:
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
            m.attachments = m.attachments + self._make_attachments(m.channel_id, None, files)
        if body.get("flags") is not None:
            flags = int(body["flags"])
            if m.components_v2 and not flags & COMPONENTS_V2:
                raise ApiError(
                    400, 50035, "Invalid Form Body: flags: IS_COMPONENTS_V2 cannot be removed"
                )
            m.flags = (m.flags & ~SUPPRESS_EMBEDS) | (flags & (SUPPRESS_EMBEDS | COMPONENTS_V2))
        m.flags &= ~LOADING
        self._validate_content(m)
        m.components = layouts.stored(m.components, m.attachments)
        self._compute_mentions(m, body.get("allowed_mentions"), None)

    def delete_message(self, m: MessageRecord) -> None:
        """Mark ``m`` deleted and dispatch MESSAGE_DELETE (unless ephemeral)."""
        m.deleted = True
        if not m.ephemeral:
            data = {"id": str(m.id), "channel_id": str(m.channel_id)}
            if m.guild_id is not None:
                data["guild_id"] = str(m.guild_id)
            intent = INTENT_GUILD_MESSAGES if m.guild_id else INTENT_DIRECT_MESSAGES
            self.dispatch("MESSAGE_DELETE", data, intent=intent)
        self.recorder.bump()

    def visible_message(self, channel_id: str, message_id: str) -> MessageRecord:
        """A message ``/channels/...`` may reach, or 404 Unknown Message."""
        m = self.messages_by_id.get(int(message_id)) if message_id.isdigit() else None
        # Ephemeral messages are only reachable through the interaction webhook.
        if m is None or m.deleted or m.ephemeral or str(m.channel_id) != channel_id:
            raise ApiError(404, 10008, "Unknown Message")
        return m

    async def say(self, user: int, channel: int, content: str) -> MessageRecord:
        """Post a message as ``user`` (a human) and dispatch MESSAGE_CREATE to the bot."""
        return self.create_message(channel, user, {"content": content})

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

    def dispatch_message(self, event: str, m: MessageRecord) -> None:
        """Dispatch a message event; without MESSAGE_CONTENT a guild message loses
        its content unless the bot wrote it or is mentioned in it."""
        full = self.message_payload(m)

        def for_session(session: Session) -> JSON:
            if (
                session.intents & INTENT_MESSAGE_CONTENT
                or m.author_id == self.bot_user_id
                or m.guild_id is None
                or self.bot_user_id in m.mentions
            ):
                return full
            return {**full, "content": "", "embeds": [], "attachments": [], "components": []}

        intent = INTENT_GUILD_MESSAGES if m.guild_id else INTENT_DIRECT_MESSAGES
        self.dispatch(event, for_session, intent=intent)

    def guild(self, guild_id: str) -> Guild:
        """The guild ``guild_id``, or Discord's 404 Unknown Guild."""
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def channel_messages(
        self, channel: int, *, include_ephemeral: bool = True
    ) -> list[MessageRecord]:
        """Non-deleted messages of ``channel`` in creation order."""
        return [
            m
            for m in self.messages
            if m.channel_id == channel and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]
