"""The standings' store: finished games' results, leagues, ratings, written once in ``$1``
style over :class:`~bot.game.store.GameStore`."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.db.database import Record
from bot.game.rows import GameStatus, SeatResult
from bot.game.store import GameStore
from bot.game.tables import RESULT_COLUMNS

_NOT_DAILY = "game_id NOT IN (SELECT game_id FROM daily_attempts)"
"""A daily trek's attempts have their own boards and streaks: the figures leave them out, so
that nobody's private attempt shows in a server's records."""
_RATING_COLUMNS = "player, name, mu, sigma, ordinal, games, wins, change"


@dataclass(frozen=True)
class Tablemate:
    """A seat of a finished game as head to head reads it: who sat there and their rank."""

    game_id: int
    seat: int
    user_id: int
    name: str
    computer: str | None
    handed_over: bool
    rank: int

    @property
    def person(self) -> bool:
        """Whether a person sat here (and perhaps left it to the computer)."""
        return self.computer is None or self.handed_over


@dataclass(frozen=True)
class League:
    """A server's league: whether it is on, and its current season (1 first)."""

    guild_id: int
    enabled: bool = False
    season: int = 1


@dataclass(frozen=True)
class Rating:
    """A player's rating in a season of a server's league; ``player`` is a user id as text
    or a computer player's name. ``change`` is how the ordinal moved in their last game."""

    player: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    change: float


class StandingsStore(GameStore):
    """The standings' queries, over the game's store: the statistics and the rated league."""

    async def record_results(self, results: Sequence[SeatResult]) -> None:
        """Keep the results of a finished game's seats; a seat kept before stays as it was."""
        async with self._transaction() as db:
            await self._insert_results(db, results)

    def _result(self, row: Record) -> SeatResult:
        return SeatResult(
            game_id=row["game_id"],
            seat=row["seat"],
            guild_id=row["guild_id"],
            user_id=row["user_id"],
            name=row["name"],
            computer=row["computer"],
            handed_over=bool(row["handed_over"]),
            players=row["players"],
            cards=row["cards"],
            score=row["score"],
            rank=row["rank"],
            nature_tokens=row["nature_tokens"],
            tokens_used=row["tokens_used"],
            wildlife=json.loads(row["wildlife"]),
            habitats=json.loads(row["habitats"]),
            corridor=row["corridor"],
            turn_seconds=tuple(json.loads(row["turn_seconds"])),
            rated=bool(row["rated"]),
            season=row["season"],
            finished_at=self._moment(row["finished_at"]),
        )

    async def member_results(self, user_id: int, *, guild_id: int | None) -> list[SeatResult]:
        """The person ``user_id``'s seats in finished games (those they left to the computer
        too), in this server's games only unless ``guild_id`` is ``None``; oldest first. Daily
        trek attempts are left out: they have their own boards."""
        q = (
            f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = $1"
            f" AND (computer IS NULL OR handed_over = 1) AND {_NOT_DAILY}"
            + ("" if guild_id is None else " AND guild_id = $2")
            + " ORDER BY finished_at, game_id"
        )
        args: tuple[object, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
        return [self._result(row) for row in await self._fetch(q, *args)]

    async def tablemates(self, user_id: int, *, guild_id: int | None) -> list[Tablemate]:
        # Only what head to head needs, of every seat at the member's games: no JSON to read.
        """Every seat (theirs and the others') of the finished games the person ``user_id``
        sat at, as head to head needs it, by game and seat; ``guild_id`` as for
        :meth:`member_results`."""
        where = "m.user_id = $1" + ("" if guild_id is None else " AND m.guild_id = $2")
        q = (
            "SELECT r.game_id, r.seat, r.user_id, r.name, r.computer, r.handed_over, r.rank"
            f" FROM results m JOIN results r ON r.game_id = m.game_id WHERE {where}"
            " AND (m.computer IS NULL OR m.handed_over = 1) ORDER BY r.game_id, r.seat"
        )
        args: tuple[object, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
        return [
            Tablemate(row[0], row[1], row[2], row[3], row[4], bool(row[5]), row[6])
            for row in await self._fetch(q, *args)
        ]

    async def guild_results(self, guild_id: int) -> list[SeatResult]:
        """Every seat of the server's finished games but daily trek attempts, oldest game
        first."""
        q = (
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND {_NOT_DAILY}"
            " ORDER BY finished_at, game_id, seat"
        )
        return [self._result(row) for row in await self._fetch(q, guild_id)]

    async def rated_results(self) -> list[SeatResult]:
        """Every rated seat, by server and season, oldest game first: what ratings are
        rebuilt from."""
        q = (
            f"SELECT {RESULT_COLUMNS} FROM results WHERE rated = 1"
            " ORDER BY guild_id, season, finished_at, game_id, seat"
        )
        return [self._result(row) for row in await self._fetch(q)]

    async def games_without_results(self, limit: int = 500) -> list[int]:
        """Ids of finished games whose results are not kept yet (finished before they were),
        lowest first."""
        q = (
            "SELECT g.id FROM games g WHERE g.status = $1 AND NOT EXISTS"
            " (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY g.id LIMIT $2"
        )
        rows = await self._fetch(q, GameStatus.FINISHED.value, limit)
        return [row["id"] for row in rows]

    # --- the league ---------------------------------------------------------------------------

    async def league(self, guild_id: int) -> League:
        """The server's league (off, season 1, if it was never turned on)."""
        q = "SELECT guild_id, enabled, season FROM leagues WHERE guild_id = $1"
        row = await self._fetchrow(q, guild_id)
        if row is None:
            return League(guild_id)
        return League(row["guild_id"], bool(row["enabled"]), row["season"])

    async def set_league(
        self, guild_id: int, *, enabled: bool | None = None, new_season: bool = False
    ) -> League:
        """Turn the server's league on or off (``None``: as it is) and, with ``new_season``,
        close its season and start the next; returns the league as it is afterwards."""
        q = (
            "INSERT INTO leagues (guild_id, enabled, season) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET enabled = $2, season = $3"
        )
        async with self._transaction() as db:
            row = await db.fetchrow(
                "SELECT enabled, season FROM leagues WHERE guild_id = $1", guild_id
            )
            old = League(guild_id) if row is None else League(guild_id, bool(row[0]), row[1])
            new = League(
                guild_id,
                old.enabled if enabled is None else enabled,
                old.season + 1 if new_season else old.season,
            )
            await db.execute(q, guild_id, int(new.enabled), new.season)
            return new

    async def set_member(self, guild_id: int, user_id: int, *, joined: bool) -> bool:
        """Add a person to the server's league or take them out; ``False`` if they were
        already in (or out)."""
        async with self._transaction() as db:
            was = await db.fetchval(
                "SELECT 1 FROM league_members WHERE guild_id = $1 AND user_id = $2",
                guild_id,
                user_id,
            )
            if joined and was is None:
                await db.execute(
                    "INSERT INTO league_members (guild_id, user_id) VALUES ($1, $2)",
                    guild_id,
                    user_id,
                )
            elif not joined and was is not None:
                await db.execute(
                    "DELETE FROM league_members WHERE guild_id = $1 AND user_id = $2",
                    guild_id,
                    user_id,
                )
            return (was is None) == joined

    async def league_members(self, guild_id: int, user_ids: Collection[int]) -> set[int]:
        """Which of ``user_ids`` joined the server's league."""
        q = f"SELECT user_id FROM league_members WHERE guild_id = $1 AND user_id {self._in('$2')}"
        rows = await self._fetch(q, guild_id, self._list(user_ids))
        return {row["user_id"] for row in rows}

    # --- ratings ------------------------------------------------------------------------------

    def _rating(self, row: Record) -> Rating:
        return Rating(
            row["player"],
            row["name"],
            row["mu"],
            row["sigma"],
            row["ordinal"],
            row["games"],
            row["wins"],
            row["change"],
        )

    async def ratings(self, guild_id: int, season: int, players: Collection[str]) -> list[Rating]:
        """The ratings of ``players`` in a season who have one."""
        if not players:
            return []
        marks = ", ".join(f"${n}" for n in range(3, 3 + len(players)))
        q = (
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND season = $2"
            f" AND player IN ({marks})"
        )
        rows = await self._fetch(q, guild_id, season, *players)
        return [self._rating(row) for row in rows]

    async def save_ratings(self, guild_id: int, season: int, ratings: Sequence[Rating]) -> None:
        """Keep these ratings in a season, replacing the players' earlier ones."""
        q = (
            f"INSERT INTO ratings (guild_id, season, {_RATING_COLUMNS}) VALUES ($1, $2, $3, $4,"
            " $5, $6, $7, $8, $9, $10) ON CONFLICT (guild_id, season, player) DO UPDATE SET"
            " name = $4, mu = $5, sigma = $6, ordinal = $7, games = $8, wins = $9, change = $10"
        )
        args = [
            (
                guild_id,
                season,
                r.player,
                r.name,
                r.mu,
                r.sigma,
                r.ordinal,
                r.games,
                r.wins,
                r.change,
            )
            for r in ratings
        ]
        async with self._transaction() as db:
            await db.executemany(q, args)

    async def leaderboard(self, guild_id: int, season: int, limit: int = 20) -> list[Rating]:
        """A season's best ``limit`` ratings, highest ordinal first."""
        q = (
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND season = $2"
            " ORDER BY ordinal DESC, player LIMIT $3"
        )
        return [self._rating(row) for row in await self._fetch(q, guild_id, season, limit)]

    async def rating_place(self, guild_id: int, season: int, player: str) -> int | None:
        """A player's place on a season's leaderboard (1 first), if they are rated in it."""
        q = (
            "SELECT 1 + (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id"
            " AND o.season = r.season AND (o.ordinal > r.ordinal"
            " OR o.ordinal = r.ordinal AND o.player < r.player))"
            " FROM ratings r WHERE r.guild_id = $1 AND r.season = $2 AND r.player = $3"
        )
        place = await self._fetchval(q, guild_id, season, player)
        return None if place is None else int(place)

    async def clear_ratings(self) -> None:
        """Drop every rating of every server and season (before rebuilding them)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM ratings")
