"""What the bot must be allowed in a channel to run a game there, read from an interaction,
and whether the member who pressed a button manages the game's own channel.

Every interaction carries the bot's permissions in its channel (``app_permissions``), so
they are checked without asking Discord: before a lobby opens, a player joins or a game
starts, and on every reply in a game's channel, which then says what to fix.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.game.errors import MissingPermissions, missing_text
from bot.game.rows import GameRow
from i18n import _

_THREADS = frozenset(
    {
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    }
)
_NOTED = "cascadia:permissions-noted"


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions a game needs that the bot lacks in the interaction's channel, by
    their names in Discord's settings: View Channel, Send Messages (Send Messages in
    Threads, in a thread) and Attach Files (for the pictures). None in a direct message:
    there the member's settings decide, not permissions."""
    if interaction.guild_id is None:
        return []
    have = interaction.app_permissions
    in_thread = getattr(interaction.channel, "type", None) in _THREADS
    needed = (
        (have.view_channel, "View Channel"),
        (
            have.send_messages_in_threads if in_thread else have.send_messages,
            "Send Messages in Threads" if in_thread else "Send Messages",
        ),
        (have.attach_files, "Attach Files"),
    )
    return [name for allowed, name in needed if not allowed]


def require_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse (:class:`MissingPermissions`) unless the bot may run a game in this channel."""
    missing = missing_permissions(interaction)
    if missing:
        interaction.extras[_NOTED] = True
        raise MissingPermissions(missing)


def permission_note(interaction: discord.Interaction[Any]) -> str | None:
    """What to fix, said once per interaction: ``None`` when nothing is missing, or when this
    interaction's reply said it already."""
    if interaction.extras.get(_NOTED):
        return None
    missing = missing_permissions(interaction)
    if not missing:
        return None
    interaction.extras[_NOTED] = True
    return missing_text(missing)


def outcome(interaction: discord.Interaction[Any], text: str, *, posted: bool) -> str:
    """The private answer to a command whose channel message was just posted (``posted``)
    or not: it never promises a message that the bot may not post. In the reader's language
    (the person's), like ``text``."""
    note = permission_note(interaction)
    if note is not None:
        if posted:
            return f"{text} {note}"
        return _(
            "{text} The channel message could not be posted: {note} It follows once fixed.",
            text=text,
            note=note,
        )
    if not posted:
        return _(
            "{text} (Discord is slow: the channel message is saved and will follow.)", text=text
        )
    return text


def manages_game_channel(interaction: discord.Interaction[Any], game: GameRow) -> bool:
    """Whether the member behind ``interaction`` has Manage Channels in ``game``'s own channel,
    wherever they pressed: a button's custom id carries only the game's id, so a press in
    another channel (an id passed on) must not borrow that channel's permissions. Discord's
    own answer when the press came from the game's channel; else worked out from the server's
    roles and the channel's overwrites as the bot knows them; never from another server or a
    direct message."""
    if interaction.guild_id != game.guild_id:
        return False
    if interaction.channel_id == game.channel_id:
        return interaction.permissions.manage_channels
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(game.channel_id)
    return channel is not None and channel.permissions_for(member).manage_channels
