"""Messages as Discord keeps them: posted, edited and deleted, with their events.

Creating, editing and deleting a message here is what Discord does on a bot's REST request:
the message is stored, its mentions are parsed under ``allowed_mentions``, who it notified is
fixed at creation, and MESSAGE_CREATE/UPDATE/DELETE go to every gateway session whose intents
ask for them.
"""

from __future__ import annotations

import dataclasses
import mimetypes
from typing import TYPE_CHECKING

from fakediscord import layouts
from fakediscord.directory import ARCHIVED_THREAD
from fakediscord.model import Attachment, InteractionRecord, MessageRecord
from fakediscord.protocol import (
    COMPONENTS_V2,
    DM_CHANNEL,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    JSON,
    KEPT_FLAGS,
    LOADING,
    MAX_CONTENT,
    ROLE_MENTION,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    USER_MENTION,
    ApiError,
    Files,
    now_iso,
)
from fakediscord.sessions import Session

if TYPE_CHECKING:
    from fakediscord.world import World

__all__ = ["Messaging"]


class Messaging:
    """The messages of ``world``: created, edited, deleted, read back and written as payloads."""

    def __init__(self, world: World) -> None:
        self.world = world

    def message_payload(self, m: MessageRecord) -> JSON:
        """The message as Discord's API would return it."""
        # fmt: off
        payload: JSON = {
            "id": str(m.id), "channel_id": str(m.channel_id), "type": m.type,
            "content": m.content, "author": self.world.directory.user_payload(m.author_id),
            "attachments": [a.payload() for a in m.attachments], "embeds": m.embeds,
            "components": m.components, "flags": m.flags, "pinned": False, "tts": False,
            "mentions": [self.world.directory.user_payload(u) for u in m.mentions],
            "mention_roles": [str(r) for r in m.mention_roles],
            "mention_everyone": m.mention_everyone,
            "timestamp": m.created_at, "edited_timestamp": m.edited_at,
        }
        # fmt: on
        if m.guild_id is not None:
            payload["guild_id"] = str(m.guild_id)
            guild = self.world.guilds[m.guild_id]
            if m.author_id in guild.members:
                payload["member"] = self.world.directory.member_payload(
                    guild, m.author_id, with_user=False
                )
        if m.reference_id is not None:
            payload["message_reference"] = {"type": 0, "message_id": str(m.reference_id)}
        if m.interaction_id is not None:
            ix = self.world.interactions_by_id[m.interaction_id]
            payload["application_id"] = str(self.world.application_id)
            payload["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": self.world.directory.user_payload(ix.user_id),
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
        user_ids = [u for u in user_ids if u in self.world.users]
        if "users" not in parse:
            listed = {int(u) for u in allowed.get("users", [])}
            user_ids = [u for u in user_ids if u in listed]
        guild = self.world.guilds.get(m.guild_id) if m.guild_id is not None else None
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
        channel = self.world.channels[m.channel_id]
        if channel.recipient_id is not None:
            who.add(channel.recipient_id)
        if m.guild_id is not None:
            guild = self.world.guilds[m.guild_id]
            for uid, roles in guild.members.items():
                if m.mention_everyone or set(roles) & set(m.mention_roles):
                    who.add(uid)
            who &= set(guild.members)
        who.discard(m.author_id)
        return frozenset(u for u in who if not self.world.users[u].bot or u in m.mentions)

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
            aid = self.world.next_id()
            url = f"{self.world.cdn_base}/attachments/{channel_id}/{aid}/{name}"
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
        ch = self.world.channel(channel_id)
        m = MessageRecord(
            id=self.world.next_id(),
            channel_id=ch.id,
            guild_id=ch.guild_id,
            author_id=author_id,
            order=len(self.world.messages),
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
            if (target := self.world.messages_by_id.get(m.reference_id)) is not None:
                replied_author = target.author_id
        self._validate_content(m)
        # A thread that is archived reopens for the post, or refuses it when locked.
        self.world.directory.post_into(ch.id, author_id, interaction=interaction is not None)
        m.components = layouts.stored(m.components, m.attachments)
        self._compute_mentions(m, body.get("allowed_mentions"), replied_author)
        m.notified = self._notified(m)
        self.world.messages.append(m)
        self.world.messages_by_id[m.id] = m
        if not m.ephemeral:
            self.dispatch_message("MESSAGE_CREATE", m)
        self.world.recorder.bump()
        return m

    def edit_message(
        self,
        m: MessageRecord,
        body: JSON,
        files: Files | None = None,
        *,
        interaction: bool = False,
    ) -> MessageRecord:
        """Apply an edit; edits (and deferred fills) never notify anyone. A refused edit
        changes nothing. In an archived thread an edit is refused (400 50083), unless it is
        an ``interaction``'s answer, which reopens the thread as a post does."""
        ch = self.world.channels.get(m.channel_id)
        if ch is not None and ch.archived and not interaction:
            raise ApiError(400, 50083, ARCHIVED_THREAD)
        if interaction:
            self.world.directory.post_into(m.channel_id, m.author_id, interaction=True)
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
        self.world.recorder.bump()
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
            self.world.dispatch("MESSAGE_DELETE", data, intent=intent)
        self.world.recorder.bump()

    def visible_message(self, channel_id: str, message_id: str) -> MessageRecord:
        """A message ``/channels/...`` may reach, or 404 Unknown Message."""
        m = self.world.messages_by_id.get(int(message_id)) if message_id.isdigit() else None
        # Ephemeral messages are only reachable through the interaction webhook.
        if m is None or m.deleted or m.ephemeral or str(m.channel_id) != channel_id:
            raise ApiError(404, 10008, "Unknown Message")
        return m

    async def say(self, user: int, channel: int, content: str) -> MessageRecord:
        """Post a message as ``user`` (a human) and dispatch MESSAGE_CREATE to the bot. In an
        archived thread the post reopens it first; in a locked one it needs Manage Threads
        (ValueError otherwise, as the Discord app would not let the user write)."""
        try:
            return self.create_message(channel, user, {"content": content})
        except ApiError as refused:
            raise ValueError(
                f"user {user} cannot post in channel {channel}: {refused.message}"
            ) from refused

    def dispatch_message(self, event: str, m: MessageRecord) -> None:
        """Dispatch a message event; without MESSAGE_CONTENT a guild message loses
        its content unless the bot wrote it or is mentioned in it."""
        full = self.message_payload(m)

        def for_session(session: Session) -> JSON:
            if (
                session.intents & INTENT_MESSAGE_CONTENT
                or m.author_id == self.world.bot_user_id
                or m.guild_id is None
                or self.world.bot_user_id in m.mentions
            ):
                return full
            return {**full, "content": "", "embeds": [], "attachments": [], "components": []}

        intent = INTENT_GUILD_MESSAGES if m.guild_id else INTENT_DIRECT_MESSAGES
        self.world.dispatch(event, for_session, intent=intent)

    def channel_messages(
        self, channel: int, *, include_ephemeral: bool = True
    ) -> list[MessageRecord]:
        """Non-deleted messages of ``channel`` in creation order."""
        return [
            m
            for m in self.world.messages
            if m.channel_id == channel and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def dm_messages(self, user: int) -> list[MessageRecord]:
        """The non-deleted messages of the bot's DM channel with ``user``, oldest first
        (none when it was never opened)."""
        for ch in self.world.channels.values():
            if ch.type == DM_CHANNEL and ch.recipient_id == user:
                return self.channel_messages(ch.id)
        return []
