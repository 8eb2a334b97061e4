"""Attendance's store: deadlines, votes to skip, computer seats, pings, people (quiet hours,
time away) and how each hears of their turns, over :class:`~bot.game.store.GameStore`, in
the same SQL for both databases."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.database import Connection, Record
from bot.db.errors import NotFound
from bot.game.rows import CommitResult, GameRow, OutboxMessage
from bot.game.store import GameStore
from bot.game.tables import ACTIVE

_NOTIFY_COLUMNS = (
    "user_id, dm, heads_up, digest_hour, channel_ping, reminder_hours, digest_day,"
    " dms_refused_at, refusal_told"
)


@dataclass(frozen=True)
class NotifySettings:
    """How a Discord user hears of their turns, in all their games (the defaults: a mention
    in the channel and nothing else).

    ``digest_hour`` is an hour of their own day (the zone of their quiet hours, else UTC);
    ``reminder_hours`` replaces the game's interval (0: no reminders; ``None``: the game's).
    ``digest_day`` is their own day (``YYYY-MM-DD``) of the last digest; ``dms_refused_at``
    when Discord refused a direct message to them, ``refusal_told`` whether they were told.
    """

    user_id: int
    dm: bool = False
    heads_up: bool = False
    digest_hour: int | None = None
    channel_ping: bool = True
    reminder_hours: int | None = None
    digest_day: str | None = None
    dms_refused_at: datetime | None = None
    refusal_told: bool = False


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


class AttendanceStore(GameStore):
    """Attendance's queries, over the game's store: deadlines, votes to skip, computers taking
    seats over, pings owed after quiet hours, people's quiet hours and time away, and how each
    hears of their turns."""

    # --- deadlines, computers, pings ----------------------------------------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        """Change how many hours a turn may take before the others may vote to skip it; 0
        turns deadlines off. Bookkeeping: no revision bump. Raises :class:`GameClosed`."""
        if deadline_hours < 0:
            raise ValueError(f"deadline hours must be 0 or more: {deadline_hours}")
        return await self._set_open_game(game_id, "deadline_hours = $2", deadline_hours)

    async def deadline_games(self) -> list[GameRow]:
        """Games being played that have a deadline, oldest first."""
        return await self._active_games(" AND g.deadline_hours > 0 ORDER BY g.id")

    async def due_pings(self, now: datetime) -> list[GameRow]:
        """Games being played whose ping owed after quiet hours is due at ``now``."""
        rest = " AND g.ping_due_at IS NOT NULL AND g.ping_due_at <= $1"
        rest += " ORDER BY g.ping_due_at, g.id"
        return await self._active_games(rest, self._time(now))

    async def record_ping(
        self,
        game_id: int,
        expected_revision: int,
        *,
        ping_due_at: datetime | None,
        next_reminder_at: datetime | None,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Queue the ping owed after quiet hours and set the next one (``None``: nothing owed
        any more) and the next reminder; or, with no message, only move them. A move since the
        game was read raises :class:`RevisionConflict` (its turn message decided afresh).
        Bookkeeping."""
        q = "UPDATE games SET ping_due_at = $1, next_reminder_at = $2 WHERE id = $3"
        ping_at, next_at = self._optional_time(ping_due_at), self._optional_time(next_reminder_at)
        async with self._transaction() as db:
            game = await self._lock_active(db, game_id, expected_revision)
            await db.execute(q, ping_at, next_at, game_id)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    # --- votes to skip ------------------------------------------------------------------------

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        """The vote to skip that turn of the game, with its votes, if one was opened."""
        polls = await self._polls("p.game_id = $1 AND p.turn = $2", game_id, turn)
        return polls[0] if polls else None

    async def open_skip_polls(self) -> list[SkipPoll]:
        """The votes of games being played, by game and turn; a vote whose turn is over is
        among them (the store does not read turns): the caller compares them."""
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
        """Open the vote to skip ``turn`` and queue its message, in one transaction; once per
        turn (no outbox id when it was open already). ``expected_revision`` is that of the game
        the turn was read from: a move since raises :class:`RevisionConflict`. Bookkeeping."""
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
        """Count ``voter_id``'s vote to skip ``turn``; ``False`` if they had voted already.
        Raises :class:`NotFound` when no such vote was opened."""
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
        """A user's quiet hours and every period of their time away, oldest first (nothing
        set: an empty :class:`Person`)."""
        async with self._reading() as db:
            return await self._load_person(db, user_id)

    async def people_of(self, user_ids: Collection[int]) -> dict[int, Person]:
        """:meth:`person` of each of the users, by user id, in two statements however many."""
        ids = sorted(set(user_ids))
        async with self._reading() as db:
            return await self._load_people(db, ids, self._in("$1"), self._list(ids))

    async def set_quiet(
        self, user_id: int, *, start: int | None, end: int | None, zone: str | None
    ) -> Person:
        """Set a user's quiet hours (hours 0-23, an IANA zone name the caller checked), or
        clear them with three ``None``."""
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
        """Start time away at ``starts_at`` until ``ends_at``; when the user is away already
        at ``starts_at``, that period gets the new end and note instead."""
        if ends_at <= starts_at:
            raise ValueError(f"time away must end after it starts: {starts_at} >= {ends_at}")
        start, end = self._time(starts_at), self._time(ends_at)
        q = (
            "UPDATE away_periods SET ends_at = $1, note = $2 WHERE id = (SELECT id FROM"
            " away_periods WHERE user_id = $3 AND starts_at <= $4 AND ends_at > $4"
            " ORDER BY ends_at DESC LIMIT 1) RETURNING id"
        )
        async with self._transaction() as db:
            await self._lock_key(db, f"cascadia away {user_id}")
            if await db.fetchval(q, end, note, user_id, start) is None:
                q = (
                    "INSERT INTO away_periods (user_id, starts_at, ends_at, note)"
                    " VALUES ($1, $2, $3, $4)"
                )
                await db.execute(q, user_id, start, end, note)
            return await self._load_person(db, user_id)

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        """End the time away at ``now`` (every period still going on or ahead); ``False`` if
        there was none."""
        moment = self._time(now)
        async with self._transaction() as db:
            await self._lock_key(db, f"cascadia away {user_id}")
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

    # --- how a person hears of their turns ---------------------------------------------------

    async def notify_settings(self, user_id: int) -> NotifySettings:
        """A user's notification settings (nothing set: the defaults)."""
        found = await self.notify_settings_of([user_id])
        return found[user_id]

    async def notify_settings_of(self, user_ids: Collection[int]) -> dict[int, NotifySettings]:
        """The notification settings of each of ``user_ids`` (the defaults for those with
        none)."""
        ids = sorted(set(user_ids))
        q = f"SELECT {_NOTIFY_COLUMNS} FROM notify_settings WHERE user_id {self._in('$1')}"
        found = {
            row["user_id"]: self._settings(row) for row in await self._fetch(q, self._list(ids))
        }
        return {user_id: found.get(user_id, NotifySettings(user_id)) for user_id in ids}

    async def save_notify_settings(self, settings: NotifySettings) -> NotifySettings:
        """Store a user's notification settings, every field as given (a digest hour 0-23,
        reminder hours 0-720, else ``ValueError``); returns them as stored."""
        q = (
            f"INSERT INTO notify_settings ({_NOTIFY_COLUMNS}, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (user_id) DO UPDATE SET"
            " dm = excluded.dm, heads_up = excluded.heads_up,"
            " digest_hour = excluded.digest_hour, channel_ping = excluded.channel_ping,"
            " reminder_hours = excluded.reminder_hours, digest_day = excluded.digest_day,"
            " dms_refused_at = excluded.dms_refused_at, refusal_told = excluded.refusal_told,"
            " updated_at = excluded.updated_at"
        )
        s = settings
        if s.digest_hour is not None and not 0 <= s.digest_hour <= 23:
            raise ValueError(f"a digest hour is 0-23, not {s.digest_hour}")
        if s.reminder_hours is not None and not 0 <= s.reminder_hours <= 720:
            raise ValueError(f"reminder hours are 0-720, not {s.reminder_hours}")
        async with self._transaction() as db:
            await db.execute(
                q,
                s.user_id,
                int(s.dm),
                int(s.heads_up),
                s.digest_hour,
                int(s.channel_ping),
                s.reminder_hours,
                s.digest_day,
                self._optional_time(s.dms_refused_at),
                int(s.refusal_told),
                self._stamp(),
            )
            row = await db.fetchrow(
                f"SELECT {_NOTIFY_COLUMNS} FROM notify_settings WHERE user_id = $1", s.user_id
            )
            return self._settings(row)

    async def digest_people(self) -> list[NotifySettings]:
        """The settings of everyone who asked for a daily digest."""
        q = (
            f"SELECT {_NOTIFY_COLUMNS} FROM notify_settings WHERE digest_hour IS NOT NULL"
            " ORDER BY user_id"
        )
        return [self._settings(row) for row in await self._fetch(q)]

    async def queue_digest(
        self,
        user_id: int,
        day: str,
        *,
        game_id: int | None,
        outbox_messages: Sequence[OutboxMessage] = (),
    ) -> tuple[int, ...] | None:
        """Record that the user's digest of their own ``day`` is done and, in the same
        transaction, queue ``outbox_messages`` (under ``game_id``); ``None`` if that day's, or
        a later day's, was done already (another process, a pass that read the clock before
        another queued the next day's, or before a restart), else the outbox ids."""
        # Days as YYYY-MM-DD text: text order is day order, so a day never goes back.
        q = (
            "UPDATE notify_settings SET digest_day = $1 WHERE user_id = $2"
            " AND (digest_day IS NULL OR digest_day < $1) RETURNING user_id"
        )
        async with self._transaction() as db:
            if await db.fetchval(q, day, user_id) is None:
                return None
            if game_id is None or not outbox_messages:
                return ()
            game = await self._load_game(db, game_id)
            return await self._insert_outbox(db, game, outbox_messages)

    async def refuse_direct(self, outbox_id: int, user_id: int, error: str) -> bool:
        """Discord refused the direct message ``outbox_id`` to ``user_id``: the row is done
        (never tried again) and the user's DMs are refused from now on. Returns whether this
        is news (their DMs were not refused before)."""
        done = (
            "UPDATE outbox SET sent_at = COALESCE(sent_at, $1), attempts = attempts + 1,"
            " last_error = $2 WHERE id = $3"
        )
        refused = (
            "INSERT INTO notify_settings (user_id, dms_refused_at, updated_at)"
            " VALUES ($1, $2, $2) ON CONFLICT (user_id) DO UPDATE SET"
            " dms_refused_at = excluded.dms_refused_at, refusal_told = 0,"
            " updated_at = excluded.updated_at"
            " WHERE notify_settings.dms_refused_at IS NULL RETURNING user_id"
        )
        stamp = self._stamp()
        async with self._transaction() as db:
            await db.execute(done, stamp, error[:2_000], outbox_id)
            await db.execute("DELETE FROM outbox_snapshots WHERE outbox_id = $1", outbox_id)
            return await db.fetchval(refused, user_id, stamp) is not None

    async def take_refusal_note(self, user_id: int) -> bool:
        """Whether the user should now be told that their DMs are refused: ``True`` once per
        refusal, recorded as told in the same write."""
        q = (
            "UPDATE notify_settings SET refusal_told = 1 WHERE user_id = $1"
            " AND dms_refused_at IS NOT NULL AND refusal_told = 0 RETURNING user_id"
        )
        async with self._transaction() as db:
            return await db.fetchval(q, user_id) is not None

    async def untake_refusal_note(self, user_id: int) -> None:
        """The word taken by :meth:`take_refusal_note` could not be sent: it is owed again
        (unless the refusal was cleared meanwhile)."""
        q = (
            "UPDATE notify_settings SET refusal_told = 0 WHERE user_id = $1"
            " AND dms_refused_at IS NOT NULL"
        )
        async with self._transaction() as db:
            await db.execute(q, user_id)

    def _settings(self, row: Record) -> NotifySettings:
        return NotifySettings(
            user_id=int(row["user_id"]),
            dm=bool(row["dm"]),
            heads_up=bool(row["heads_up"]),
            digest_hour=row["digest_hour"],
            channel_ping=bool(row["channel_ping"]),
            reminder_hours=row["reminder_hours"],
            digest_day=row["digest_day"],
            dms_refused_at=self._optional_moment(row["dms_refused_at"]),
            refusal_told=bool(row["refusal_told"]),
        )
