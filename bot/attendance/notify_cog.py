"""``/cascadia notify``: a person's own settings, in all their games on every server.

Quiet hours and time away are set here, and how the person hears of their turns: direct
messages, heads-ups, a daily digest, the channel ping, their own reminder interval (Discord
allows a command 25 subcommands, so they share one). With no options it shows the settings as
they stand. Every option is checked before any is stored, so a refused call changes nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import discord

from bot.attendance import notify as notify_texts
from bot.attendance import texts
from bot.attendance.notices import Notices
from bot.attendance.notify import NotifyChange
from bot.attendance.service import Attendance, BadSetting
from bot.shell.client import CascadiaBot

Interaction = discord.Interaction[CascadiaBot]

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
                "Give all three for quiet hours: `quiet_from:` and `quiet_to:` (hours 0-23)"
                " and `timezone:` (such as Europe/Berlin)."
            )
        if self.away_note is not None and self.away_until is None:
            raise BadSetting("A note goes with `away_until:` (the day you are back, YYYY-MM-DD).")
        if self.clear is not None and self.clear not in PRESENCE_CLEARABLE:
            raise BadSetting("`clear:` takes `away`, `quiet`, `digest` or `reminders`.")
        if self.clear == "away" and self.away_until is not None:
            raise BadSetting("Give either `away_until:` or `clear:away`, not both.")
        if self.clear == "quiet" and self.quiet_from is not None:
            raise BadSetting("Give either quiet hours or `clear:quiet`, not both.")


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
            raise BadSetting("`clear:` takes `away`, `quiet`, `digest` or `reminders`.")
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
