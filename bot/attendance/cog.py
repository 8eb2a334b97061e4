"""Deadlines, votes to skip, time away and quiet hours, as Discord shows them: the restart-proof
**Vote to Skip** and **Hand seat to computer** buttons, the question of ``/cascadia skip`` (its
confirmation is in :mod:`bot.attendance.views`) and the time zone autocomplete. Time away and
quiet hours are set through ``/cascadia notify`` (below).

The buttons are :class:`discord.ui.DynamicItem` whose ``custom_id`` carries only ids (game and
turn, or game and seat), so a vote posted before a restart still counts presses after it. The
rules are in :mod:`bot.attendance.service`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.attendance import notify as notify_texts
from bot.attendance import texts
from bot.attendance.notices import Notices
from bot.attendance.notify import NotifyChange
from bot.attendance.quiet import zone_choices
from bot.attendance.reminder_queue import ReminderQueue
from bot.attendance.service import Attendance, BadSetting
from bot.attendance.views import SKIP_BUTTONS, SkipConfirmation
from bot.game import messages
from bot.game.errors import NoGame
from bot.shell.buttons import ActionButton
from bot.shell.client import CascadiaBot
from bot.shell.commands import add_commands, remove_commands
from bot.shell.permissions import manages_game_channel
from i18n import N_, _

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
        """Hand the seat over if the presser is the host (or manages the game's channel)."""
        bot = interaction.client
        game = await bot.service.row_by_id(self.first)
        result = await bot.part(Attendance).hand_over(
            self.first,
            self.second,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            can_manage=manages_game_channel(interaction, game),
        )
        await bot.announce(result.outbox_ids)
        await interaction.followup.send(
            _("Done: the computer plays that seat from now on."), ephemeral=True
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


CLEARABLE = ("away", "quiet", "digest", "reminders")
"""What ``clear:`` turns off: the time away going on, the quiet hours, the daily digest, or
the person's own reminder interval (each game's counts again)."""
PRESENCE_CLEARABLE = ("away", "quiet")
"""The part of :data:`CLEARABLE` about quiet hours and time away."""


@dataclass(frozen=True, slots=True)
class PresenceChange:
    """The quiet-hours and time-away options of one ``/cascadia notify``."""

    away_until: str | None = None
    away_note: str | None = None
    quiet_from: int | None = None
    quiet_to: int | None = None
    timezone: str | None = None
    clear: str | None = None

    def is_empty(self) -> bool:
        """Whether no option about quiet hours or time away was given."""
        return all(getattr(self, name) is None for name in self.__slots__)

    def check(self) -> None:
        """Refuse a combination that cannot be carried out, before anything is stored."""
        quiet = (self.quiet_from, self.quiet_to, self.timezone)
        if any(v is not None for v in quiet) and any(v is None for v in quiet):
            raise BadSetting(
                N_(
                    "Give all three for quiet hours: `quiet_from:` and `quiet_to:` (hours 0-23)"
                    " and `timezone:` (such as Europe/Berlin)."
                )
            )
        if self.away_note is not None and self.away_until is None:
            raise BadSetting(
                N_("A note goes with `away_until:` (the day you are back, YYYY-MM-DD).")
            )
        if self.clear is not None and self.clear not in PRESENCE_CLEARABLE:
            raise BadSetting(N_("`clear:` takes `away`, `quiet`, `digest` or `reminders`."))
        if self.clear == "away" and self.away_until is not None:
            raise BadSetting(N_("Give either `away_until:` or `clear:away`, not both."))
        if self.clear == "quiet" and self.quiet_from is not None:
            raise BadSetting(N_("Give either quiet hours or `clear:quiet`, not both."))


async def apply_presence(bot: CascadiaBot, user_id: int, change: PresenceChange) -> list[str]:
    """Store the change (already checked) and say what it did, a line per setting."""
    attendance = bot.part(Attendance)
    lines: list[str] = []
    if change.clear == "quiet":
        await attendance.clear_quiet(user_id)
        lines.append(texts.quiet_cleared())
    elif change.quiet_from is not None and change.quiet_to is not None and change.timezone:
        quiet = await attendance.quiet(
            user_id, start=change.quiet_from, end=change.quiet_to, zone=change.timezone
        )
        lines.append(texts.quiet_answer(quiet))
    if change.clear == "away":
        lines.append(texts.away_cleared(await attendance.clear_away(user_id)))
    elif change.away_until is not None:
        period = await attendance.away(user_id, until=change.away_until, note=change.away_note)
        lines.append(texts.away_answer(period))
    return lines


def split_clear(clear: str | None) -> tuple[str | None, NotifyChange]:
    """``clear:`` as the part of quiet hours and time away, and the part of notifications."""
    if clear is not None and clear not in PRESENCE_CLEARABLE:
        if clear not in CLEARABLE:
            raise BadSetting(N_("`clear:` takes `away`, `quiet`, `digest` or `reminders`."))
        return None, NotifyChange(
            clear_digest=clear == "digest", clear_reminders=clear == "reminders"
        )
    return clear, NotifyChange()


async def notify(interaction: Interaction, change: PresenceChange, notices: NotifyChange) -> None:
    """Answer ``/cascadia notify`` privately: the settings, or what changed (``clear:`` of
    ``change`` may be about notifications too)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    user_id = interaction.user.id
    clear, cleared = split_clear(change.clear)
    change = dataclasses.replace(change, clear=clear)
    notices = dataclasses.replace(
        notices, clear_digest=cleared.clear_digest, clear_reminders=cleared.clear_reminders
    )
    if change.is_empty() and notices.is_empty():
        presence = await bot.part(Attendance).presence(user_id)
        lines = texts.presence_settings(presence, bot.service.now())
        settings, zone = await bot.part(Notices).settings(user_id)
        lines += notify_texts.settings_lines(settings, zone)
    else:
        change.check()
        notices.check()
        lines = await apply_presence(bot, user_id, change)
        if not notices.is_empty():
            lines += await bot.part(Notices).change(user_id, notices)
    await interaction.followup.send("\n".join(lines), ephemeral=True)


MAX_REMINDER_HOURS = 24 * 30
MAX_DEADLINE_HOURS = 24 * 30


@app_commands.command(
    name="settings", description="Show or change the reminders and turn deadline (host)"
)
@app_commands.describe(
    reminder_hours="Remind the player to move after this many hours; 0 turns reminders off",
    deadline_hours="After this many hours the others may vote to skip a turn; 0: no deadline",
)
async def settings(
    interaction: Interaction,
    reminder_hours: app_commands.Range[int, 0, MAX_REMINDER_HOURS] | None = None,
    deadline_hours: app_commands.Range[int, 0, MAX_DEADLINE_HOURS] | None = None,
) -> None:
    """Show the settings; the host may change the reminder interval and the deadline."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel_id = _channel_id(interaction)
    game = (await interaction.client.service.game(channel_id)).game
    if reminder_hours is not None:
        game = await interaction.client.part(ReminderQueue).set_reminder_hours(
            channel_id, user_id=interaction.user.id, hours=reminder_hours
        )
    if deadline_hours is not None:
        game = await interaction.client.part(Attendance).set_deadline_hours(
            channel_id, user_id=interaction.user.id, hours=deadline_hours
        )
    changed = reminder_hours is not None or deadline_hours is not None
    await interaction.followup.send(
        messages.settings_message(
            game.reminder_hours, changed=changed, deadline_hours=game.deadline_hours
        ),
        ephemeral=True,
    )


@app_commands.command(name="skip", description="Skip the current turn now (host)")
async def skip_command(interaction: Interaction) -> None:
    """Ask for confirmation, then the computer plays the current turn."""
    await skip(interaction)


@app_commands.command(
    name="notify",
    description="Your own settings: how you hear of your turns, quiet hours, time away",
)
@app_commands.describe(
    away_until="Time away: the day you are back, YYYY-MM-DD (no reminders, deadlines wait)",
    away_note="A word for the others with your time away (shown with your turns)",
    quiet_from="Quiet hours: no pings from this hour (0-23)",
    quiet_to="Quiet hours: up to this hour (0-23)",
    timezone="Your time zone for quiet hours, such as Europe/Berlin",
    clear="Turn off: away, quiet, digest, or reminders (back to each game's)",
    dm="Also a direct message at each of your turns, with a Play button",
    heads_up="A short direct message when you are next",
    digest_hour="Once a day at this hour (your time zone), your games waiting for you",
    channel_ping="Mention you in the channel at your turn (off: your name only)",
    reminder_hours="Your own reminder interval in every game, hours (0: none)",
)
@app_commands.choices(clear=[app_commands.Choice(name=name, value=name) for name in CLEARABLE])
@app_commands.autocomplete(timezone=zone_autocomplete)
async def notify_command(
    interaction: Interaction,
    away_until: str | None = None,
    away_note: app_commands.Range[str, 1, 100] | None = None,
    quiet_from: app_commands.Range[int, 0, 23] | None = None,
    quiet_to: app_commands.Range[int, 0, 23] | None = None,
    timezone: str | None = None,
    clear: str | None = None,
    dm: bool | None = None,
    heads_up: bool | None = None,
    digest_hour: app_commands.Range[int, 0, 23] | None = None,
    channel_ping: bool | None = None,
    reminder_hours: app_commands.Range[int, 0, MAX_REMINDER_HOURS] | None = None,
) -> None:
    """Show the caller's own settings, or change them, in all their games."""
    # Both value types take the options in the order the command lists them.
    change = PresenceChange(away_until, away_note, quiet_from, quiet_to, timezone, clear)
    notices = NotifyChange(dm, heads_up, digest_hour, channel_ping, reminder_hours)
    await notify(interaction, change, notices)


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    settings,
    skip_command,
    notify_command,
)


async def setup(bot: CascadiaBot) -> None:
    """Add attendance's commands to ``/cascadia`` and register its buttons (votes, hand-overs,
    the skip confirmation), so that messages posted before a restart still work (called by
    ``load_extension``)."""
    add_commands(bot, *COMMANDS)
    bot.add_dynamic_items(*BUTTONS, *SKIP_BUTTONS)


async def teardown(bot: CascadiaBot) -> None:
    """Take the commands and buttons away with the extension."""
    remove_commands(bot, *(command.name for command in COMMANDS))
    bot.remove_dynamic_items(*BUTTONS, *SKIP_BUTTONS)
