"""The achievements' store: what each person earned in each finished game, written once in
``$1`` style over :class:`~bot.game.store.GameStore`."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import Connection
from bot.game.hooks import FinishWrite
from bot.game.rows import GameStatus
from bot.game.store import GameStore

__all__ = ["AchievementsStore", "Earned", "First"]

_PRACTICE = "SELECT game_id FROM daily_attempts WHERE counted = 0"
"""A daily trek's practice attempts (those after the day's one that counts) earn nothing."""


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement a person (``user_id`` > 0) earned in a finished game of a server."""

    game_id: int
    user_id: int
    achievement: str
    guild_id: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class First:
    """The game in which a person first earned an achievement, and when it finished."""

    achievement: str
    game_id: int
    finished_at: datetime


class AchievementsStore(GameStore):
    """The achievements' queries, over the game's store."""

    def earned_write(self, rows: Sequence[Earned]) -> FinishWrite:
        """The write of ``rows`` on the final commit's connection (a row kept before stays)."""

        async def write(db: Connection) -> None:
            await self._insert_earned(db, rows)

        return write

    async def _insert_earned(self, db: Connection, rows: Sequence[Earned]) -> None:
        if not rows:
            return
        q = (
            "INSERT INTO achievements (game_id, user_id, achievement, guild_id, finished_at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, user_id, achievement) DO NOTHING"
        )
        values = [
            (r.game_id, r.user_id, r.achievement, r.guild_id, self._time(r.finished_at))
            for r in rows
        ]
        await db.executemany(q, values)

    async def is_practice(self, game_id: int) -> bool:
        """Whether the game is a daily trek's practice attempt."""
        q = f"SELECT 1 FROM daily_attempts WHERE game_id = $1 AND game_id IN ({_PRACTICE})"
        return await self._fetchval(q, game_id) is not None

    async def achievements_of(self, user_id: int) -> set[str]:
        """The ids the person ever earned, in any server."""
        q = "SELECT DISTINCT achievement FROM achievements WHERE user_id = $1"
        return {str(row["achievement"]) for row in await self._fetch(q, user_id)}

    async def earned_in_guild(self, guild_id: int, achievements: Collection[str]) -> set[str]:
        """Those of ``achievements`` that someone earned in a game of the server."""
        q = "SELECT 1 FROM achievements WHERE guild_id = $1 AND achievement = $2 LIMIT 1"
        found = set()
        for achievement in sorted(set(achievements)):
            if await self._fetchval(q, guild_id, achievement) is not None:
                found.add(achievement)
        return found

    async def firsts(self, user_id: int, *, guild_id: int | None) -> list[First]:
        """The game in which the person first earned each achievement (in the server's games,
        or in every server when ``guild_id`` is ``None``), by achievement id."""
        q = (
            "SELECT achievement, game_id, finished_at FROM achievements WHERE user_id = $1"
            + ("" if guild_id is None else " AND guild_id = $2")
            + " ORDER BY achievement, finished_at, game_id"
        )
        args: tuple[object, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
        firsts: dict[str, First] = {}
        for row in await self._fetch(q, *args):
            achievement = str(row["achievement"])
            if achievement not in firsts:
                moment = self._moment(row["finished_at"])
                firsts[achievement] = First(achievement, int(row["game_id"]), moment)
        return list(firsts.values())

    async def members_per_achievement(self, guild_id: int) -> dict[str, int]:
        """How many members of the server earned each achievement someone earned there."""
        q = (
            "SELECT achievement, COUNT(DISTINCT user_id) AS members FROM achievements"
            " WHERE guild_id = $1 GROUP BY achievement"
        )
        return {str(r["achievement"]): int(r["members"]) for r in await self._fetch(q, guild_id)}

    async def finished_games_after(self, game_id: int, limit: int) -> list[int]:
        """Ids of the finished games after ``game_id`` that may earn achievements (not a
        practice attempt), lowest first."""
        q = (
            "SELECT g.id FROM games g WHERE g.status = $1 AND g.id > $2"
            f" AND g.id NOT IN ({_PRACTICE}) ORDER BY g.id LIMIT $3"
        )
        rows = await self._fetch(q, GameStatus.FINISHED.value, game_id, limit)
        return [int(row["id"]) for row in rows]

    async def replace_earned(self, game_ids: Collection[int], rows: Sequence[Earned]) -> None:
        """Forget what was kept for these games and keep ``rows`` instead, in one
        transaction."""
        if not game_ids:
            return
        q = f"DELETE FROM achievements WHERE game_id {self._in('$1')}"
        async with self._transaction() as db:
            await db.execute(q, self._list(sorted(set(game_ids))))
            await self._insert_earned(db, rows)
