"""The game service: what every command does, between the parsed options and the reply.

:class:`GameService` is the kernel (:mod:`bot.game.kernel`: the store, the clock, loading a
game, committing a turn) with its parts, one per kind of operation, each over that kernel:
:attr:`~GameService.lobby` (:mod:`bot.game.lobby`), :attr:`~GameService.turns`
(:mod:`bot.game.turns`) and :attr:`~GameService.lookups` (:mod:`bot.game.lookups`). Each
feature's service is built the same way, over the service it is given (see :mod:`bot.app`).
"""

from __future__ import annotations

import functools

from bot.game.kernel import GameKernel, LoadedGame, as_seat
from bot.game.lobby import Lobby
from bot.game.lookups import Lookups
from bot.game.turns import Hint, Preview, Turns

__all__ = ["GameService", "Hint", "LoadedGame", "Preview", "as_seat"]


class GameService(GameKernel):
    """The operations behind the commands, on a :class:`~bot.stores.Store`: the kernel's (see
    :class:`~bot.game.kernel.GameKernel` for the options), and those of its parts."""

    @functools.cached_property
    def lobby(self) -> Lobby:
        """Lobbies: opening, seating, starting, passing the host on."""
        return Lobby(self)

    @functools.cached_property
    def turns(self) -> Turns:
        """Playing: turns, wipes, previews, hints, leaving and ending a game."""
        return Turns(self)

    @functools.cached_property
    def lookups(self) -> Lookups:
        """The read-only lookups: the caller's games, status facts, the export."""
        return Lookups(self)
