"""The one ``/cascadia`` command group, owned by the shell so that every feature adds its
commands to it from its own extension (see each feature's ``cog.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands

if TYPE_CHECKING:
    from bot.shell.client import CascadiaBot

NAME = "cascadia"


def cascadia_group(bot: CascadiaBot) -> app_commands.Group:
    """The bot's ``/cascadia`` group, made and added to its command tree on first use."""
    found = bot.tree.get_command(NAME)
    if isinstance(found, app_commands.Group):
        return found
    group = app_commands.Group(
        name=NAME,
        description="Play Cascadia in this channel",
        # Direct messages too: a daily trek is played there (the client admits only the
        # commands that work without a server, see CascadiaBot.admit).
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
    )
    bot.tree.add_command(group)
    return group


def add_commands(bot: CascadiaBot, *commands: app_commands.Command[Any, ..., Any]) -> None:
    """Add a feature's commands to ``/cascadia``."""
    group = cascadia_group(bot)
    for command in commands:
        group.add_command(command)


def remove_commands(bot: CascadiaBot, *names: str) -> None:
    """Take a feature's commands away (when its extension is unloaded)."""
    group = bot.tree.get_command(NAME)
    if isinstance(group, app_commands.Group):
        for name in names:
            group.remove_command(name)
