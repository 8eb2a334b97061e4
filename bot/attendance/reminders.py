"""When to nudge the player whose turn it is, and how firmly: pure functions of times.

The schedule of one turn (:func:`bot.game.kernel.next_reminder_time`): the first reminder comes
``reminder_hours`` after the turn started, then one every ``reminder_hours``;
``reminder_hours == 0`` turns reminders off. The wording gets firmer with each reminder sent
during the same turn.

After downtime (the bot was offline while several reminders fell due) :func:`catch_up` sends a
single reminder and schedules the next one a whole period from now, so nobody is pinged in a
burst and two reminders are never closer than ``reminder_hours`` apart.

Nothing here reads a clock: callers pass ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.game.hooks import ReminderLevel

__all__ = [
    "ReminderDue",
    "catch_up",
    "reminder_level",
]


@dataclass(frozen=True)
class ReminderDue:
    """A reminder to send now, and when the one after it falls due."""

    level: ReminderLevel
    next_reminder_at: datetime


def reminder_level(reminders_sent: int) -> ReminderLevel:
    """The wording for the next reminder, given how many this turn has had already."""
    _check_count(reminders_sent)
    if reminders_sent == 0:
        return ReminderLevel.GENTLE
    if reminders_sent == 1:
        return ReminderLevel.FIRMER
    return ReminderLevel.FIRMEST


def catch_up(
    now: datetime,
    next_reminder_at: datetime | None,
    reminder_hours: int,
    reminders_sent: int,
) -> ReminderDue | None:
    """The reminder to send at ``now``, if one is due; ``None`` if nothing is.

    However many reminders were missed while the bot was down, at most one is due, worded for
    ``reminders_sent``; the next falls due ``reminder_hours`` after ``now``. Scheduling from
    ``now`` (not from the missed time) is what keeps a restart from sending a burst.
    """
    _check_hours(reminder_hours)
    _check_count(reminders_sent)
    if reminder_hours == 0 or next_reminder_at is None or now < next_reminder_at:
        return None
    return ReminderDue(
        level=reminder_level(reminders_sent),
        next_reminder_at=now + timedelta(hours=reminder_hours),
    )


def _check_hours(reminder_hours: int) -> None:
    if reminder_hours < 0:
        raise ValueError(f"reminder hours must be 0 or more: {reminder_hours}")


def _check_count(reminders_sent: int) -> None:
    if reminders_sent < 0:
        raise ValueError(f"reminders sent must be 0 or more: {reminders_sent}")
