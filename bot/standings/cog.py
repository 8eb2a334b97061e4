"""``/cascadia stats``, ``server``, ``league`` and ``leaderboard``: the server's standings.

The commands join the one ``/cascadia`` group (see :mod:`bot.shell.commands`). Every
answer is private; the figures and texts are in :mod:`bot.standings.service` and
:mod:`bot.standings.stats`, the picture in :mod:`render.standings`, drawn in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands

from bot.achievements.service import AchievementsService
from bot.daily.service import DailyTrek, streak_line
from bot.game.errors import BotError
from bot.game.names import clean
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from bot.standings import service as standings
from bot.standings.store import StandingsStore
from bot.tables.service import AUTO, Tables
from bot.tables.texts import settings_line
from i18n import N_, _, _n
from render import render_badges, render_score_history

Interaction = discord.Interaction[CascadiaBot]


def _guild_id(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise BotError(N_("The standings are kept per server: ask in one."))
    return interaction.guild_id


@app_commands.command(name="stats", description="A member's games, scores and records here")
@app_commands.describe(
    user="Whose figures (default: yours)",
    everywhere="(optional) Your own figures in every server, not only this one",
)
async def stats(
    interaction: Interaction, user: discord.User | None = None, everywhere: bool = False
) -> None:
    """A member's figures in this server's finished games (or, for the caller alone, in
    every server), with their scores as bars from two games on."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    who = user or interaction.user
    scope = standings.stats_scope(
        interaction.guild_id, interaction.user.id, who.id, everywhere=everywhere
    )
    store = interaction.client.service.store_as(StandingsStore)
    answer = await standings.stats_answer(store, scope, who.id, clean(who.display_name))
    files = []
    name = clean(who.display_name)
    if answer.chart:
        png = await asyncio.to_thread(
            render_score_history, answer.scores, title=_("{name}: score per game", name=name)
        )
        scores = len(answer.scores)
        files.append(
            discord.File(
                io.BytesIO(png),
                filename="scores.png",
                description=_n(
                    "Bars of {n} game score, oldest first",
                    "Bars of {n} game scores, oldest first",
                    scores,
                ),
            )
        )
    streak = await interaction.client.part(DailyTrek).streak_of(who.id)
    earned = await interaction.client.part(AchievementsService).member(who.id, guild_id=scope)
    png = await asyncio.to_thread(
        render_badges, earned.badges, title=_("{name}: achievements", name=name)
    )
    files.append(
        discord.File(
            io.BytesIO(png), filename="achievements.png", description=_badges_alt(earned.earned)
        )
    )
    text = f"{answer.text}{streak_line(streak)}\n{earned.text}"
    await interaction.followup.send(text, files=files, ephemeral=True)


def _badges_alt(earned: tuple[str, ...]) -> str:
    """The badges' alt text: the achievements earned, by title."""
    if not earned:
        return _("Achievement badges, none earned yet")
    return _("Achievement badges, earned: {titles}", titles=", ".join(earned))


@app_commands.command(name="server", description="This server's games, players and records")
@app_commands.describe(
    lobby_role="(Manage Server) The role a new lobby with free seats calls once",
    lobby_role_off="(Manage Server) True: new lobbies call no role",
    threads="(Manage Server) Whether new tables open in a thread by default",
    language="(Manage Server) The language of new games' public messages",
)
@app_commands.choices(
    language=[
        app_commands.Choice(name="Discord's server language", value=AUTO),
        app_commands.Choice(name="English", value="en-US"),
        app_commands.Choice(name="Deutsch", value="de"),
        app_commands.Choice(name="Français", value="fr"),
    ]
)
async def server(
    interaction: Interaction,
    lobby_role: discord.Role | None = None,
    lobby_role_off: bool = False,
    threads: bool | None = None,
    language: str | None = None,
) -> None:
    """The server's figures and settings; with options, change the settings (Manage
    Server)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    guild_id = _guild_id(interaction)
    tables = interaction.client.part(Tables)
    manage = interaction.permissions.manage_guild
    saved: list[str] = []
    if lobby_role is not None or lobby_role_off or threads is not None:
        settings = await tables.change_settings(
            guild_id,
            can_manage=manage,
            lobby_role=None if lobby_role is None else lobby_role.id,
            lobby_role_off=lobby_role_off,
            threads=threads,
        )
        saved.append(settings_line(settings.lobby_role_id, settings.threads))
    if language is not None:
        saved.append(await tables.choose_language(guild_id, language, can_manage=manage))
    if saved:
        text = _("Saved. {settings}", settings=" ".join(saved))
        await interaction.followup.send(text, ephemeral=True)
        return
    text = await standings.server_answer(
        interaction.client.service.store_as(StandingsStore), guild_id
    )
    earned = await interaction.client.part(AchievementsService).server(guild_id)
    settings = await tables.settings(guild_id)
    line = settings_line(settings.lobby_role_id, settings.threads)
    text = f"{text}\n{earned}" if earned else text
    spoken = await tables.language(guild_id)
    await interaction.followup.send(f"{text}\n{line}\n{spoken}", ephemeral=True)


@app_commands.command(name="league", description="The rated league: join or leave; on, off, season")
@app_commands.describe(action="join or leave; on, off or season need Manage Server")
@app_commands.choices(
    action=[app_commands.Choice(name=a, value=a) for a in standings.LEAGUE_ACTIONS]
)
async def league(interaction: Interaction, action: str) -> None:
    """Join or leave the league, or (Manage Server) turn it on or off or start a season."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    text = await standings.league_answer(
        interaction.client.service.store_as(StandingsStore),
        _guild_id(interaction),
        interaction.user.id,
        action,
        can_manage=interaction.permissions.manage_guild,
    )
    await interaction.followup.send(text, ephemeral=True)


@app_commands.command(name="leaderboard", description="The league's ratings, top 20 and you")
@app_commands.describe(season="Which season (default: the current one)")
async def leaderboard(
    interaction: Interaction, season: app_commands.Range[int, 1, 10_000] | None = None
) -> None:
    """A season's leaderboard."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    text = await standings.leaderboard_answer(
        interaction.client.service.store_as(StandingsStore),
        _guild_id(interaction),
        interaction.user.id,
        season,
    )
    await interaction.followup.send(text, ephemeral=True)


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    stats,
    server,
    league,
    leaderboard,
)


async def setup(bot: CascadiaBot) -> None:
    """Add the standings' commands to ``/cascadia`` (called by ``load_extension``)."""
    add_commands(bot, *COMMANDS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the commands away with the extension."""
    remove_commands(bot, *(command.name for command in COMMANDS))
