"""``/cascadia daily``: the daily trek, one solo deal a day for everyone, and its boards.

``action:play`` (the default) starts the caller's attempt at today's deal as a game of its
own in a direct message with the bot, played there as every game is (the turn panel, typed
``/cascadia play``); where the member's privacy settings refuse direct messages, in a private
thread the bot opens for them in the channel where they asked. Its final message's **Share**
posts one spoiler-free line about it in the daily channel of that server. ``board`` and
``show`` read a day's results (:mod:`bot.daily.service`); ``channel`` (Manage Server) names
where the bot posts each morning's deal and each finished day's board. Every answer is
private, in the language of the one who asked.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.daily.service import ACTIONS, AttemptOpen, DailyTrek
from bot.daily.share import SHARE_LABEL
from bot.game.captions import environment_description, environment_score, scores_description
from bot.game.errors import BotError
from bot.game.names import clean, safe
from bot.shell.buttons import GameButton
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from engine import Day, InvalidInput
from i18n import _, _n
from render import render_environment, render_scores

__all__ = ["ACTIONS", "DailyRequest", "ShareButton", "daily"]

Interaction = discord.Interaction[CascadiaBot]

CANNOT_DM = 50007
"""Discord's error code for a direct message the user's privacy settings refuse."""


@dataclass(frozen=True, slots=True)
class DailyRequest:
    """The options of one ``/cascadia daily``."""

    action: str | None = None
    date: str | None = None
    user: discord.User | discord.Member | None = None
    channel: discord.TextChannel | None = None

    def check(self) -> str:
        """The action (``play`` when none was given), once the options fit it; refuses
        those that do not, before anything is done."""
        action = self.action or "play"
        if action not in ACTIONS:
            raise BotError(
                _(
                    "The daily actions are {actions}, not {action}.",
                    actions=", ".join(ACTIONS),
                    action=repr(action),
                )
            )
        if self.date is not None and action not in ("board", "show"):
            raise BotError(_("`date:` goes with `action:board` or `action:show`."))
        if self.user is not None and action != "show":
            raise BotError(_("`user:` goes with `action:show`."))
        if self.channel is not None and action != "channel":
            raise BotError(_("`channel:` goes with `action:channel`."))
        return action


async def daily(interaction: Interaction, request: DailyRequest) -> None:
    """Answer ``/cascadia daily`` privately."""
    action = request.check()
    await interaction.response.defer(ephemeral=True, thinking=True)
    guild_id = interaction.guild_id
    if guild_id is None:
        raise BotError(
            _(
                "The daily trek is played from a server: use `/cascadia daily` in one of its"
                " channels, and the game comes here."
            )
        )
    trek = interaction.client.part(DailyTrek)
    if action == "play":
        await interaction.followup.send(await play(interaction, guild_id), ephemeral=True)
    elif action == "board":
        day = _day(interaction, request.date)
        text = await trek.board_answer(guild_id, day, interaction.user.id)
        await interaction.followup.send(text, ephemeral=True)
    elif action == "show":
        if request.user is None:
            raise BotError(_("Say whose board to open: `/cascadia daily action:show user:`."))
        await show(interaction, _day(interaction, request.date), request.user)
    else:
        text = await name_channel(interaction, guild_id, request.channel)
        await interaction.followup.send(text, ephemeral=True)


def _day(interaction: Interaction, text: str | None) -> Day:
    today = interaction.client.part(DailyTrek).today()
    if text is None:
        return today
    try:
        day = Day.parse(text)
    except InvalidInput:
        raise BotError(
            _("I could not read that date: {text} (expected YYYY-MM-DD).", text=repr(text[:40]))
        ) from None
    if day > today:
        raise BotError(_("{day} has not come yet: today is {today} (UTC).", day=day, today=today))
    return day


async def play(interaction: Interaction, guild_id: int) -> str:
    """Start the caller's attempt at today's deal where they can play it; says where."""
    bot = interaction.client
    trek = bot.part(DailyTrek)
    user = interaction.user
    try:
        await trek.check_can_start(user.id)
    except AttemptOpen as error:
        if await _is_direct(bot, error.channel_id):
            raise AttemptOpen(error.attempt, error.channel_id, direct=True) from None
        raise
    name = clean(user.display_name)
    day = trek.today()
    channel_id, thread = await _place(interaction, day, name)
    started = await trek.start(guild_id=guild_id, channel_id=channel_id, user_id=user.id, name=name)
    await bot.announce(started.outbox_ids)
    if thread is None and started.counted:
        return _(
            "The daily trek of {day}: Your attempt that counts today is in our direct messages.",
            day=day,
        )
    if thread is None:
        return _(
            "The daily trek of {day}: Practice (not counted) is in our direct messages.", day=day
        )
    if started.counted:
        return _(
            "The daily trek of {day}: Your attempt that counts today is in the private thread"
            " {thread} (your settings refuse DMs).",
            day=day,
            thread=thread,
        )
    return _(
        "The daily trek of {day}: Practice (not counted) is in the private thread {thread}"
        " (your settings refuse DMs).",
        day=day,
        thread=thread,
    )


async def _is_direct(bot: CascadiaBot, channel_id: int) -> bool:
    """Whether the channel is a direct message with the bot (a thread is mentioned instead)."""
    found = bot.get_channel(channel_id)
    if found is None:
        try:
            found = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            return False
    return isinstance(found, discord.DMChannel)


async def _place(interaction: Interaction, day: Day, name: str) -> tuple[int, str | None]:
    """Where the attempt is played: the caller's direct messages with the bot or, when they
    refuse them, a private thread of this channel; the channel's id and the thread's mention
    (``None``: the direct messages)."""
    try:
        channel = await interaction.user.create_dm()
        # Discord says whether the member accepts direct messages only when one is sent.
        await channel.send(_("**The daily trek of {day}**: your game follows here.", day=day))
        return channel.id, None
    except discord.Forbidden as error:
        if error.code != CANNOT_DM:
            raise
    here = interaction.channel
    if not isinstance(here, discord.TextChannel):
        raise BotError(
            _(
                "Your settings refuse direct messages from me, and a private thread needs a text"
                " channel: allow direct messages from this server's members, or ask in a text"
                " channel."
            )
        )
    allowed = interaction.app_permissions
    # The permissions by their names in Discord's settings, which Discord shows each person in
    # their language: one sentence for each of what may be missing.
    create, send = allowed.create_private_threads, allowed.send_messages_in_threads
    if not (create or send):
        raise BotError(
            _(
                "Your settings refuse direct messages from me, and I may not open a private"
                " thread here: I need Create Private Threads and Send Messages in Threads in"
                " this channel. Allow direct messages from this server's members, or ask"
                " someone who can to grant them."
            )
        )
    if not create:
        raise BotError(
            _(
                "Your settings refuse direct messages from me, and I may not open a private"
                " thread here: I need Create Private Threads in this channel. Allow direct"
                " messages from this server's members, or ask someone who can to grant it."
            )
        )
    if not send:
        raise BotError(
            _(
                "Your settings refuse direct messages from me, and I may not open a private"
                " thread here: I need Send Messages in Threads in this channel. Allow direct"
                " messages from this server's members, or ask someone who can to grant it."
            )
        )
    thread = await here.create_thread(
        name=_("Daily trek {day}: {name}", day=day, name=name)[:100],
        type=discord.ChannelType.private_thread,
        invitable=False,
    )
    await thread.add_user(interaction.user)
    return thread.id, thread.mention


async def show(interaction: Interaction, day: Day, user: discord.User | discord.Member) -> None:
    """A finished attempt of ``day``, for a caller who has played that day: the score sheet
    and the environment."""
    name = clean(user.display_name)
    loaded = await interaction.client.part(DailyTrek).show(
        day, caller=interaction.user.id, user_id=user.id, name=name
    )
    state = loaded.require_state()
    sheet = loaded.score_sheet()
    points = environment_score(state, 0)
    scores, environment = await asyncio.gather(
        asyncio.to_thread(render_scores, sheet, title=_("Daily trek {day}", day=day), final=True),
        asyncio.to_thread(render_environment, state, 0, name=loaded.players[0].name, score=points),
    )
    files = [
        discord.File(
            io.BytesIO(scores), "scores.png", description=scores_description(sheet, final=True)
        ),
        discord.File(
            io.BytesIO(environment),
            "environment.png",
            description=environment_description(loaded.players[0].name, state, 0, points),
        ),
    ]
    text = _n(
        "**{name}**'s daily trek of {day}: {n} point.",
        "**{name}**'s daily trek of {day}: {n} points.",
        sheet.players[0].total,
        name=safe(name),
        day=day,
    )
    await interaction.followup.send(text, files=files, ephemeral=True)


async def name_channel(
    interaction: Interaction, guild_id: int, channel: discord.TextChannel | None
) -> str:
    """A manager names the server's daily channel (default: this one); the morning message
    follows there at once if today's has not gone out."""
    if not interaction.permissions.manage_guild:
        raise BotError(_("Only someone with Manage Server can name the daily channel."))
    target = channel or interaction.channel
    if not isinstance(target, discord.TextChannel) or target.guild.id != guild_id:
        raise BotError(_("Name a text channel of this server: `/cascadia daily action:channel`."))
    bot = interaction.client
    await bot.part(DailyTrek).set_channel(guild_id, target.id, user_id=interaction.user.id)
    await bot.announce(await bot.part(DailyTrek).queue_posts())
    text = _(
        "The daily trek's messages go to {channel}: each morning (UTC) the new deal's cards,"
        " and after each day its board.",
        channel=target.mention,
    )
    me = target.guild.me
    if me is not None:
        can = target.permissions_for(me)
        if not (can.view_channel and can.send_messages):
            text += " " + _("I need View Channel and Send Messages there to post them.")
    return text


class ShareButton(GameButton, template=r"cascadia:share:(?P<game_id>[0-9]+)"):
    """Post one spoiler-free line about a finished daily attempt in the daily channel of the
    server it was started from (its player only, once); the answer is private."""

    action, label, style = "share", SHARE_LABEL, discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Share the attempt, and say where."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        shared = await bot.part(DailyTrek).share(self.game_id, user_id=interaction.user.id)
        await bot.announce(shared.outbox_ids)
        await interaction.followup.send(shared.answer, ephemeral=True)


DAILY_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ShareButton,)
"""The dynamic items the cog registers."""


@app_commands.command(
    name="daily", description="The daily trek: one solo deal a day, and its board"
)
@app_commands.describe(
    action="play (default), board, show (a member's board) or channel (Manage Server)",
    date="The day, YYYY-MM-DD (board and show; default today, UTC)",
    user="Whose finished board (show)",
    channel="Where the daily messages go (channel; default this one)",
)
@app_commands.choices(action=[app_commands.Choice(name=a, value=a) for a in ACTIONS])
async def daily_command(
    interaction: Interaction,
    action: str | None = None,
    date: str | None = None,
    user: discord.Member | discord.User | None = None,
    channel: discord.TextChannel | None = None,
) -> None:
    """Play today's deal, or see a day's board."""
    await daily(interaction, DailyRequest(action, date, user, channel))


async def setup(bot: CascadiaBot) -> None:
    """Add ``/cascadia daily`` and the **Share** button (called by ``load_extension``)."""
    add_commands(bot, daily_command)
    bot.add_dynamic_items(*DAILY_BUTTONS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the command and the button away with the extension."""
    remove_commands(bot, daily_command.name)
    bot.remove_dynamic_items(*DAILY_BUTTONS)
