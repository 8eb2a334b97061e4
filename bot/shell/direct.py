"""Direct messages in Discord: how the outbox sends one (see
:data:`~bot.game.outbox.DIRECT`), headed by where its game is played.

A user whose privacy settings refuse direct messages makes Discord answer 403 50007; that is
:class:`~bot.game.outbox.DirectRefused`, which the outbox hands to
:meth:`~bot.attendance.notices.Notices.refused` once, never trying the message again.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from bot.game.names import safe
from bot.game.outbox import MAX_TEXT, DirectRefused, Post
from bot.shell.layout import buttons_view

if TYPE_CHECKING:
    from bot.shell.client import CascadiaBot

CANNOT_DM = 50007
"""Discord's error code for a direct message the user's settings refuse."""


def place(bot: CascadiaBot, channel_id: int) -> str:
    """Where a game is played, in words: the server's name and the channel's (as the bot's
    cache knows them), or the channel's mention."""
    channel = bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    name = getattr(channel, "name", None)
    if guild is None or name is None:
        return f"<#{channel_id}>"
    return f"**{safe(guild.name)}** · <#{channel_id}> (#{safe(name)})"


async def send_direct(bot: CascadiaBot, user_id: int, channel_id: int, post: Post) -> int:
    """Send ``post`` to ``user_id`` privately, headed by the place of the game played in
    ``channel_id``; returns the message's id. Only the user is notified: nobody is
    mentioned."""
    text = f"{place(bot, channel_id)}\n{post.text}"
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    files = [
        discord.File(io.BytesIO(a.data), filename=a.name, description=a.description or None)
        for a in post.attachments
    ]
    view = buttons_view(post.buttons) if post.buttons else discord.utils.MISSING
    try:
        channel = await bot.create_dm(discord.Object(id=user_id))
        message = await channel.send(
            text,
            files=files,
            view=view,
            nonce=post.nonce,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.Forbidden as error:
        if error.code == CANNOT_DM:
            raise DirectRefused(f"{error.status} {error.code} {error.text}") from error
        raise
    return message.id
