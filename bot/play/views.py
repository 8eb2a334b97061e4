"""The confirmations before a game is ended and before a player leaves a game in play.

Their buttons are :class:`discord.ui.DynamicItem` whose ``custom_id`` carries only ids (the
game's), so a confirmation asked before a restart still answers
after it: it does what it says, or says why it no longer can (the game is over, the presser
may not end it, the turn has been played meanwhile). Each question takes its buttons away if
nobody answers it in time.

(The lobby's buttons are in :mod:`bot.lobby.cog`.)
"""

from __future__ import annotations

import discord

from bot.lobby import cog as lobby
from bot.shell.buttons import GameButton, Question
from bot.shell.client import CascadiaBot
from bot.shell.permissions import manages_game_channel

Interaction = discord.Interaction[CascadiaBot]


class EndConfirmation(Question):
    """Asks the caller of ``/cascadia end`` to confirm, privately; only they see the buttons."""

    expired = "No answer: nothing was changed."

    def __init__(self, original: Interaction, *, game_id: int) -> None:
        super().__init__(original, EndButton(game_id), KeepPlayingButton(game_id))


class LeaveConfirmation(Question):
    """Asks a player of ``/cascadia leave`` in a game in play to confirm, privately: their
    seat goes to the computer for good."""

    expired = "No answer: you are still playing."

    def __init__(self, original: Interaction, *, game_id: int) -> None:
        super().__init__(original, LeaveButton(game_id), StayButton(game_id))


class EndButton(GameButton, template=r"cascadia:endgame:(?P<game_id>[0-9]+)"):
    """End the game for good and announce it in the channel."""

    action, label, style = "endgame", "End the game", discord.ButtonStyle.danger

    async def act(self, interaction: Interaction) -> None:
        """End the game, if the presser (still) may: the host, or Manage Channels in the
        game's channel now."""
        await interaction.response.defer()
        bot = interaction.client
        game = await bot.service.row_by_id(self.game_id)
        result = await bot.service.turns.end(
            self.game_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            can_manage=manages_game_channel(interaction, game),
        )
        await bot.announce(result.outbox_ids)
        loaded = await bot.service.game_by_id(self.game_id)
        if loaded.state is None:
            await lobby.refresh(bot, loaded)  # a lobby that never started: close its message
        await interaction.edit_original_response(content="The game is ended.", view=None)


class KeepPlayingButton(GameButton, template=r"cascadia:keepgame:(?P<game_id>[0-9]+)"):
    """Leave everything as it is."""

    action, label, style = "keepgame", "Keep playing", discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Close the question."""
        await interaction.response.edit_message(content="Nothing was changed.", view=None)


class LeaveButton(GameButton, template=r"cascadia:leavegame:(?P<game_id>[0-9]+)"):
    """Hand the presser's seat to the computer and tell the channel."""

    action, label, style = "leavegame", "Leave the game", discord.ButtonStyle.danger

    async def act(self, interaction: Interaction) -> None:
        """Leave the game, if the presser still plays in it."""
        await interaction.response.defer()
        bot = interaction.client
        result = await bot.service.turns.leave_game(self.game_id, user_id=interaction.user.id)
        await bot.announce(result.outbox_ids)
        await interaction.edit_original_response(
            content="You left the game: the computer plays your seat from now on.", view=None
        )


class StayButton(GameButton, template=r"cascadia:stay:(?P<game_id>[0-9]+)"):
    """Leave everything as it is."""

    action, label, style = "stay", "Stay", discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Close the question."""
        await interaction.response.edit_message(content="You are still playing.", view=None)


CONFIRM_BUTTONS: tuple[type[GameButton], ...] = (
    EndButton,
    KeepPlayingButton,
    LeaveButton,
    StayButton,
)
"""The dynamic items the cog registers."""
