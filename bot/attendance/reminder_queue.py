"""Queueing reminders: the host's ``reminder_hours`` setting and the periodic pass that
reminds every player whose turn has waited long enough. A part of the game service (see
:mod:`bot.game.kernel`); the schedule itself is :mod:`bot.attendance.reminders`.
"""

from __future__ import annotations

from datetime import datetime

from bot.attendance import notify
from bot.attendance.presence import presence_of
from bot.attendance.reminders import ReminderDue, catch_up
from bot.attendance.store import AttendanceStore
from bot.game import messages
from bot.game.errors import NotHost
from bot.game.kernel import GameKernel, players_of
from bot.game.outbox import Announcement
from bot.game.records import read_progress
from bot.game.rows import GameRow, GameStatus, ReminderNote
from i18n import speaking


class ReminderQueue:
    """Reminding a player whose turn waits: the host's setting and the periodic pass that
    queues the reminders due; part of the game service, over its :class:`GameKernel`."""

    def __init__(self, kernel: GameKernel) -> None:
        self.kernel = kernel
        self.store = kernel.store_as(AttendanceStore)

    async def set_reminder_hours(self, channel_id: int, *, user_id: int, hours: int) -> GameRow:
        """The host changes how long a turn waits before its player is reminded."""
        loaded = await self.kernel.game(channel_id)
        game = loaded.game
        if user_id != game.host_id:
            raise NotHost("change the settings")
        next_at = None
        if game.status is GameStatus.ACTIVE and game.turn_started_at is not None:
            next_at = self.kernel.reminder_after(game.turn_started_at, hours, game.reminders_sent)
        return await self.store.set_reminder_hours(game.id, hours, next_reminder_at=next_at)

    async def queue_reminders(self) -> list[int]:
        """Queue a reminder for every game whose turn has waited long enough; returns the
        outbox ids. After downtime a game gets one catch-up reminder, not a burst."""
        now = self.kernel.now()
        owed = [game for game in await self.store.due_reminders(now) if game.state is not None]
        # A pass after downtime may owe dozens: a few statements for all of them, and one
        # write to disk.
        claimed = await self.store.claim_games([game.id for game in owed], self.kernel.claimer)
        seats = await self.store.seats_of(claimed)
        players = {
            game.id: players_of(seats.get(game.id, []))[read_progress(game.state).current]
            for game in owed
            if game.id in claimed and game.state is not None
        }
        # The language of each player to move, as their seat last saw it (for a reminder by
        # direct message).
        locales = {
            game.id: seats[game.id][read_progress(game.state).current].locale
            for game in owed
            if game.id in players and game.state is not None
        }
        users = {p.user_id for p in players.values()}
        people = await self.store.notify_settings_of(users)
        found = await self.store.people_of(users)
        presences = {user_id: presence_of(person) for user_id, person in found.items()}
        notes: list[ReminderNote] = []
        for game in owed:
            player = players.get(game.id)
            if player is None or game.ping_due_at is not None:
                continue  # not this process's, or a ping after quiet hours is owed
            if player.computer is not None:
                continue  # a computer is not reminded
            settings = people[player.user_id]
            hours = notify.reminder_hours(settings, game.reminder_hours)
            venue = self.kernel.hooks.venue
            if game.reminder_hours != hours and await venue.private_games({game.id}):
                hours = game.reminder_hours  # a daily trek is never reminded
            due = self._catch_up(now, game, hours)
            if due is None:
                continue
            if not presences[player.user_id].may_remind(now):
                continue  # away or in quiet hours: due again at the first check after
            since = game.turn_started_at or now
            reach = notify.reach_of(settings)
            # No interaction is being answered: each text in its reader's language, named here.
            if reach.direct and not reach.channel:
                with speaking(locales.get(game.id)):
                    direct = notify.reminder_direct(since)
                row = notify.direct_row(direct, player.user_id)
            else:
                with speaking(game.locale):
                    row = Announcement(
                        kind="reminder",
                        text=messages.reminder_message(due.level, player, since),
                        mentions=(player.user_id,) if reach.channel else (),
                    ).to_outbox()
            notes.append(ReminderNote(game.id, game.revision, due.next_reminder_at, (row,)))
        # A game a move changed meanwhile is left out: its turn has a fresh schedule.
        results = await self.store.record_reminders(notes)
        return [outbox_id for note in notes if note.game_id in results
                for outbox_id in results[note.game_id].outbox_ids]  # fmt: skip

    def _catch_up(self, now: datetime, game: GameRow, hours: int) -> ReminderDue | None:
        due = catch_up(now, game.next_reminder_at, hours, game.reminders_sent)
        if due is None:
            return None
        return ReminderDue(due.level, now + (due.next_reminder_at - now) * self.kernel.scale)
