"""Short-lived views: the confirmations before a game is ended and before a player leaves a
game in play.

(The lobby's restart-proof buttons are in :mod:`bot.lobby`.)
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot import errors, lobby
from bot.client import CascadiaBot

Interaction = discord.Interaction[CascadiaBot]

CONFIRM_SECONDS = 120


class EndConfirmation(discord.ui.View):
    """Asks the caller of ``/cascadia end`` to confirm, privately; only they see the buttons."""

    def __init__(self, original: Interaction, *, game_id: int, can_manage: bool) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.original = original
        self.game_id = game_id
        self.can_manage = can_manage

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the click like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    @discord.ui.button(label="End the game", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        """End the game for good and announce it in the channel."""
        await interaction.response.defer()
        self.stop()
        bot = interaction.client
        result = await bot.service.end(
            self.game_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            can_manage=self.can_manage,
        )
        await bot.announce(result.outbox_ids)
        table = await bot.service.table_by_id(self.game_id)
        if table.state is None:
            await lobby.refresh(bot, table)  # a lobby that never started: close its message
        await interaction.edit_original_response(content="The game is ended.", view=None)

    @discord.ui.button(label="Keep playing", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        """Leave everything as it is."""
        self.stop()
        await interaction.response.edit_message(content="Nothing was changed.", view=None)

    async def on_timeout(self) -> None:
        """Take the buttons away once the question has expired."""
        with contextlib.suppress(discord.HTTPException):
            await self.original.edit_original_response(
                content="No answer: nothing was changed.", view=None
            )

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        """Answer privately, like every command error."""
        await errors.report(interaction, error)


class LeaveConfirmation(discord.ui.View):
    """Asks a player of ``/cascadia leave`` in a game in play to confirm, privately: their
    seat goes to the computer for good."""

    def __init__(self, original: Interaction, *, game_id: int) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.original = original
        self.game_id = game_id

    async def interaction_check(self, interaction: Interaction, /) -> bool:  # type: ignore[override]
        """Admit the click like any command (refused while the bot shuts down)."""
        return await interaction.client.admit(interaction)

    @discord.ui.button(label="Leave the game", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        """Hand the seat to the computer and tell the channel."""
        await interaction.response.defer()
        self.stop()
        bot = interaction.client
        result = await bot.service.leave_game(self.game_id, user_id=interaction.user.id)
        await bot.announce(result.outbox_ids)
        await interaction.edit_original_response(
            content="You left the game: the computer plays your seat from now on.", view=None
        )

    @discord.ui.button(label="Stay", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        """Leave everything as it is."""
        self.stop()
        await interaction.response.edit_message(content="You are still playing.", view=None)

    async def on_timeout(self) -> None:
        """Take the buttons away once the question has expired."""
        with contextlib.suppress(discord.HTTPException):
            await self.original.edit_original_response(
                content="No answer: you are still playing.", view=None
            )

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        """Answer privately, like every command error."""
        await errors.report(interaction, error)
