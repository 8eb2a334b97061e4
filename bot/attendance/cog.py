"""Deadlines, votes to skip, time away and quiet hours, as Discord shows them: the restart-proof
**Vote to Skip** and **Hand seat to computer** buttons, the question of ``/cascadia skip`` (its
confirmation is in :mod:`bot.play.views`) and the time zone autocomplete. Time away and quiet hours
are set through ``/cascadia notify`` (:mod:`bot.attendance.notify_cog`).

The buttons are :class:`discord.ui.DynamicItem` whose ``custom_id`` carries only ids (game and
turn, or game and seat), so a vote posted before a restart still counts presses after it. The
rules are in :mod:`bot.attendance.service`.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.attendance import texts
from bot.attendance.quiet import zone_choices
from bot.attendance.service import Attendance
from bot.game.errors import NoGame
from bot.play.views import SkipConfirmation
from bot.shell.buttons import ActionButton
from bot.shell.client import CascadiaBot

Interaction = discord.Interaction[CascadiaBot]


def _channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise NoGame()
    return interaction.channel_id


# --- buttons under outbox messages -------------------------------------------------------------


class _IdButton(ActionButton, template=r"$^"):
    """A button whose custom id carries two ids, drawn under an outbox message (see
    :func:`bot.attendance.texts.vote_button`): the subclass says which and what it does.
    A press is acknowledged at once, then acts."""

    defer = True

    def __init__(self, first: int, second: int) -> None:
        label, custom_id = self.button(first, second)
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id))
        self.first = first
        self.second = second

    @staticmethod
    def button(first: int, second: int) -> tuple[str, str]:
        """The label and custom id."""
        raise NotImplementedError


class VoteSkipButton(_IdButton, template=r"cascadia:skip:(?P<first>[0-9]+):(?P<second>[0-9]+)"):
    """**Vote to Skip** a turn whose deadline passed; ids: game, turn."""

    @staticmethod
    def button(first: int, second: int) -> tuple[str, str]:
        """The vote button of game ``first``'s turn ``second``."""
        return texts.vote_button(first, second)

    async def act(self, interaction: Interaction) -> None:
        """Count the vote; a majority skips the turn and the turn message follows."""
        bot = interaction.client
        outcome = await bot.part(Attendance).vote(
            self.first, self.second, user_id=interaction.user.id
        )
        if outcome.skipped is not None:
            await bot.announce(outcome.skipped.outbox_ids)
        answer = texts.vote_answer(
            outcome.tally,
            counted=outcome.counted,
            skipped=outcome.skipped is not None or outcome.decided,
        )
        await interaction.followup.send(answer, ephemeral=True)


class HandOverButton(_IdButton, template=r"cascadia:computer:(?P<first>[0-9]+):(?P<second>[0-9]+)"):
    """**Hand seat to computer** for good (host); ids: game, seat."""

    @staticmethod
    def button(first: int, second: int) -> tuple[str, str]:
        """The button that hands seat ``second`` of game ``first`` to the computer."""
        return texts.hand_over_button(first, second)

    async def act(self, interaction: Interaction) -> None:
        """Hand the seat over if the presser is the host (or manages the channel)."""
        bot = interaction.client
        result = await bot.part(Attendance).hand_over(
            self.first,
            self.second,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            can_manage=interaction.permissions.manage_channels,
        )
        await bot.announce(result.outbox_ids)
        await interaction.followup.send(
            "Done: the computer plays that seat from now on.", ephemeral=True
        )


BUTTONS: tuple[type[_IdButton], ...] = (VoteSkipButton, HandOverButton)
"""The dynamic items the cog registers: they answer the buttons of the outbox messages
(see :func:`bot.attendance.texts.vote_button`)."""


# --- /cascadia skip -----------------------------------------------------------------------------


async def skip(interaction: Interaction) -> None:
    """``/cascadia skip``: the host (or Manage Channels) is asked to confirm, privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    can_manage = interaction.permissions.manage_channels
    channel_id = _channel_id(interaction)
    player = await bot.part(Attendance).check_can_skip(
        channel_id, user_id=interaction.user.id, can_manage=can_manage
    )
    loaded = await bot.service.game(channel_id)
    await interaction.followup.send(
        texts.skip_question(player),
        view=SkipConfirmation(
            interaction, game_id=loaded.game.id, turn=loaded.require_state().turn
        ),
        ephemeral=True,
    )


# --- time zones ---------------------------------------------------------------------------


async def zone_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """IANA time zone names matching what was typed."""
    return [app_commands.Choice(name=name, value=name) for name in zone_choices(current)]
