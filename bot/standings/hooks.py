"""The standings' part in a finished game (a :class:`~bot.game.hooks.FinishHook`): its seats'
results, written in the same transaction as the final move (:mod:`bot.standings.finishing`), then
the ratings of a rated game (:mod:`bot.standings.league`).
"""

from __future__ import annotations

from bot.game.hooks import Finish, FinishPart
from bot.standings.finishing import finishing_results
from bot.standings.league import update_ratings
from bot.standings.store import StandingsStore

__all__ = ["StandingsHooks"]


class StandingsHooks:
    """The finish hook of the standings, over a store."""

    def __init__(self, store: StandingsStore) -> None:
        self.store = store

    async def before_commit(self, finish: Finish) -> FinishPart:
        """The seats' results (rated when the server's league is on and may rate the game)."""
        game, players = finish.loaded.game, finish.loaded.players
        results = await finishing_results(
            self.store, game, players, finish.state, finish.moves, now=finish.now
        )
        return FinishPart(results=tuple(results))

    async def after_commit(self, finish: Finish, part: FinishPart) -> None:
        """The new ratings of the seats of a rated game."""
        await update_ratings(self.store, part.results)
