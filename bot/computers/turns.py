"""Playing the computer turns that are due, each game in a task of its own.

Beside :mod:`bot.attendance.service`, which plays the seats handed to the computer in its
periodic check, through the same claim -> play -> look again on a revision conflict loop: a
turn is thought about by the service's :class:`~bot.game.computers.Thinker` and committed by
:meth:`bot.game.turns.Turns.play_computer`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence

from bot.db.retry import when_available
from bot.game.errors import RevisionConflict
from bot.game.service import GameService
from i18n import speaking

log = logging.getLogger(__name__)


class ComputerTurns:
    """Plays the computer turns that are due, each game in a task of its own.

    :meth:`wake` is called after every write that may have made a computer's turn due (and
    at start-up for every game with a computer); a game already being played is left to its
    task, which goes on while the next seat is a computer too. ``announce`` posts what a
    turn queued in the outbox before the next turn is thought about.
    """

    def __init__(
        self, service: GameService, announce: Callable[[Sequence[int]], Awaitable[object]]
    ) -> None:
        self.service = service
        self.announce = announce
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def wake(self, game_ids: Iterable[int]) -> None:
        """Play the due computer turns of these games (nothing for a game without one)."""
        if self._closed:
            return
        for game_id in game_ids:
            if game_id not in self._tasks:
                # Not in the language of whoever woke it: the game's turn messages are written
                # in the game's own (see :meth:`~bot.game.kernel.GameKernel.commit_turn`).
                with speaking(None):
                    task = asyncio.create_task(self._play(game_id), name=f"computer-{game_id}")
                self._tasks[game_id] = task
                task.add_done_callback(self._forget)

    async def wake_all(self) -> None:
        """Play the due computer turns of every game with a computer (after a restart)."""
        self.wake(game.id for game in await self.service.store.computer_games())

    async def idle(self) -> None:
        """Wait until no computer turn is being played (for tests and shutting down)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks.values()))

    async def close(self) -> None:
        """Stop playing: a turn being thought about is dropped and played after a restart."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def _forget(self, task: asyncio.Task[None]) -> None:
        for game_id, running in list(self._tasks.items()):
            if running is task:
                del self._tasks[game_id]

    async def _play(self, game_id: int) -> None:
        try:
            while await when_available(
                lambda: self._play_one(game_id), what=f"the computer's turn in game {game_id}"
            ):
                pass
        except asyncio.CancelledError:
            raise
        except Exception:
            # Committed turns are safe; the next wake-up (a move, a restart, the periodic
            # check) tries again.
            log.exception("could not play the computer's turn in game %d", game_id)

    async def _play_one(self, game_id: int) -> bool:
        """Play the game's due computer turn, if any; returns whether to look again."""
        if not await self.service.claim(game_id):
            return False  # another process's shards own the game, or it plays it now
        try:
            result = await self.service.turns.play_computer(game_id)
        except RevisionConflict:
            # The game changed while the computer thought (a person left, the host ended it).
            log.info("game %d changed during a computer's turn; looking again", game_id)
            return True
        if result is None:
            return False
        await self.announce(result.outbox_ids)
        return True
