"""The deadlines, votes to skip, computer seats, pings and people (quiet hours, time away)
of :class:`~bot.game.store.SqlStore`, in the same SQL for both databases."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import ACTIVE, Connection, SqlBase
from bot.db.errors import NotFound
from bot.game.rows import CommitResult, GameRow, OutboxMessage


@dataclass(frozen=True)
class AwayRow:
    """A period of a person's time away: from ``starts_at`` up to ``ends_at``."""

    user_id: int
    starts_at: datetime
    ends_at: datetime
    note: str | None


@dataclass(frozen=True)
class Person:
    """A Discord user's own settings, for all their games: quiet hours (hours 0-23 and an
    IANA zone name, all three or none) and time away (every period, oldest first)."""

    user_id: int
    quiet_from: int | None = None
    quiet_to: int | None = None
    quiet_zone: str | None = None
    away: tuple[AwayRow, ...] = ()


@dataclass(frozen=True)
class SkipPoll:
    """The vote to skip turn ``turn`` of a game, opened when its deadline passed, with the
    user ids that voted so far."""

    game_id: int
    turn: int
    user_id: int
    """The player whose turn it is."""
    created_at: datetime
    votes: frozenset[int]


class AbsenceQueries(SqlBase):
    """The :class:`Store`'s methods for absence: deadlines, votes to skip, computers taking
    seats over, pings owed after quiet hours, and people's quiet hours and time away."""

    # --- deadlines, computers, pings ----------------------------------------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        if deadline_hours < 0:
            raise ValueError(f"deadline hours must be 0 or more: {deadline_hours}")
        return await self._set_open_game(game_id, "deadline_hours = $2", deadline_hours)

    async def deadline_games(self) -> list[GameRow]:
        return await self._active_games(" AND g.deadline_hours > 0 ORDER BY g.id")

    async def computer_games(self) -> list[GameRow]:
        rest = (
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.computer IS NOT NULL)"
            " ORDER BY g.id"
        )
        return await self._active_games(rest)

    async def due_pings(self, now: datetime) -> list[GameRow]:
        rest = " AND g.ping_due_at IS NOT NULL AND g.ping_due_at <= $1"
        rest += " ORDER BY g.ping_due_at, g.id"
        return await self._active_games(rest, self._time(now))

    async def set_computer(
        self,
        game_id: int,
        expected_revision: int,
        *,
        seat: int,
        computer: str,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        q = "UPDATE seats SET computer = $1 WHERE game_id = $2 AND seat = $3 RETURNING seat"
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            if await db.fetchval(q, computer, game_id, seat) is None:
                raise NotFound("seat", seat)
            revision = await self._bump(db, game)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def record_ping(
        self,
        game_id: int,
        expected_revision: int,
        *,
        ping_due_at: datetime | None,
        next_reminder_at: datetime | None,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        q = "UPDATE games SET ping_due_at = $1, next_reminder_at = $2 WHERE id = $3"
        ping_at, next_at = self._optional_time(ping_due_at), self._optional_time(next_reminder_at)
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            await db.execute(q, ping_at, next_at, game_id)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    # --- votes to skip ------------------------------------------------------------------------

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        polls = await self._polls("p.game_id = $1 AND p.turn = $2", game_id, turn)
        return polls[0] if polls else None

    async def open_skip_polls(self) -> list[SkipPoll]:
        return await self._polls(f"p.game_id IN (SELECT id FROM games WHERE status = {ACTIVE})")

    async def open_skip_poll(
        self,
        game_id: int,
        expected_revision: int,
        *,
        turn: int,
        user_id: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        q = (
            "INSERT INTO skip_polls (game_id, turn, user_id, created_at)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING turn"
        )
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            if await db.fetchval(q, game_id, turn, user_id, self._stamp()) is None:
                return CommitResult(revision=game.revision, outbox_ids=())
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    async def add_skip_vote(self, game_id: int, turn: int, voter_id: int) -> bool:
        q = (
            "INSERT INTO skip_votes (game_id, turn, voter_id, created_at)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING turn"
        )
        async with self._transaction() as db:
            poll = "SELECT 1 FROM skip_polls WHERE game_id = $1 AND turn = $2"
            if await db.fetchval(poll, game_id, turn) is None:
                raise NotFound("vote to skip", turn)
            return await db.fetchval(q, game_id, turn, voter_id, self._stamp()) is not None

    async def _polls(self, where: str, *parameters: object) -> list[SkipPoll]:
        q = (
            "SELECT p.game_id, p.turn, p.user_id, p.created_at, v.voter_id FROM skip_polls p"
            " LEFT JOIN skip_votes v ON v.game_id = p.game_id AND v.turn = p.turn"
            f" WHERE {where} ORDER BY p.game_id, p.turn, v.created_at"
        )
        polls: dict[tuple[int, int], SkipPoll] = {}
        for row in await self._fetch(q, *parameters):
            key = (int(row["game_id"]), int(row["turn"]))
            poll = polls.get(key) or SkipPoll(
                *key, row["user_id"], self._moment(row["created_at"]), frozenset()
            )
            if row["voter_id"] is not None:
                poll = dataclasses.replace(poll, votes=poll.votes | {int(row["voter_id"])})
            polls[key] = poll
        return list(polls.values())

    # --- people: quiet hours and time away ----------------------------------------------------

    async def person(self, user_id: int) -> Person:
        async with self._reading() as db:
            return await self._load_person(db, user_id)

    async def people_of(self, user_ids: Collection[int]) -> dict[int, Person]:
        ids = sorted(set(user_ids))
        async with self._reading() as db:
            return await self._load_people(db, ids, self._in("$1"), self._list(ids))

    async def set_quiet(
        self, user_id: int, *, start: int | None, end: int | None, zone: str | None
    ) -> Person:
        if (start is None) != (end is None) or (start is None) != (zone is None):
            raise ValueError("quiet hours need a start, an end and a zone, or none of them")
        q = (
            "INSERT INTO people (user_id, quiet_from, quiet_to, quiet_zone, updated_at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET"
            " quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,"
            " quiet_zone = excluded.quiet_zone, updated_at = excluded.updated_at"
        )
        async with self._transaction() as db:
            await db.execute(q, user_id, start, end, zone, self._stamp())
            return await self._load_person(db, user_id)

    async def set_away(
        self, user_id: int, *, starts_at: datetime, ends_at: datetime, note: str | None
    ) -> Person:
        if ends_at <= starts_at:
            raise ValueError(f"time away must end after it starts: {starts_at} >= {ends_at}")
        start, end = self._time(starts_at), self._time(ends_at)
        q = (
            "UPDATE away_periods SET ends_at = $1, note = $2 WHERE id = (SELECT id FROM"
            " away_periods WHERE user_id = $3 AND starts_at <= $4 AND ends_at > $4"
            " ORDER BY ends_at DESC LIMIT 1) RETURNING id"
        )
        async with self._transaction() as db:
            await self._lock_person(db, user_id)
            if await db.fetchval(q, end, note, user_id, start) is None:
                q = (
                    "INSERT INTO away_periods (user_id, starts_at, ends_at, note)"
                    " VALUES ($1, $2, $3, $4)"
                )
                await db.execute(q, user_id, start, end, note)
            return await self._load_person(db, user_id)

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        moment = self._time(now)
        async with self._transaction() as db:
            await self._lock_person(db, user_id)
            q = "DELETE FROM away_periods WHERE user_id = $1 AND starts_at >= $2"
            await db.execute(q, user_id, moment)
            q = "UPDATE away_periods SET ends_at = $1 WHERE user_id = $2 AND ends_at > $1"
            q += " RETURNING id"
            return bool(await db.fetch(q, moment, user_id))

    async def _load_person(self, db: Connection, user_id: int) -> Person:
        # One person by the plain comparison: it is read on every turn, and a list costs more.
        return (await self._load_people(db, [user_id], "= $1", user_id))[user_id]

    async def _load_people(
        self, db: Connection, ids: Sequence[int], condition: str, parameter: object
    ) -> dict[int, Person]:
        """Each of ``ids``, read in two statements whose ``user_id`` meets ``condition``
        with ``parameter`` bound to ``$1``."""
        q = (
            "SELECT user_id, quiet_from, quiet_to, quiet_zone FROM people"
            f" WHERE user_id {condition}"
        )
        rows = {int(row["user_id"]): row for row in await db.fetch(q, parameter)}
        q = (
            "SELECT user_id, starts_at, ends_at, note FROM away_periods"
            f" WHERE user_id {condition} ORDER BY user_id, starts_at, id"
        )
        away: dict[int, list[AwayRow]] = {user_id: [] for user_id in ids}
        for p in await db.fetch(q, parameter):
            away[int(p[0])].append(AwayRow(p[0], self._moment(p[1]), self._moment(p[2]), p[3]))
        people = {}
        for user_id in ids:
            row, periods = rows.get(user_id), tuple(away[user_id])
            if row is None:
                people[user_id] = Person(user_id, away=periods)
            else:
                quiet = (row["quiet_from"], row["quiet_to"], row["quiet_zone"])
                people[user_id] = Person(user_id, *quiet, periods)
        return people
