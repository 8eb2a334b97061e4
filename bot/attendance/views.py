"""The confirmation before the host skips a turn (``/cascadia skip``): its buttons carry the
game's id and the turn's, so a press after a restart still answers, and a press once that turn
is over changes nothing. Everything here answers the person who asked, in their language (the
interaction's reader)."""

from __future__ import annotations

import discord

from bot.attendance.service import Attendance
from bot.shell.buttons import GameButton, Question
from bot.shell.client import CascadiaBot
from bot.shell.permissions import manages_game_channel
from i18n import N_, _

Interaction = discord.Interaction[CascadiaBot]


class SkipConfirmation(Question):
    """Asks the caller of ``/cascadia skip`` to confirm, privately, that turn ``turn`` is
    skipped."""

    def __init__(self, original: Interaction, *, game_id: int, turn: int) -> None:
        super().__init__(original, SkipTurnButton(game_id, turn), KeepWaitingButton(game_id, turn))
        # Read when the question times out, where no reader is set: worded now.
        self.expired = _("No answer: nothing was changed.")


class _TurnButton(GameButton, template=r"$^"):
    """A confirmation's button about one turn: the custom id carries the turn after the game,
    so a press once that turn is over changes nothing."""

    def __init__(self, game_id: int, turn: int) -> None:
        super().__init__(game_id, tail=f":{turn}")
        self.turn = turn
        self.item.label = _(self.label)


class SkipTurnButton(
    _TurnButton, template=r"cascadia:skipturn:(?P<game_id>[0-9]+):(?P<turn>[0-9]+)"
):
    """Have the computer play the turn now, and post it."""

    action, label, style = "skipturn", N_("Skip the turn"), discord.ButtonStyle.danger

    async def act(self, interaction: Interaction) -> None:
        """Skip the turn, if it is still to be played and the presser (still) may: the host,
        or Manage Channels in the game's channel now."""
        await interaction.response.defer()
        bot = interaction.client
        game = await bot.service.row_by_id(self.game_id)
        result = await bot.part(Attendance).skip(
            self.game_id,
            self.turn,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            can_manage=manages_game_channel(interaction, game),
        )
        await bot.announce(result.outbox_ids)
        await interaction.edit_original_response(
            content=_("The turn is skipped: the computer played it."), view=None
        )


class KeepWaitingButton(
    _TurnButton, template=r"cascadia:keepwaiting:(?P<game_id>[0-9]+):(?P<turn>[0-9]+)"
):
    """Leave everything as it is."""

    action, label, style = "keepwaiting", N_("Keep waiting"), discord.ButtonStyle.secondary

    async def act(self, interaction: Interaction) -> None:
        """Close the question."""
        await interaction.response.edit_message(content=_("Nothing was changed."), view=None)


SKIP_BUTTONS: tuple[type[GameButton], ...] = (SkipTurnButton, KeepWaitingButton)
"""The confirmation's dynamic items."""
