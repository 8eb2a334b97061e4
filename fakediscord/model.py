"""What the server knows: users, guilds, channels, and the records of messages, interactions,
requests and command syncs that tests inspect."""

from __future__ import annotations

from dataclasses import dataclass, field

from fakediscord import layouts
from fakediscord.protocol import COMPONENTS_V2, EPHEMERAL, JSON, LOADING, now_iso, walk_components

__all__ = [
    "Attachment",
    "Channel",
    "CommandSync",
    "GalleryItem",
    "Guild",
    "InteractionRecord",
    "MessageRecord",
    "Overwrite",
    "RequestRecord",
    "Role",
    "User",
]


@dataclass
class User:
    """A Discord user (a person or a bot)."""

    id: int
    name: str
    bot: bool = False
    accepts_dms: bool = True
    """Whether the bot may post in this user's DM channel (the user's privacy setting);
    without it a post there is 403 50007 Cannot send messages to this user."""
    locale: str = "en-US"
    """The language of the user's Discord client, sent as each interaction's ``locale``."""

    def payload(self) -> JSON:
        """The user object of Discord's API."""
        return {
            **{"id": str(self.id), "username": self.name, "global_name": self.name},
            **{"discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0},
        }


@dataclass
class Role:
    """A guild role; the guild's own id is its @everyone role."""

    id: int
    name: str
    permissions: int
    position: int

    def payload(self) -> JSON:
        """The role object of Discord's API."""
        return {
            **{"id": str(self.id), "name": self.name, "permissions": str(self.permissions)},
            **{"position": self.position, "color": 0, "hoist": False, "managed": False},
            **{"mentionable": True, "flags": 0},
        }


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (``type`` 0) or a member (``type`` 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        """The overwrite object of a channel payload."""
        return {
            **{"id": str(self.id), "type": self.type},
            **{"allow": str(self.allow), "deny": str(self.deny)},
        }


@dataclass
class Channel:
    """A guild text channel (type 0), a thread in one (type 11 public, 12 private, with
    ``parent_id``), or a DM channel with one recipient (type 1).

    A thread's ``thread_members`` are its members by user id, each with the time they joined;
    a private thread is seen only by them and by whoever may Manage Threads. ``invitable``
    (private threads): whether members other than its owner and moderators may add people.
    A thread's metadata: ``archived`` (closed until a post or a PATCH reopens it), ``locked``
    (only those who may Manage Threads reopen it or post in it), ``auto_archive_duration``
    (minutes of inactivity: 60, 1440, 4320 or 10080) and ``archive_timestamp`` (when
    ``archived`` last changed, or the thread was made).
    """

    id: int
    name: str
    type: int
    guild_id: int | None
    position: int = 0
    recipient_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    thread_members: dict[int, str] = field(default_factory=dict)
    invitable: bool = True
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=now_iso)


@dataclass
class Guild:
    """A guild: its roles, channels, and members with their role ids."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids
    joined_at: str = field(default_factory=now_iso)
    locale: str = "en-US"
    """The server's language (its ``preferred_locale``, each interaction's ``guild_locale``)."""


@dataclass
class Attachment:
    """A file stored with a message, served at ``url``."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    """The alt text the uploader gave, if any."""

    def payload(self) -> JSON:
        """The attachment object of a message payload."""
        return {
            **{"id": str(self.id), "filename": self.filename, "size": len(self.data)},
            **{"url": self.url, "proxy_url": self.url, "content_type": self.content_type},
            **({"description": self.description} if self.description is not None else {}),
        }


@dataclass(frozen=True)
class GalleryItem:
    """One picture of a message's media gallery: its URL, its alt text and, when it is one
    of the message's files, that file."""

    url: str
    description: str | None
    attachment: Attachment | None


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
    created_at: str = field(default_factory=now_iso)
    edited_at: str | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking user can see the message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "thinking" placeholder not yet filled."""
        return bool(self.flags & LOADING)

    @property
    def components_v2(self) -> bool:
        """Whether the message is flagged IS_COMPONENTS_V2: its components are all it says."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What the message says, of either kind: its content, or its text displays one
        after the other on their own lines."""
        return layouts.text_of(self.components) if self.components_v2 else self.content

    @property
    def gallery(self) -> list[GalleryItem]:
        """The pictures of the message's media galleries, in order (none for a classic
        message, whose files are :attr:`attachments`)."""
        files = {str(a.id): a for a in self.attachments}
        return [
            GalleryItem(
                str(item["media"]["url"]),
                item.get("description"),
                files.get(str(item["media"].get("attachment_id"))),
            )
            for item in layouts.gallery_of(self.components)
        ]

    def custom_ids(self) -> list[str]:
        """The custom ids of all components on the message, depth first."""
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]


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
    size: int = 0
    """The request body's length in bytes (its Content-Length; 0 without a body)."""


@dataclass(frozen=True)
class CommandSync:
    """One bulk overwrite of application commands (``guild_id`` None for global)."""

    guild_id: int | None
    commands: list[JSON]
