"""Who and where: users, guilds with their roles and members, channels with their threads,
the bot's DM channels, and what each user may do where.

:class:`Directory` makes and changes them as Discord does (for a test, or on the bot's REST
request), dispatches the events each change makes (GUILD_CREATE, GUILD_MEMBER_ADD,
CHANNEL_UPDATE, THREAD_CREATE, THREAD_UPDATE, ...) and builds their payloads. Permissions are
computed as Discord computes them: the guild's roles, then the channel's overwrites.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from fakediscord.model import Channel, Guild, Overwrite, Role, User
from fakediscord.protocol import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    AUTO_ARCHIVE_DURATIONS,
    CHANNEL_DEFAULTS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    GUILD_DEFAULTS,
    INTENT_MEMBERS,
    JSON,
    MANAGE_THREADS,
    MAX_THREAD_NAME,
    MEMBER_DEFAULTS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SENDING_PERMISSIONS,
    THREAD_TYPES,
    VIEW_CHANNEL,
    ApiError,
    now_iso,
)

if TYPE_CHECKING:
    from fakediscord.world import World

__all__ = ["ARCHIVED_THREAD", "Directory", "check_thread_fields"]

ARCHIVED_THREAD = "Thread is archived"
"""The message Discord answers with its error 50083 (documented as "Operation cannot be
performed on an archived thread"), always with status 400."""


def check_thread_fields(name: str | None, auto_archive_duration: int | None) -> None:
    """Refuse, with 400 50035 as Discord does, a thread name not 1 to 100 characters long or
    an auto-archive duration other than 60, 1440, 4320 or 10080 minutes."""
    if name is not None and not 1 <= len(name) <= MAX_THREAD_NAME:
        raise ApiError(400, 50035, f"Invalid Form Body: name must be 1 to {MAX_THREAD_NAME} long")
    if auto_archive_duration is not None and auto_archive_duration not in AUTO_ARCHIVE_DURATIONS:
        allowed = ", ".join(str(d) for d in sorted(AUTO_ARCHIVE_DURATIONS))
        raise ApiError(
            400, 50035, f"Invalid Form Body: auto_archive_duration must be one of {allowed}"
        )


class Directory:
    """The users, guilds and channels of ``world``: made, changed and written as payloads."""

    def __init__(self, world: World) -> None:
        self.world = world

    def add_user(self, name: str, *, bot: bool = False, locale: str | None = None) -> int:
        """Create a user (whose Discord client speaks ``locale``, by default the server's
        ``locale``) and return its id."""
        locale = locale or self.world.locale
        uid = self.world.next_id()
        self.world.users[uid] = User(uid, name, bot, locale=locale)
        return uid

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: int | None = None,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        shard: tuple[int, int] | None = None,
        locale: str | None = None,
    ) -> int:
        """Create a guild with the bot in it (holding ``bot_permissions``); return its id.

        ``shard`` (id, count) picks an id whose events go to that shard; ``locale`` is the
        server's language.
        """
        gid = self.world.next_id(shard=shard)
        owner_id = owner if owner is not None else self.add_user(f"{name} owner")
        guild = Guild(gid, name, owner_id, locale=locale or self.world.locale)
        guild.roles[gid] = Role(gid, "@everyone", everyone_permissions, 0)
        self.world.guilds[gid] = guild
        guild.members[owner_id] = []
        self.add_member(gid, self.world.bot_user_id, permissions=bot_permissions, announce=False)
        self.world.dispatch("GUILD_CREATE", self.guild_payload(guild))
        return gid

    def add_role(
        self, guild: int, name: str, permissions: int = 0, *, announce: bool = True
    ) -> int:
        """Create a role in ``guild`` and return its id."""
        g = self.world.guilds[guild]
        rid = self.world.next_id()
        g.roles[rid] = Role(rid, name, permissions, len(g.roles))
        if announce:
            payload = {"guild_id": str(guild), "role": g.roles[rid].payload()}
            self.world.dispatch("GUILD_ROLE_CREATE", payload)
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
        g = self.world.guilds[guild]
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
            self.world.dispatch("GUILD_MEMBER_ADD", payload, intent=INTENT_MEMBERS)

    def add_channel(self, guild: int, name: str) -> int:
        """Create a text channel in ``guild`` and return its id."""
        g = self.world.guilds[guild]
        cid = self.world.next_id()
        self.world.channels[cid] = Channel(cid, name, 0, guild, position=len(g.channel_ids))
        g.channel_ids.append(cid)
        self.world.dispatch("CHANNEL_CREATE", self.channel_payload(self.world.channels[cid]))
        return cid

    def dm_channel(self, user: int) -> int:
        """The id of the bot's DM channel with ``user`` (created on first use): where
        ``slash``, ``say`` and the clicks on the bot's DMs act as that user."""
        for ch in self.world.channels.values():
            if ch.type == 1 and ch.recipient_id == user:
                return ch.id
        cid = self.world.next_id()
        self.world.channels[cid] = Channel(cid, "", 1, None, recipient_id=user)
        return cid

    def permissions(self, guild: int, user: int) -> int:
        """Guild-level permissions of ``user`` (owner and Administrator get all)."""
        g = self.world.guilds[guild]
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
        ch = self.world.channels[channel_id]
        send = SEND_MESSAGES_IN_THREADS if ch.type in THREAD_TYPES else SEND_MESSAGES
        if ch.type == PRIVATE_THREAD and user not in ch.thread_members:
            parent = self.channel_permissions(ch.parent_id or 0, user)
            if not parent & MANAGE_THREADS:
                return 0
        if ch.parent_id is not None:
            ch = self.world.channels[ch.parent_id]
        if ch.guild_id is None:
            return ALL_PERMISSIONS
        perms = self.permissions(ch.guild_id, user)
        if perms == ALL_PERMISSIONS:
            return perms
        g = self.world.guilds[ch.guild_id]
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
        """Set ``channel``'s permission overwrite for a role (the guild's id: @everyone) or a
        member ``target`` (``allow`` and ``deny`` both 0 remove it) and dispatch
        CHANNEL_UPDATE. The bot's requests there are then refused with 403 50001/50013 as
        Discord refuses them."""
        ch = self.world.channels[channel]
        if ch.guild_id is None:
            raise ValueError(f"channel {channel} is a DM channel: it has no overwrites")
        kind = 0 if target in self.world.guilds[ch.guild_id].roles else 1
        if allow or deny:
            ch.overwrites[target] = Overwrite(target, kind, allow, deny)
        else:
            ch.overwrites.pop(target, None)
        self.world.dispatch("CHANNEL_UPDATE", self.channel_payload(ch))
        self.world.recorder.bump()

    def set_role_permissions(self, guild: int, role: int, permissions: int) -> None:
        """Change what a role (the guild's id: @everyone) allows; dispatch GUILD_ROLE_UPDATE."""
        r = self.world.guilds[guild].roles[role]
        r.permissions = permissions
        self.world.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild), "role": r.payload()})
        self.world.recorder.bump()

    def add_thread(
        self,
        channel: int,
        name: str,
        *,
        owner: int | None = None,
        private: bool = False,
        invitable: bool = True,
        auto_archive_duration: int = 1440,
    ) -> int:
        """Open a thread in the text channel ``channel``, its ``owner`` (the guild's owner by
        default) its first member, and return its id: public (type 11), or ``private`` (type
        12: seen only by its members and those who may Manage Threads). THREAD_CREATE, with
        ``newly_created``, goes to the bot where it can see the thread (a private one: once
        the bot is added to it). ``auto_archive_duration`` must be one of Discord's four
        (ApiError 400 50035 otherwise)."""
        parent = self.world.channels[channel]
        if parent.guild_id is None or parent.type != 0:
            raise ValueError(f"channel {channel} is not a guild text channel: no threads there")
        check_thread_fields(name, auto_archive_duration)
        tid = self.world.next_id()
        owner_id = owner if owner is not None else self.world.guilds[parent.guild_id].owner_id
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = Channel(tid, name, kind, parent.guild_id, parent_id=parent.id, owner_id=owner_id)
        thread.invitable = invitable
        thread.auto_archive_duration = auto_archive_duration
        thread.thread_members[owner_id] = now_iso()
        self.world.channels[tid] = thread
        if not private or self._bot_sees(thread):
            self.world.dispatch(
                "THREAD_CREATE", {**self.channel_payload(thread), "newly_created": True}
            )
        self.world.recorder.bump()
        return tid

    def update_thread(
        self,
        thread: int,
        *,
        name: str | None = None,
        archived: bool | None = None,
        locked: bool | None = None,
        auto_archive_duration: int | None = None,
    ) -> None:
        """Change a thread's name or metadata as Discord does once a change is allowed (who
        may is the caller's question): ``archive_timestamp`` moves when ``archived`` changes,
        and THREAD_UPDATE goes to the bot where it sees the thread. A bad name or duration is
        ApiError 400 50035, and nothing changes."""
        ch = self.world.channels[thread]
        if ch.type not in THREAD_TYPES:
            raise ValueError(f"channel {thread} is not a thread")
        check_thread_fields(name, auto_archive_duration)
        if name is not None:
            ch.name = name
        if auto_archive_duration is not None:
            ch.auto_archive_duration = auto_archive_duration
        if locked is not None:
            ch.locked = locked
        if archived is not None and archived != ch.archived:
            ch.archived = archived
            ch.archive_timestamp = now_iso()
        if self._bot_sees(ch):
            self.world.dispatch("THREAD_UPDATE", self.channel_payload(ch))
        self.world.recorder.bump()

    def archive_idle(self, thread: int) -> None:
        """Let ``thread`` sit idle past its ``auto_archive_duration``: Discord archives it
        (THREAD_UPDATE with ``archived`` true); a post or the thread's PATCH reopens it."""
        self.update_thread(thread, archived=True)

    def lock_thread(
        self, thread: int, *, locked: bool = True, archived: bool | None = None
    ) -> None:
        """Lock (or with ``locked=False`` unlock) ``thread`` as a moderator does, archiving or
        reopening it too when ``archived`` is given: from then on only those who may Manage
        Threads post in it, reopen it or act in it (THREAD_UPDATE)."""
        self.update_thread(thread, locked=locked, archived=archived)

    def post_into(self, channel: int, author: int, *, interaction: bool = False) -> None:
        """Let ``author`` post in ``channel`` as Discord does in a thread: into a locked one
        only with Manage Threads (else 400 50083 Thread is archived if it is archived, 403
        50013 Missing Permissions if not; an interaction's answer needs no permission in an
        open locked thread), and a post into an archived thread reopens it (THREAD_UPDATE
        with ``archived`` false) before it is made."""
        ch = self.world.channels[channel]
        if ch.type not in THREAD_TYPES:
            return
        moderator = bool(self.channel_permissions(ch.id, author) & MANAGE_THREADS)
        if ch.locked and not moderator:
            if ch.archived:
                raise ApiError(400, 50083, ARCHIVED_THREAD)
            if not interaction:
                raise ApiError(403, 50013, "Missing Permissions")
        if ch.archived:
            self.update_thread(ch.id, archived=False)

    def _bot_sees(self, ch: Channel) -> bool:
        return bool(self.channel_permissions(ch.id, self.world.bot_user_id) & VIEW_CHANNEL)

    def add_thread_member(self, thread: int, user: int) -> None:
        """Make ``user`` (a member of the guild) a member of ``thread``, as Discord does on
        ``PUT /channels/{thread}/thread-members/{user}``.

        THREAD_MEMBERS_UPDATE goes, where the bot sees the thread, to a session with the
        (privileged) members intent, or to any session when the bot itself was added; a
        private thread the bot could not see before reaches it first as a THREAD_CREATE
        carrying its own thread member.
        """
        ch = self.world.channels[thread]
        if ch.type not in THREAD_TYPES or ch.guild_id is None:
            raise ValueError(f"channel {thread} is not a thread")
        guild = self.world.guilds[ch.guild_id]
        if user not in guild.members:
            raise ValueError(f"user {user} is not a member of guild {guild.id}")
        if user in ch.thread_members:
            return
        saw = self._bot_sees(ch)
        ch.thread_members[user] = now_iso()
        if user == self.world.bot_user_id and not saw:
            self.world.dispatch("THREAD_CREATE", self.channel_payload(ch))
        added = {**self._thread_member(ch, user), "member": self.member_payload(guild, user)}
        if self._bot_sees(ch):
            self._members_update(ch, user, {"added_members": [added]})
        self.world.recorder.bump()

    def remove_thread_member(self, thread: int, user: int) -> None:
        """Take ``user`` out of ``thread``; THREAD_MEMBERS_UPDATE as for
        :meth:`add_thread_member`."""
        ch = self.world.channels[thread]
        saw = self._bot_sees(ch)
        if ch.thread_members.pop(user, None) is None:
            return
        if saw:
            self._members_update(ch, user, {"removed_member_ids": [str(user)]})
        self.world.recorder.bump()

    def _members_update(self, ch: Channel, user: int, change: JSON) -> None:
        # Discord sends others' thread joins and leaves only with the members intent.
        payload = {"id": str(ch.id), "guild_id": str(ch.guild_id), **change}
        payload["member_count"] = len(ch.thread_members)
        intent = 0 if user == self.world.bot_user_id else INTENT_MEMBERS
        self.world.dispatch("THREAD_MEMBERS_UPDATE", payload, intent=intent)

    def _thread_member(self, ch: Channel, user: int) -> JSON:
        return {
            **{"id": str(ch.id), "user_id": str(user)},
            **{"join_timestamp": ch.thread_members[user], "flags": 0},
        }

    def set_accepts_dms(self, user: int, accepts: bool) -> None:
        """``user``'s privacy setting: with ``False`` the bot's posts in their DM channel are
        refused with 403 50007 Cannot send messages to this user (the channel still opens)."""
        self.world.users[user].accepts_dms = accepts

    def delete_channel(self, channel: int) -> None:
        """Delete a channel (with its threads) or a thread: later requests about it get 404
        Unknown Channel; CHANNEL_DELETE (THREAD_DELETE for a thread) is dispatched."""
        ch = self.world.channel(channel)
        if ch.guild_id is None:
            raise ValueError(f"channel {channel} is a DM channel: it cannot be deleted")
        for thread in [c for c in self.world.channels.values() if c.parent_id == ch.id]:
            self.delete_channel(thread.id)
        del self.world.channels[ch.id]
        g = self.world.guilds[ch.guild_id]
        if ch.id in g.channel_ids:
            g.channel_ids.remove(ch.id)
        if ch.type in THREAD_TYPES:
            ids = {"id": str(ch.id), "guild_id": str(ch.guild_id), "type": ch.type}
            self.world.dispatch("THREAD_DELETE", {**ids, "parent_id": str(ch.parent_id)})
        else:
            self.world.dispatch("CHANNEL_DELETE", self.channel_payload(ch))
        self.world.recorder.bump()

    def remove_member(self, guild: int, user: int) -> None:
        """``user`` leaves ``guild``; GUILD_MEMBER_REMOVE goes only to sessions with the
        (privileged) members intent, as on Discord, and member lookups get 404 Unknown Member
        from then on."""
        g = self.world.guilds[guild]
        del g.members[user]
        payload = {"guild_id": str(guild), "user": self.user_payload(user)}
        self.world.dispatch("GUILD_MEMBER_REMOVE", payload, intent=INTENT_MEMBERS)
        self.world.recorder.bump()

    def user_payload(self, uid: int) -> JSON:
        """The user object of ``uid``."""
        return self.world.users[uid].payload()

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
                    "archived": ch.archived, "auto_archive_duration": ch.auto_archive_duration,
                    "locked": ch.locked, "archive_timestamp": ch.archive_timestamp,
                    **({"invitable": ch.invitable} if ch.type == PRIVATE_THREAD else {}),
                },
            }
            # fmt: on
            if self.world.bot_user_id in ch.thread_members:
                # The bot's own thread member, as Discord adds it for the current user.
                payload["member"] = self._thread_member(ch, self.world.bot_user_id)
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
            "preferred_locale": g.locale,
            "joined_at": g.joined_at,
            "roles": [r.payload() for r in g.roles.values()],
            "channels": [self.channel_payload(self.world.channels[c]) for c in g.channel_ids],
            "threads": [
                self.channel_payload(c)
                for c in self.world.channels.values()
                if c.guild_id == g.id
                and c.type in THREAD_TYPES
                and not c.archived  # Discord lists the active threads only
                and (c.type != PRIVATE_THREAD or self._bot_sees(c))
            ],
            "members": [self.member_payload(g, uid) for uid in g.members],
            # member_count == len(members) keeps discord.py from chunking at startup.
            "member_count": len(g.members),
        }
