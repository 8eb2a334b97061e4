"""``/cascadia history`` and ``/cascadia replay``: the server's finished games, privately.

The two commands join the one ``/cascadia`` group (see :mod:`bot.shell.commands`) when this
extension loads. History pages turn with restart-proof buttons whose custom id carries the page and
the member (0 for the whole server). The replay's pictures are drawn in the picture worker
from the stored moves, never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands

from bot.archive.service import Archive, HistoryPage, NoArchivedGame, history_text
from bot.archive.store import ArchiveStore
from bot.game.outbox import Post
from bot.game.pictures import drawn_in
from bot.game.replays import game_pictures
from bot.game.uploads import fit_upload
from bot.shell import errors
from bot.shell.buttons import ActionButton
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from i18n import _, reader

Interaction = discord.Interaction[CascadiaBot]

_GAME_NUMBER = re.compile(r"\d+")


def _archive(interaction: Interaction) -> Archive:
    return Archive(interaction.client.service.store_as(ArchiveStore))


def _guild_id(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise NoArchivedGame()
    return interaction.guild_id


class HistoryButton(ActionButton, template=r"cascadia:history:(?P<page>\d+):(?P<user>\d+)"):
    """Turns a ``history`` answer to page ``page`` (of member ``user``'s games; 0: the
    server's)."""

    def __init__(self, page: int, user: int, *, label: str = "Page") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"cascadia:history:{page}:{user}",
            )
        )
        self.page = page
        self.user = user

    async def act(self, interaction: Interaction) -> None:
        """Show the page in place of the one pressed."""
        user_id = self.user or None
        shown = await _archive(interaction).history(
            _guild_id(interaction), user_id=user_id, page=self.page
        )
        await interaction.response.edit_message(
            content=history_text(shown), view=history_view(shown, self.user)
        )


def history_view(page: HistoryPage, user: int) -> discord.ui.View | Any:
    """The **Newer** and **Older** buttons of a history page, where there is such a page."""
    if page.pages <= 1:
        return discord.utils.MISSING
    view = discord.ui.View(timeout=None)
    if page.page > 1:
        view.add_item(HistoryButton(page.page - 1, user, label=_("Newer")))
    if page.page < page.pages:
        view.add_item(HistoryButton(page.page + 1, user, label=_("Older")))
    return view


@app_commands.command(name="history", description="This server's finished games, newest first")
@app_commands.describe(user="Only this member's games", page="Which page (1: the newest games)")
async def history(
    interaction: Interaction,
    user: discord.Member | None = None,
    page: app_commands.Range[int, 1, 10_000] = 1,
) -> None:
    """List the server's finished games (or a member's), privately, a page at a time."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    shown = await _archive(interaction).history(
        _guild_id(interaction),
        user_id=None if user is None else user.id,
        whose=None if user is None else user.display_name,
        page=page,
    )
    await interaction.followup.send(
        history_text(shown),
        view=history_view(shown, 0 if user is None else user.id),
        ephemeral=True,
    )


@app_commands.command(
    name="replay", description="The replay and score chart of a finished game, privately"
)
@app_commands.describe(game="The game (default: the last to finish); the list shows the latest")
async def replay(interaction: Interaction, game: str | None = None) -> None:
    """Draw a finished game's replay GIF and score chart again from its moves."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    archive, guild_id = _archive(interaction), _guild_id(interaction)
    if game is None:
        latest = await interaction.client.service.store_as(ArchiveStore).finished_games(
            guild_id, limit=1
        )
        if not latest:
            raise NoArchivedGame()
        row = latest[0]
    else:
        number = _GAME_NUMBER.search(game)
        if number is None:
            raise NoArchivedGame(game)
        row = await archive.finished(guild_id, int(number.group()))
    record = await archive.record(row)
    loop = asyncio.get_running_loop()
    # The worker process does not share the reader: the pictures and their alt texts are
    # drawn in the language of whoever asked.
    drawn = await loop.run_in_executor(
        interaction.client.renderer, drawn_in(reader(), game_pictures, record)
    )
    (shown,) = await archive.archived([row])
    if shown.jump_url is None:
        text = _("**Game {game}**, {date}", game=shown.game_id, date=shown.day)
    else:
        text = _(
            "**Game {game}**, {date} · [final message]({url})",
            game=shown.game_id,
            date=shown.day,
            url=shown.jump_url,
        )
    limit = discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    if interaction.guild is not None:
        limit = interaction.guild.filesize_limit

    post = fit_upload(Post(text, (), tuple(drawn), nonce=""), limit)
    files = [
        discord.File(io.BytesIO(a.data), filename=a.name, description=a.description or None)
        for a in post.attachments
    ]
    await interaction.followup.send(post.text, files=files, ephemeral=True)


@replay.autocomplete("game")
async def _game_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await errors.suggest(interaction, _recent_games(interaction, current))


async def _recent_games(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    games = await _archive(interaction).recent(interaction.guild_id, current)
    return [app_commands.Choice(name=g.label(), value=str(g.game_id)) for g in games]


async def setup(bot: CascadiaBot) -> None:
    """Add the archive's commands to ``/cascadia`` and register the history's buttons
    (called by ``load_extension``)."""
    add_commands(bot, history, replay)
    bot.add_dynamic_items(HistoryButton)


async def teardown(bot: CascadiaBot) -> None:
    """Take the commands and buttons away with the extension."""
    remove_commands(bot, history.name, replay.name)
    bot.remove_dynamic_items(HistoryButton)
