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
from bot.lobby.cog import LabelledButton
from bot.shell.buttons import GameButton, Question
from bot.shell.client import CascadiaBot
from bot.shell.permissions import manages_game_channel
from i18n import N_, _

Interaction = discord.Interaction[CascadiaBot]


class EndConfirmation(Question):
    """Asks the caller of ``/cascadia end`` to confirm, privately; only they see the buttons."""

    def __init__(self, original: Interaction, *, game_id: int) -> None:
        super().__init__(original, EndButton(game_id), KeepPlayingButton(game_id))
        # Worded now, in the asker's language: it may be shown after the answer is over.
        self.expired = _("No answer: nothing was changed.")


class LeaveConfirmation(Question):
    """Asks a player of ``/cascadia leave`` in a game in play to confirm, privately: their
    seat goes to the computer for good."""

    def __init__(self, original: Interaction, *, game_id: int) -> None:
        super().__init__(original, LeaveButton(game_id), StayButton(game_id))
        self.expired = _("No answer: you are still playing.")


class EndButton(LabelledButton, template=r"cascadia:endgame:(?P<game_id>[0-9]+)"):
    """End the game for good and announce it in the channel."""

    action, label, style = "endgame", N_("End the game"), discord.ButtonStyle.danger

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
        await interaction.edit_original_response(content=_("The game is ended."), view=None)


class KeepPlayingButton(LabelledButton, template=r"cascadia:keepgame:(?P<game_id>[0-9]+)"):
    """Leave everything as it is."""

    action, label, style = "keepgame", N_("Keep playing"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Close the question."""
        await interaction.response.edit_message(content=_("Nothing was changed."), view=None)


class LeaveButton(LabelledButton, template=r"cascadia:leavegame:(?P<game_id>[0-9]+)"):
    """Hand the presser's seat to the computer and tell the channel."""

    action, label, style = "leavegame", N_("Leave the game"), discord.ButtonStyle.danger

    async def act(self, interaction: Interaction) -> None:
        """Leave the game, if the presser still plays in it."""
        await interaction.response.defer()
        bot = interaction.client
        result = await bot.service.turns.leave_game(self.game_id, user_id=interaction.user.id)
        await bot.announce(result.outbox_ids)
        await interaction.edit_original_response(
            content=_("You left the game: the computer plays your seat from now on."), view=None
        )


class StayButton(LabelledButton, template=r"cascadia:stay:(?P<game_id>[0-9]+)"):
    """Leave everything as it is."""

    action, label, style = "stay", N_("Stay"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Close the question."""
        await interaction.response.edit_message(content=_("You are still playing."), view=None)


CONFIRM_BUTTONS: tuple[type[GameButton], ...] = (
    EndButton,
    KeepPlayingButton,
    LeaveButton,
    StayButton,
)
"""The dynamic items the cog registers."""
