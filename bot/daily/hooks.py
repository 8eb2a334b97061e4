"""A daily trek's part in its turns: where it is played (a :class:`~bot.game.hooks.Venue`)
and what its end adds (a :class:`~bot.game.hooks.FinishHook`): the par, and whether the
attempt is on the day's board (:mod:`bot.daily.par`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from bot.daily.par import cached_par, finish_note
from bot.daily.share import SHARE_LABEL, share_custom_id
from bot.daily.store import DailyStore
from bot.game.hooks import Finish, FinishPart, Turn
from engine import Day
from i18n import _, speaking

__all__ = ["DailyHooks"]


class DailyHooks:
    """The venue and the finish hook of the daily trek, over a store."""

    def __init__(self, store: DailyStore) -> None:
        self.store = store

    async def is_private(self, turn: Turn) -> bool:
        """Whether the game is a daily trek's attempt: played in its member's direct messages
        with the bot, or a private thread."""
        game_id = turn.loaded.game.id
        attempt = await turn.once((__name__, "attempt"), lambda: self.store.daily_attempt(game_id))
        return attempt is not None

    async def private_games(self, game_ids: Collection[int]) -> set[int]:
        """Those of the games that are daily treks' attempts."""
        return await self.store.daily_games(game_ids)

    async def before_commit(self, finish: Finish) -> FinishPart:
        """For an attempt, the line its final message adds: the par, and whether it counts
        (the par worked out in a thread the first time a day is asked for); and its **Share**
        button."""
        if not finish.private:
            return FinishPart()  # no attempt: only a daily trek is played alone with the bot
        attempt = await self.store.daily_attempt(finish.loaded.game.id)
        if attempt is None:
            return FinishPart()
        par = await asyncio.to_thread(cached_par, Day.parse(attempt.day))
        # The final message is the game's: in its language (its member's).
        with speaking(finish.loaded.game.locale):
            return FinishPart(
                tail=finish_note(attempt, finish.sheet.players[finish.seat].total, par),
                buttons=((_(SHARE_LABEL), share_custom_id(attempt.game_id)),),
            )

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        """Nothing."""
