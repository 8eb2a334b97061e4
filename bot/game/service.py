"""The game service: what every command does, between the parsed options and the reply.

:class:`GameService` is the kernel (:mod:`bot.game.kernel`: the store, the clock, loading a
game, committing a turn) with its parts, one per kind of operation, each over that kernel:
:attr:`~GameService.lobby` (:mod:`bot.game.lobby`), :attr:`~GameService.turns`
(:mod:`bot.game.turns`) and :attr:`~GameService.lookups` (:mod:`bot.game.lookups`). Each
feature's service is built the same way, over the service it is given (see :mod:`bot.app`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from bot.game.computers import Thinker
from bot.game.hooks import PLAIN_GAME, TurnHooks
from bot.game.kernel import HOUR, GameKernel, LoadedGame, as_seat, new_seed
from bot.game.lobby import Lobby
from bot.game.lookups import Lookups
from bot.game.rows import THIS_PROCESS, Claimer
from bot.game.store import GameStore
from bot.game.turns import Hint, Preview, Turns
from bot.ops.clock import Clock, utc_now

__all__ = ["GameService", "Hint", "LoadedGame", "Preview", "as_seat"]


class GameService(GameKernel):
    """The operations behind the commands, on a :class:`~bot.stores.Store`: the kernel's, and
    those of its parts."""

    def __init__(
        self,
        store: GameStore,
        *,
        now: Clock = utc_now,
        seeds: Callable[[], int] = new_seed,
        reminder_hour: timedelta = HOUR,
        thinker: Thinker | None = None,
        claimer: Claimer = THIS_PROCESS,
        hooks: TurnHooks = PLAIN_GAME,
    ) -> None:
        """See :class:`~bot.game.kernel.GameKernel` for the options."""
        super().__init__(
            store,
            now=now,
            seeds=seeds,
            reminder_hour=reminder_hour,
            thinker=thinker,
            claimer=claimer,
            hooks=hooks,
        )
        self.lobby = Lobby(self)
        """Lobbies: opening, seating, starting, passing the host on."""
        self.turns = Turns(self)
        """Playing: turns, wipes, previews, hints, leaving and ending a game."""
        self.lookups = Lookups(self)
        """The read-only lookups: the caller's games, status facts, the export."""
