"""The archive of finished games in :class:`~bot.game.store.SqlStore`: the games of a server
newest first and their totals round by round, in the same SQL for both databases."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.db.database import GAME_COLUMNS, SqlBase
from bot.game.rows import GameRow, GameStatus

_FINISHED = f"'{GameStatus.FINISHED.value}'"
# IS NULL OR: one statement for the server's games and for one member's. A daily trek's
# attempts are left out: their boards are shown only to those who played the day.
_OF_GUILD = (
    f" FROM games g WHERE g.guild_id = $1 AND g.status = {_FINISHED}"
    " AND (CAST($2 AS bigint) IS NULL"
    " OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $2))"
    " AND NOT EXISTS (SELECT 1 FROM daily_attempts d WHERE d.game_id = g.id)"
)


class ArchiveQueries(SqlBase):
    """The :class:`Store`'s methods for the archive: finished games and their round scores."""

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameRow]:
        q = (
            f"SELECT {GAME_COLUMNS}{_OF_GUILD} ORDER BY g.updated_at DESC, g.id DESC"
            " LIMIT $3 OFFSET $4"
        )
        return [self._game(row) for row in await self._fetch(q, guild_id, user_id, limit, offset)]

    async def count_finished_games(self, guild_id: int, *, user_id: int | None = None) -> int:
        return int(await self._fetchval(f"SELECT COUNT(*){_OF_GUILD}", guild_id, user_id))

    async def final_messages(self, game_ids: Collection[int]) -> dict[int, int]:
        q = (
            "SELECT game_id, message_id FROM outbox WHERE game_id "
            + self._in("$1")
            + " AND kind = 'finish' AND message_id IS NOT NULL"
        )
        rows = await self._fetch(q, self._list(sorted(set(game_ids))))
        return {int(row["game_id"]): int(row["message_id"]) for row in rows}

    async def round_scores(self, game_id: int) -> list[tuple[int, ...]] | None:
        q = "SELECT round, seat, total FROM round_scores WHERE game_id = $1 ORDER BY round, seat"
        rounds: dict[int, list[int]] = {}
        for row in await self._fetch(q, game_id):
            rounds.setdefault(int(row["round"]), []).append(int(row["total"]))
        return [tuple(totals) for _, totals in sorted(rounds.items())] or None

    async def save_round_scores(self, game_id: int, rounds: Sequence[Sequence[int]]) -> None:
        # Two processes may count an old game at once: the first rows stand, the same.
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
