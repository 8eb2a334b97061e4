"""The game service: what every command does, between the parsed options and the reply.

:class:`GameService` is the kernel (:mod:`bot.core.kernel`: the store, the clock, loading a
game, committing a turn) with its parts, one per kind of operation, each over that kernel:
:attr:`~GameService.lobby` (:mod:`bot.core.lobby`), :attr:`~GameService.turns`
(:mod:`bot.core.turns`), :attr:`~GameService.reminders` (:mod:`bot.core.reminder_queue`) and
:attr:`~GameService.lookups` (:mod:`bot.core.lookups`) and :attr:`~GameService.daily`
(:mod:`bot.core.daily`). Deadlines and votes
(:mod:`bot.core.absence_service`), the turn panel (:mod:`bot.core.panel_service`) and the
computer turns (:mod:`bot.core.computer_turns`) are built the same way, over a service they
are given.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from bot.core.computers import Thinker
from bot.core.daily import DailyTrek
from bot.core.kernel import HOUR, GameKernel, LoadedGame, as_seat, new_seed
from bot.core.lobby import Lobby
from bot.core.lookups import Lookups
from bot.core.reminder_queue import ReminderQueue
from bot.core.turns import Hint, Preview, Turns
from bot.store import THIS_PROCESS, Claimer, Clock, Store, utc_now

__all__ = ["GameService", "Hint", "LoadedGame", "Preview", "as_seat"]


class GameService(GameKernel):
    """The operations behind the commands, on a :class:`~bot.store.Store`: the kernel's, and
    those of its parts."""

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
        """See :class:`~bot.core.kernel.GameKernel` for the options."""
        super().__init__(
            store,
            now=now,
            seeds=seeds,
            reminder_hour=reminder_hour,
            thinker=thinker,
            claimer=claimer,
        )
        self.lobby = Lobby(self)
        """Lobbies: opening, seating, starting, passing the host on."""
        self.turns = Turns(self)
        """Playing: turns, wipes, previews, hints, leaving and ending a game."""
        self.reminders = ReminderQueue(self)
        """The reminder setting and the periodic reminder pass."""
        self.lookups = Lookups(self)
        """The read-only lookups: the caller's games, status facts, the export."""
        self.daily = DailyTrek(self)
        """The daily trek: attempts, the days' boards, the daily posts."""
