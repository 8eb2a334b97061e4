"""The archive's store over :class:`~bot.game.store.GameStore`: the games of a server
newest first and their totals round by round, in the same SQL for both databases."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.game.rows import GameRow, GameStatus
from bot.game.store import GameStore
from bot.game.tables import GAME_COLUMNS

_FINISHED = f"'{GameStatus.FINISHED.value}'"
# IS NULL OR: one statement for the server's games and for one member's. A daily trek's
# attempts are left out: their boards are shown only to those who played the day.
_OF_GUILD = (
    f" FROM games g WHERE g.guild_id = $1 AND g.status = {_FINISHED}"
    " AND (CAST($2 AS bigint) IS NULL"
    " OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $2))"
    " AND NOT EXISTS (SELECT 1 FROM daily_attempts d WHERE d.game_id = g.id)"
)


class ArchiveStore(GameStore):
    """The archive's queries, over the game's store: finished games and their round scores."""

    async def archived_game(self, guild_id: int, game_id: int) -> GameRow | None:
        """The guild's finished game ``game_id``, unless it is a daily trek's attempt."""
        q = (
            f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1 AND g.guild_id = $2"
            f" AND g.status = {_FINISHED}"
            " AND NOT EXISTS (SELECT 1 FROM daily_attempts d WHERE d.game_id = g.id)"
        )
        row = await self._fetchrow(q, game_id, guild_id)
        return None if row is None else self._game(row)

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameRow]:
        """The guild's finished games (only those ``user_id`` sat at, when given), the last
        to finish first: ``limit`` of them after skipping ``offset``. A daily trek's attempts
        are not among them."""
        q = (
            f"SELECT {GAME_COLUMNS}{_OF_GUILD} ORDER BY g.updated_at DESC, g.id DESC"
            " LIMIT $3 OFFSET $4"
        )
        return [self._game(row) for row in await self._fetch(q, guild_id, user_id, limit, offset)]

    async def count_finished_games(self, guild_id: int, *, user_id: int | None = None) -> int:
        """How many games :meth:`finished_games` would list in all."""
        return int(await self._fetchval(f"SELECT COUNT(*){_OF_GUILD}", guild_id, user_id))

    async def final_messages(self, game_ids: Collection[int]) -> dict[int, int]:
        """The id of the message that ended each of the games, for those whose last message
        has been posted."""
        q = (
            "SELECT game_id, message_id FROM outbox WHERE game_id "
            + self._in("$1")
            + " AND kind = 'finish' AND message_id IS NOT NULL"
        )
        rows = await self._fetch(q, self._list(sorted(set(game_ids))))
        return {int(row["game_id"]): int(row["message_id"]) for row in rows}

    async def round_scores(self, game_id: int) -> list[tuple[int, ...]] | None:
        """Every seat's total after each round of the game, in seat order, a tuple a round;
        ``None`` when they were never stored (a game finished before they were kept)."""
        q = "SELECT round, seat, total FROM round_scores WHERE game_id = $1 ORDER BY round, seat"
        rounds: dict[int, list[int]] = {}
        for row in await self._fetch(q, game_id):
            rounds.setdefault(int(row["round"]), []).append(int(row["total"]))
        return [tuple(totals) for _, totals in sorted(rounds.items())] or None

    async def save_round_scores(self, game_id: int, rounds: Sequence[Sequence[int]]) -> None:
        # Two processes may count an old game at once: the first rows stand, the same.
        """Keep the game's totals round by round (as :meth:`round_scores` reads them); rows
        already kept for the game stay as they are."""
        q = (
            "INSERT INTO round_scores (game_id, round, seat, total) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (game_id, round, seat) DO NOTHING"
        )
        rows = [
            (game_id, number, seat, total)
            for number, totals in enumerate(rounds, start=1)
            for seat, total in enumerate(totals)
        ]
        async with self._transaction() as db:
            await db.executemany(q, rows)
