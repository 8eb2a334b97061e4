"""The archive's part in a finished game (a :class:`~bot.game.hooks.FinishHook`): its totals
round by round, counted and kept once the game is committed (:mod:`bot.archive.service`).
"""

from __future__ import annotations

import asyncio
import logging

from bot.archive.rounds import round_totals
from bot.archive.store import ArchiveStore
from bot.db.errors import DatabaseUnavailable
from bot.game.hooks import Finish, FinishPart

__all__ = ["ArchiveHooks"]

log = logging.getLogger(__name__)


class ArchiveHooks:
    """The finish hook of the archive, over a store."""

    def __init__(self, store: ArchiveStore) -> None:
        self.store = store

    async def before_commit(self, finish: Finish) -> FinishPart:
        """Nothing."""
        return FinishPart()

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        """Count and keep the totals round by round of the game (in a thread). A failure is
        only logged: the archive counts them when first asked."""
        game_id = finish.loaded.game.id
        try:
            totals = await asyncio.to_thread(round_totals, finish.record)
            await self.store.save_round_scores(game_id, totals)
        except DatabaseUnavailable as error:
            log.info("the round totals of game %d wait for the archive: %s", game_id, error)
        except Exception:
            log.exception("could not keep the round totals of game %d", game_id)
