"""The read-only lookups: the caller's games, what ``status`` adds, and the export. A part of
the game service (see :mod:`bot.game.kernel`); they change nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.game.hooks import AwayPeriod
from bot.game.kernel import GameKernel, LoadedGame, players_of
from bot.game.messages import GameSummary
from bot.game.records import export_document, read_progress
from bot.game.rows import GameStatus

RECENTLY_ENDED = timedelta(days=7)
"""How long ``mygames`` still lists a game that was ended early."""


class Lookups:
    """What the read-only commands show: the caller's games, the facts ``status`` adds, and
    the export; part of the game service, over its :class:`GameKernel`."""

    def __init__(self, kernel: GameKernel) -> None:
        self.kernel = kernel
        self.store = kernel.store

    async def my_games(self, user_id: int) -> list[GameSummary]:
        """The caller's open games across channels, and those ended in the last week (such
        as a game whose channel was deleted).

        Reads each game's progress, not its whole state, and the time away of the player to
        move only where the game has deadlines: a player may sit at dozens of games.
        """
        now = self.kernel.now()
        summaries = []
        # They left these games to the computer.
        entries = [e for e in await self.store.games_for_user(user_id) if e.seat.computer is None]
        ids = [entry.game.id for entry in entries]
        seats = await self.store.seats_of(ids)
        treks = await self.kernel.hooks.venue.private_games(ids)
        tables = []
        # Games whose turn has a deadline: the player to move, the turn's start, its length.
        waiting: dict[int, tuple[int, datetime, timedelta]] = {}
        for entry in entries:
            game = entry.game
            players = players_of(seats.get(game.id, []))
            progress = None if game.state is None else read_progress(game.state)
            to_move = None if progress is None else players[progress.current]
            tables.append((game, progress, to_move))
            budget, started_at = self.kernel.deadline_budget(game), game.turn_started_at
            playing = progress is not None and not progress.is_over
            if playing and budget and started_at and to_move and to_move.computer is None:
                waiting[game.id] = (to_move.user_id, started_at, budget)
        # Only those turns need their player's time away: one read for them all.
        caller = self.kernel.hooks.caller
        people = await caller.whereabouts({user for user, _, _ in waiting.values()})
        deadlines = {
            game_id: people[user].deadline(at, budget)
            for game_id, (user, at, budget) in waiting.items()
        }
        for game, progress, to_move in tables:
            summaries.append(
                GameSummary(
                    guild_id=game.guild_id,
                    channel_id=game.channel_id,
                    started=progress is not None,
                    your_turn=to_move is not None and to_move.user_id == user_id,
                    to_move=None if to_move is None else to_move.name,
                    round=None if progress is None else progress.round,
                    deadline=deadlines.get(game.id),
                    daily=game.id in treks,
                )
            )
        for entry in await self.store.games_for_user(user_id, statuses=(GameStatus.ENDED,)):
            if entry.game.updated_at < now - RECENTLY_ENDED:
                break  # newest first: the rest ended longer ago
            summaries.append(
                GameSummary(
                    guild_id=entry.game.guild_id,
                    channel_id=entry.game.channel_id,
                    started=entry.game.state is not None,
                    your_turn=False,
                    to_move=None,
                    round=None,
                    ended=True,
                )
            )
        return summaries

    async def turn_facts(
        self, loaded: LoadedGame
    ) -> tuple[datetime | None, tuple[AwayPeriod | None, ...]]:
        """What ``status`` adds: by when the player to move plays (``None``: no deadline, or
        the game is over) and, per seat, the time away going on."""
        now = self.kernel.now()
        people = await self.kernel.hooks.caller.whereabouts({p.user_id for p in loaded.players})
        away = tuple(people[p.user_id].away_at(now) for p in loaded.players)
        state, started_at = loaded.state, loaded.game.turn_started_at
        budget = self.kernel.deadline_budget(loaded.game)
        if state is None or state.is_over or started_at is None or budget is None:
            return None, away
        player = loaded.players[state.current]
        if loaded.game.status is not GameStatus.ACTIVE or player.computer is not None:
            return None, away
        return people[player.user_id].deadline(started_at, budget), away

    async def export(self, channel_id: int, *, user_id: int) -> dict[str, Any]:
        """The channel's game (or the caller's last one here) as a JSON document: the game,
        its settings, players, moves, ``table`` (every environment, in the table-json shape)
        with ``scores`` (its score sheet), and, once the game is over, ``seed`` and the
        replayable ``record``. Snowflake ids are strings, as in Discord's JSON."""
        loaded = await self.kernel.last_game(channel_id, user_id=user_id)
        moves = await self.kernel.moves(loaded.game)
        hints = await self.store.hints(loaded.game.id)
        return export_document(loaded.game, loaded.players, loaded.require_state(), moves, hints)
