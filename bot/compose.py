"""The game service as the bot runs it: the game floor (:mod:`bot.game.service`) with the
features that stand on it put together, in one fixed order.

The game service names no feature; this module names them all: their hooks into a turn
(:func:`standard_hooks`) and their parts over the service (:class:`StandardService`). The
Discord client, the benchmarks and the tests build the service here when they want the bot's
own behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from bot.archive.hooks import ArchiveHooks
from bot.attendance.hooks import AttendanceHooks
from bot.attendance.reminder_queue import ReminderQueue
from bot.daily.hooks import DailyHooks
from bot.daily.service import DailyTrek
from bot.game.computers import Thinker
from bot.game.hooks import TurnHooks
from bot.game.interface import Store
from bot.game.kernel import HOUR, new_seed
from bot.game.rows import THIS_PROCESS, Claimer, Clock, utc_now
from bot.game.service import GameService
from bot.standings.hooks import StandingsHooks

__all__ = ["StandardService", "standard_hooks"]


def standard_hooks(store: Store) -> TurnHooks:
    """The features' hooks into a turn, over ``store``: attendance calls the player to move
    and sends the direct messages (told by the daily trek which games are played in direct
    messages); a finished game gets the daily trek's par, then the standings' results and
    ratings, then the archive's round totals."""
    daily = DailyHooks(store)
    attendance = AttendanceHooks(store, venue=daily)
    return TurnHooks(
        caller=attendance,
        directs=attendance,
        finish=(daily, StandingsHooks(store), ArchiveHooks(store)),
    )


class StandardService(GameService):
    """The game service with the features' hooks (:func:`standard_hooks`) and their parts
    over it: the reminder pass and the daily trek."""

    def __init__(
        self,
        store: Store,
        *,
        now: Clock = utc_now,
        seeds: Callable[[], int] = new_seed,
        reminder_hour: timedelta = HOUR,
        thinker: Thinker | None = None,
        claimer: Claimer = THIS_PROCESS,
    ) -> None:
        """See :class:`~bot.game.kernel.GameKernel` for the options."""
        super().__init__(
            store,
            now=now,
            seeds=seeds,
            reminder_hour=reminder_hour,
            thinker=thinker,
            claimer=claimer,
            hooks=standard_hooks(store),
        )
        self.reminders = ReminderQueue(self)
        """The reminder setting and the periodic reminder pass."""
        self.daily = DailyTrek(self)
        """The daily trek: attempts, the days' boards, the daily posts."""
