"""The :class:`~bot.store.Store` on one SQLite file, through one long-lived aiosqlite
connection: WAL, explicit ``BEGIN IMMEDIATE`` transactions, numbered migrations tracked with
``PRAGMA user_version``, and a revision checked on every write.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Self

import aiosqlite

from bot.store.errors import (
    AlreadySeated,
    ChannelBusy,
    DatabaseTooNew,
    GameClosed,
    HintTaken,
    LobbyFull,
    NotActive,
    NotFound,
    NotInLobby,
    NotSeated,
    RevisionConflict,
    StalePanel,
    StoreError,
)
from bot.store.rows import (
    OPEN_STATUSES,
    AwayRow,
    Claimer,
    Clock,
    CommitResult,
    GameRow,
    GameStatus,
    HintRow,
    MoveRow,
    OutboxMessage,
    OutboxRow,
    PanelRow,
    Person,
    ReminderNote,
    Seat,
    SkipPoll,
    UserGame,
    utc_now,
)
from bot.store.schema import Migration, check_numbering, load_migrations

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another connection's write lock before giving up."""

_MAX_ERROR_CHARS = 2_000
_INCREMENTAL = 2
"""``PRAGMA auto_vacuum`` value of incremental auto-vacuum."""

_GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.status, g.host_id, g.cards, g.created_at, g.updated_at,"
    " g.revision, g.state, g.reminder_hours, g.turn_started_at, g.next_reminder_at,"
    " g.reminders_sent, g.lobby_message_id, g.deadline_hours, g.ping_due_at"
)
_SEAT_COLUMNS = "s.game_id, s.seat, s.user_id, s.name, s.computer"
_OUTBOX_COLUMNS = (
    "o.id, o.game_id, o.channel_id, o.kind, o.payload, s.snapshot, o.created_at, o.attempts,"
    " o.last_error, o.sent_at, o.message_id"
)
_OUTBOX_TABLES = "outbox o LEFT JOIN outbox_snapshots s ON s.outbox_id = o.id"
_PANEL_COLUMNS = "game_id, user_id, turn, revision, version, draft, updated_at"
# Statuses written into the SQL, not bound: SQLite uses a partial index (``WHERE status =
# 'active'``) only when the query states its condition in the same literal words.
_ACTIVE = f"'{GameStatus.ACTIVE.value}'"
_OPEN = f"('{GameStatus.LOBBY.value}', '{GameStatus.ACTIVE.value}')"


class _Keep:
    """Marks an optional column that a write leaves as it is."""


_KEEP = _Keep()


class SqliteStore:
    """The :class:`Store` on one SQLite file, through one long-lived aiosqlite connection.

    Statements from concurrent tasks would interleave on the single connection, so every
    operation holds one asyncio lock for its duration; SQLite's own locking (``BEGIN
    IMMEDIATE`` with a busy timeout) covers other processes on the same file.
    """

    def __init__(self, connection: aiosqlite.Connection, *, now: Clock = utc_now) -> None:
        """Wrap a connection that :meth:`connect` has configured and migrated; use that instead."""
        self._connection: aiosqlite.Connection | None = connection
        self._now = now
        self._lock = asyncio.Lock()
        self._transaction_task: asyncio.Task[Any] | None = None

    @classmethod
    async def connect(
        cls,
        path: str | os.PathLike[str],
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
    ) -> Self:
        """Open the database file, configure the connection and bring the schema up to date.

        ``migrations`` replaces the shipped ones (for tests of the runner). Raises
        :class:`DatabaseTooNew` if the file's schema is newer than the code.
        """
        if migrations is None:
            migrations = load_migrations()
        check_numbering(migrations)
        # Transactions are managed by hand (BEGIN IMMEDIATE), so no implicit ones.
        connection = await aiosqlite.connect(os.fspath(path), isolation_level=None)
        store = cls(connection, now=now)
        try:
            await store._configure()
            await store._migrate(migrations)
        except BaseException:
            await store.close()
            raise
        return store

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
    ) -> AsyncIterator[Self]:
        """:meth:`connect` as an ``async with`` block that closes the store at its end."""
        store = await cls.connect(path, now=now, migrations=migrations)
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Wait for the operation in progress, give free pages back (see
        :meth:`reclaim_space`), then close the connection. Idempotent."""
        async with self._lock:
            connection, self._connection = self._connection, None
            if connection is not None:
                try:
                    await _reclaim(connection)
                except sqlite3.Error:
                    log.warning("could not reclaim free pages on closing", exc_info=True)
                await connection.close()

    async def reclaim_space(self) -> int:
        """Give the pages that deleted rows (mostly sent messages' snapshots) left free back to
        the file system, so the file does not keep its largest size; returns how many pages
        were free. Cheap when there are none: the bot calls it periodically."""
        self._refuse_reentry()
        async with self._lock:
            return await _reclaim(self._open_connection())

    async def schema_version(self) -> int:
        """The database's ``PRAGMA user_version``: the number of the last migration applied."""
        rows = await self._read("PRAGMA user_version", ())
        return int(rows[0][0])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the block in one write transaction: ``BEGIN IMMEDIATE``, then COMMIT or ROLLBACK.

        IMMEDIATE takes the write lock up front, so a transaction never fails halfway with
        ``SQLITE_BUSY`` when it first writes. Not reentrant: do not call store methods inside.
        """
        self._refuse_reentry()
        async with self._lock:
            connection = self._open_connection()
            self._transaction_task = asyncio.current_task()
            try:
                # Inside the try: a cancelled BEGIN still runs on aiosqlite's thread.
                await connection.execute("BEGIN IMMEDIATE")
                yield connection
                await connection.execute("COMMIT")
            except BaseException:
                await _rollback(connection)
                raise
            finally:
                self._transaction_task = None

    # --- lobby --------------------------------------------------------------------------------

    async def create_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, cards: str
    ) -> GameRow:
        """Open a lobby in a channel with the host in seat 0; :class:`ChannelBusy` if taken."""
        stamp = self._stamp()
        async with self.transaction() as db:
            busy = await _fetchone(
                db,
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}",
                (channel_id,),
            )
            if busy is not None:
                raise ChannelBusy(channel_id, int(busy["id"]))
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
                " updated_at, revision) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
                (guild_id, channel_id, GameStatus.LOBBY, host_id, cards, stamp, stamp),
            )
            game_id = _rowid(cursor)
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, host_id, host_name),
            )
            return await _load_game(db, game_id)

    async def join(
        self,
        game_id: int,
        user_id: int,
        name: str,
        *,
        max_seats: int = 4,
        computer: str | None = None,
    ) -> Seat:
        """Seat a user (or, with ``computer``, a computer player) in the next free seat of a
        lobby and bump the revision.

        Raises :class:`NotInLobby`, :class:`AlreadySeated` or :class:`LobbyFull`, in that order.
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = await _load_seats(db, game_id)
            if any(seat.user_id == user_id for seat in seats):
                raise AlreadySeated(game_id, user_id)
            if len(seats) >= max_seats:
                raise LobbyFull(game_id, max_seats)
            seat = Seat(
                game_id=game_id,
                seat=len(seats),
                user_id=user_id,
                name=name,
                computer=computer,
            )
            await _insert_seats(db, [seat])
            await self._bump(db, game)
            return seat

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        """Take a user's seat away in a lobby and return the game as it is afterwards.

        The seats behind close up. If the leaver is the host, the lobby closes: its status
        becomes ``ended`` (nobody is left to start it, and handing the lobby to someone who did
        not open it would surprise them). Raises :class:`NotInLobby` or :class:`NotSeated`.
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = await _load_seats(db, game_id)
            if all(seat.user_id != user_id for seat in seats):
                raise NotSeated(game_id, user_id)
            await _reseat(db, game_id, [seat for seat in seats if seat.user_id != user_id])
            status = GameStatus.ENDED if user_id == game.host_id else GameStatus.LOBBY
            await self._bump(db, game, status=status)
            return await _load_game(db, game_id)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the lobby (bookkeeping: no revision bump)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)
            )
            if cursor.rowcount == 0:
                raise NotFound("game", game_id)

    async def pass_host(self, game_id: int, *, old_host: int, new_host: int) -> bool:
        """Make ``new_host`` the host in place of ``old_host`` (bookkeeping: no revision
        bump); ``False`` if ``old_host`` was not the host any more."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET host_id = ? WHERE id = ? AND host_id = ?",
                (new_host, game_id, old_host),
            )
            return cursor.rowcount == 1

    async def start_game(
        self,
        game_id: int,
        expected_revision: int,
        *,
        state_json: str,
        seat_order: Sequence[int],
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
        next_reminder_at: datetime | None,
        ping_due_at: datetime | None = None,
    ) -> CommitResult:
        """Turn a lobby into an active game with its first state and final seat order.

        ``seat_order`` lists the user id of every seated player once, seat 0 first. Raises
        :class:`RevisionConflict` (someone joined or left since), :class:`NotInLobby`, or
        ``ValueError`` if ``seat_order`` is not exactly the seated users.
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, game.status)
            seats = {seat.user_id: seat for seat in await _load_seats(db, game_id)}
            if len(seat_order) != len(seats) or set(seat_order) != set(seats):
                raise ValueError(
                    f"seat order {list(seat_order)} is not the seated users {sorted(seats)}"
                )
            await _reseat(db, game_id, [seats[user_id] for user_id in seat_order])
            revision = await self._bump(
                db,
                game,
                status=GameStatus.ACTIVE,
                state=state_json,
                turn_started_at=turn_started_at,
                next_reminder_at=next_reminder_at,
                reminders_sent=0,
                ping_due_at=ping_due_at,
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    # --- play ---------------------------------------------------------------------------------

    async def commit_move(
        self,
        game_id: int,
        expected_revision: int,
        *,
        user_id: int,
        action_text: str,
        new_state_json: str,
        new_status: GameStatus,
        outbox_messages: Sequence[OutboxMessage],
        turn_started_at: datetime,
        next_reminder_at: datetime | None,
        played_for: str | None = None,
        ping_due_at: datetime | None = None,
    ) -> CommitResult:
        """Store a move in one transaction: state, status and revision, log entry, outbox rows.

        ``new_status`` is ``active`` or ``finished``. When ``turn_started_at`` differs from the
        stored one a new turn has begun and the reminder count starts again from 0.
        ``played_for`` says who chose a move its player did not (``"vote"``, ``"host"``,
        ``"computer"``); ``ping_due_at`` when the ping owed for a turn message sent in quiet
        hours is due. Raises :class:`RevisionConflict` (changing nothing) or :class:`NotActive`.
        """
        if new_status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
            raise ValueError(f"a move cannot leave a game {new_status}")
        stamp = self._stamp()
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            same_turn = game.turn_started_at == turn_started_at
            revision = await self._bump(
                db,
                game,
                status=new_status,
                state=new_state_json,
                turn_started_at=turn_started_at,
                next_reminder_at=next_reminder_at,
                reminders_sent=game.reminders_sent if same_turn else 0,
                ping_due_at=ping_due_at if not same_turn else game.ping_due_at,
            )
            await db.execute(
                "INSERT INTO moves (game_id, seq, user_id, action, created_at, played_for)"
                " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?",
                (game_id, user_id, action_text, stamp, played_for, game_id),
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def end_game(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage] = ()
    ) -> CommitResult:
        """Stop a lobby or a game in play early: status ``ended``, no more reminders.

        Takes no expected revision: ending wins over anything in flight, and the bump makes any
        move computed before it fail with :class:`RevisionConflict`. Raises :class:`GameClosed`
        if the game is already finished or ended.
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            revision = await self._bump(
                db, game, status=GameStatus.ENDED, next_reminder_at=None, ping_due_at=None
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game (lobby or in play) ends (status ``ended``,
        no more reminders) and every message still to post there is dropped. Returns the ids
        of the games ended (none when the channel had no open game)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g"
                " WHERE g.channel_id = ? AND g.status IN (?, ?)",
                (channel_id, GameStatus.LOBBY, GameStatus.ACTIVE),
            )
            games = [_game(row) for row in await cursor.fetchall()]
            for game in games:
                await self._bump(
                    db, game, status=GameStatus.ENDED, next_reminder_at=None, ping_due_at=None
                )
            unsent = "SELECT id FROM outbox WHERE channel_id = ? AND sent_at IS NULL"
            await db.execute(
                f"DELETE FROM outbox_snapshots WHERE outbox_id IN ({unsent})", (channel_id,)
            )
            await db.execute(
                "DELETE FROM outbox WHERE channel_id = ? AND sent_at IS NULL", (channel_id,)
            )
            return [game.id for game in games]

    async def set_reminder_hours(
        self, game_id: int, reminder_hours: int, *, next_reminder_at: datetime | None
    ) -> GameRow:
        """Change the reminder interval and the time of the next reminder; 0 turns them off.

        The caller checks that the user is the host and computes ``next_reminder_at`` (see
        :func:`bot.reminders.next_reminder_time`). Bookkeeping: no revision bump. Raises
        :class:`GameClosed` on a finished or ended game.
        """
        if reminder_hours < 0:
            raise ValueError(f"reminder hours must be 0 or more: {reminder_hours}")
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(
                "UPDATE games SET reminder_hours = ?, next_reminder_at = ? WHERE id = ?",
                (reminder_hours, _optional_text(next_reminder_at), game_id),
            )
            return await _load_game(db, game_id)

    # --- reads --------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, in any status."""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def get_active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, if there is one."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = ? AND g.status IN {_OPEN}",
            (channel_id,),
        )
        return _game(rows[0]) if rows else None

    async def seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""
        rows = await self._read(
            f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat", (game_id,)
        )
        return [_seat(row) for row in rows]

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[Seat]]:
        """The seats of several games at once, each game's in seat order (a game without
        seats, or unknown, is left out)."""
        # One JSON array, not one placeholder per id: no limit on how many games.
        rows = await self._read(
            f"SELECT {_SEAT_COLUMNS} FROM seats s"
            " WHERE s.game_id IN (SELECT value FROM json_each(?)) ORDER BY s.game_id, s.seat",
            (json.dumps(sorted(set(game_ids))),),
        )
        found: dict[int, list[Seat]] = {}
        for row in rows:
            found.setdefault(int(row["game_id"]), []).append(_seat(row))
        return found

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's move log in order."""
        rows = await self._read(
            "SELECT game_id, seq, user_id, action, created_at, played_for FROM moves"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [_move(row) for row in rows]

    async def games_for_user(
        self,
        user_id: int,
        *,
        statuses: Collection[GameStatus] = OPEN_STATUSES,
        channel_id: int | None = None,
    ) -> list[UserGame]:
        """The games a user is seated at, in the given statuses (and only ``channel_id``'s
        when given), most recently changed first."""
        wanted = sorted(GameStatus(status) for status in statuses)
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        # IS NULL OR: one statement, so a user with hundreds of finished games elsewhere does
        # not have them all read to find the one in this channel.
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS}, {_SEAT_COLUMNS} FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND g.status IN ({marks})"
            " AND (? IS NULL OR g.channel_id = ?)"
            " ORDER BY g.updated_at DESC, g.id DESC",
            (user_id, *wanted, channel_id, channel_id),
        )
        return [UserGame(game=_game(row), seat=_seat(row)) for row in rows]

    # --- hints --------------------------------------------------------------------------------

    async def record_hint(
        self, game_id: int, *, turn: int, user_id: int, moves: Sequence[str]
    ) -> HintRow:
        """Note the hint given on ``turn``; :class:`HintTaken` if that turn had one, or
        :class:`NotActive`. The game's revision stays: a hint changes nothing in play."""
        stamp = self._stamp()
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            cursor = await db.execute(
                "INSERT OR IGNORE INTO hints (game_id, turn, user_id, moves, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, turn, user_id, "\n".join(moves), stamp),
            )
            if cursor.rowcount != 1:
                raise HintTaken(game_id, turn)
            return HintRow(game_id, turn, user_id, tuple(moves), _from_text(stamp))

    async def hints(self, game_id: int) -> list[HintRow]:
        """The game's hints in turn order."""
        rows = await self._read(
            "SELECT game_id, turn, user_id, moves, created_at FROM hints"
            " WHERE game_id = ? ORDER BY turn",
            (game_id,),
        )
        return [
            HintRow(
                row["game_id"],
                row["turn"],
                row["user_id"],
                tuple(row["moves"].split("\n")),
                _from_text(row["created_at"]),
            )
            for row in rows
        ]

    # --- outbox -------------------------------------------------------------------------------

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Unsent outbox rows, oldest first; with ``max_attempts``, only rows tried fewer times;
        with ``channel_id``, only that channel's.

        Rows of one channel must be posted in this order; a caller that skips a failing row
        should hold back the later rows of the same channel.
        """
        where = ["o.sent_at IS NULL"]
        params: list[int] = []
        if max_attempts is not None:
            where.append("o.attempts < ?")
            params.append(max_attempts)
        if channel_id is not None:
            where.append("o.channel_id = ?")
            params.append(channel_id)
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE {' AND '.join(where)}"
            " ORDER BY o.id LIMIT ?",
            (*params, limit),
        )
        return [_outbox(row) for row in rows]

    async def claim_outbox(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Claim unsent rows for ``claimer`` until its lease ends and return them, oldest
        first (only ``channel_id``'s when given): rows of games in guilds its shards own, not
        held by another claimer's lease that has not ended, in channels where no earlier
        unsent row is held so. Rows it holds already are claimed again (the lease renewed)."""
        now = self._now()
        stamp, until = _to_text(now), _to_text(now + claimer.lease)
        shards = ", ".join("?" for _ in claimer.shard_ids)
        held = "(o2.claimed_by <> ? AND o2.lease_until > ?)"
        where = [
            "o.sent_at IS NULL",
            f"(g.guild_id >> 22) % ? IN ({shards})",
            f"NOT EXISTS (SELECT 1 FROM outbox o2 WHERE o2.channel_id = o.channel_id"
            f" AND o2.sent_at IS NULL AND o2.id <= o.id AND {held})",
        ]
        params: list[object] = [claimer.shard_count, *claimer.shard_ids, claimer.name, stamp]
        if channel_id is not None:
            where.append("o.channel_id = ?")
            params.append(channel_id)
        params.append(limit)
        async with self.transaction() as db:
            ids = [
                row[0]
                for row in await db.execute_fetchall(
                    "SELECT o.id FROM outbox o JOIN games g ON g.id = o.game_id"
                    f" WHERE {' AND '.join(where)} ORDER BY o.id LIMIT ?",
                    params,
                )
            ]
            if not ids:
                return []
            marks = ", ".join("?" for _ in ids)
            await db.execute(
                f"UPDATE outbox SET claimed_by = ?, lease_until = ? WHERE id IN ({marks})",
                [claimer.name, until, *ids],
            )
            rows = await db.execute_fetchall(
                f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE o.id IN ({marks})"
                " ORDER BY o.id",
                ids,
            )
        return [_outbox(row) for row in rows]

    async def claim_game(self, game_id: int, claimer: Claimer) -> bool:
        """Claim a game's background work (reminders, votes, pings, computer turns) for
        ``claimer`` until its lease ends; ``False`` when its shards do not own the game's guild
        or another claimer's lease holds it. Claiming again renews the lease."""
        return game_id in await self.claim_games((game_id,), claimer)

    async def claim_games(self, game_ids: Collection[int], claimer: Claimer) -> set[int]:
        """:meth:`claim_game` for several games in one statement; returns the ids claimed."""
        if not game_ids:
            return set()
        now = self._now()
        shards = ", ".join("?" for _ in claimer.shard_ids)
        games = ", ".join("?" for _ in game_ids)
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET claimed_by = ?, lease_until = ?"
                f" WHERE id IN ({games}) AND (guild_id >> 22) % ? IN ({shards})"
                " AND (claimed_by IS NULL OR claimed_by = ? OR lease_until <= ?)"
                " RETURNING id",
                [
                    claimer.name,
                    _to_text(now + claimer.lease),
                    *game_ids,
                    claimer.shard_count,
                    *claimer.shard_ids,
                    claimer.name,
                    _to_text(now),
                ],
            )
            return {row[0] for row in await cursor.fetchall()}

    async def release_claims(self) -> int:
        """Drop every claim (rows and games) at once; returns how many rows were held. Only
        for a process that knows it is the only one on the database (an SQLite file it has
        locked), so that claims of a process that died are not waited out."""
        released = 0
        async with self.transaction() as db:
            for table in ("outbox", "games"):
                cursor = await db.execute(
                    f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL"
                    " WHERE claimed_by IS NOT NULL"
                )
                released += cursor.rowcount
        return released

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        """One outbox row, sent or not."""
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE o.id = ?", (outbox_id,)
        )
        return _outbox(rows[0]) if rows else None

    async def mark_sent(self, outbox_id: int, message_id: int) -> None:
        """Record that a row was posted as ``message_id`` and drop its snapshot.

        Idempotent: marking again keeps the first time and message id.
        """
        stamp = self._stamp()
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE outbox SET sent_at = COALESCE(sent_at, ?),"
                " message_id = COALESCE(message_id, ?) WHERE id = ?",
                (stamp, message_id, outbox_id),
            )
            if cursor.rowcount == 0:
                raise NotFound("outbox message", outbox_id)
            await db.execute("DELETE FROM outbox_snapshots WHERE outbox_id = ?", (outbox_id,))

    async def mark_failed(self, outbox_id: int, error: str) -> None:
        """Count a failed attempt to post a row and keep the error; ignored once it is sent."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?"
                " WHERE id = ? AND sent_at IS NULL",
                (error[:_MAX_ERROR_CHARS], outbox_id),
            )
            if cursor.rowcount == 0:
                exists = await _fetchone(db, "SELECT 1 FROM outbox WHERE id = ?", (outbox_id,))
                if exists is None:
                    raise NotFound("outbox message", outbox_id)

    # --- reminders ----------------------------------------------------------------------------

    async def due_reminders(self, now: datetime) -> list[GameRow]:
        """Games being played, with reminders on, whose next reminder is at or before ``now``."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = {_ACTIVE}"
            " AND g.reminder_hours > 0"
            " AND g.next_reminder_at IS NOT NULL AND g.next_reminder_at <= ?"
            " ORDER BY g.next_reminder_at, g.id",
            (_to_text(now),),
        )
        return [_game(row) for row in rows]

    async def record_reminders(self, notes: Sequence[ReminderNote]) -> dict[int, CommitResult]:
        """Count one more reminder for each note's turn, schedule the next and queue its
        message, all in one transaction (one write to disk for a whole pass); by game id. The
        revision stays as it is (bookkeeping). A game that a move changed since its note's
        revision (the row :meth:`due_reminders` gave), or that is no longer being played, is
        left out and left as it is."""
        results: dict[int, CommitResult] = {}
        if not notes:
            return results
        async with self.transaction() as db:
            for note in notes:
                try:
                    game = await _load_game(db, note.game_id)
                except NotFound:
                    continue
                if game.revision != note.expected_revision or game.status is not GameStatus.ACTIVE:
                    continue
                await db.execute(
                    "UPDATE games SET reminders_sent = reminders_sent + 1, next_reminder_at = ?"
                    " WHERE id = ?",
                    (_optional_text(note.next_reminder_at), game.id),
                )
                ids = await self._insert_outbox(db, game, note.outbox_messages)
                results[game.id] = CommitResult(revision=game.revision, outbox_ids=ids)
        return results

    # --- turn panels --------------------------------------------------------------------------

    async def get_panel(self, game_id: int, user_id: int) -> PanelRow | None:
        """The user's turn-panel draft in a game, if any."""
        rows = await self._read(
            f"SELECT {_PANEL_COLUMNS} FROM panels WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return _panel(rows[0]) if rows else None

    async def save_panel(
        self,
        game_id: int,
        user_id: int,
        *,
        turn: int,
        revision: int,
        draft: str,
        expected_version: int | None,
    ) -> PanelRow:
        """Store the user's panel draft at the next version (bookkeeping: the game's revision
        stays). With ``expected_version``, only over that version: a press that lost a race
        with another raises :class:`StalePanel` and writes nothing. With ``None``, over
        whatever is there (opening a panel, closing a played one)."""
        stamp = self._stamp()
        async with self.transaction() as db:
            found = await _fetchone(
                db,
                "SELECT version FROM panels WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            current = None if found is None else int(found["version"])
            if expected_version is not None and current != expected_version:
                raise StalePanel(game_id, user_id, expected_version)
            version = 1 if current is None else current + 1
            await db.execute(
                "INSERT INTO panels (game_id, user_id, turn, revision, version, draft, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " turn = excluded.turn, revision = excluded.revision,"
                " version = excluded.version, draft = excluded.draft,"
                " updated_at = excluded.updated_at",
                (game_id, user_id, turn, revision, version, draft, stamp),
            )
            row = await _fetchone(
                db,
                f"SELECT {_PANEL_COLUMNS} FROM panels WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            if row is None:
                raise RuntimeError("the panel row was just written")
            return _panel(row)

    async def latest_message(self, game_id: int) -> int | None:
        """The Discord id of the game's latest posted turn message (start, turn or wipe)."""
        rows = await self._read(
            "SELECT message_id FROM outbox WHERE game_id = ? AND message_id IS NOT NULL"
            " AND kind IN ('start', 'turn', 'wipe')"
            " ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        return int(rows[0][0]) if rows else None

    # --- absence: deadlines, votes to skip, time away, quiet hours ----------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        """Change how many hours a turn may take before the others may vote to skip it; 0
        turns deadlines off. Bookkeeping: no revision bump. Raises :class:`GameClosed`."""
        if deadline_hours < 0:
            raise ValueError(f"deadline hours must be 0 or more: {deadline_hours}")
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(
                "UPDATE games SET deadline_hours = ? WHERE id = ?", (deadline_hours, game_id)
            )
            return await _load_game(db, game_id)

    async def deadline_games(self) -> list[GameRow]:
        """Games being played that have a deadline, oldest first."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = {_ACTIVE}"
            " AND g.deadline_hours > 0 ORDER BY g.id",
            (),
        )
        return [_game(row) for row in rows]

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        """The vote to skip that turn of the game, with its votes, if one was opened."""
        polls = await self._polls("p.game_id = ? AND p.turn = ?", (game_id, turn))
        return polls[0] if polls else None

    async def open_skip_polls(self) -> list[SkipPoll]:
        """The votes of games being played, by game and turn; a vote whose turn is over is
        among them (the store does not read turns): the caller compares them."""
        return await self._polls(
            f"p.game_id IN (SELECT id FROM games WHERE status = {_ACTIVE})", ()
        )

    async def open_skip_poll(
        self,
        game_id: int,
        expected_revision: int,
        *,
        turn: int,
        user_id: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Open the vote to skip ``turn`` of a game and queue its message, in one transaction.

        Once per turn: when the vote is open already nothing is written and no outbox id is
        returned. ``expected_revision`` is that of the game the turn was read from: a move
        since raises :class:`RevisionConflict`. Bookkeeping: no revision bump.
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            cursor = await db.execute(
                "INSERT OR IGNORE INTO skip_polls (game_id, turn, user_id, created_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, turn, user_id, self._stamp()),
            )
            if cursor.rowcount == 0:
                return CommitResult(revision=game.revision, outbox_ids=())
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    async def add_skip_vote(self, game_id: int, turn: int, voter_id: int) -> bool:
        """Count ``voter_id``'s vote to skip ``turn``; ``False`` if they had voted already.
        Raises :class:`NotFound` when no such vote was opened."""
        async with self.transaction() as db:
            poll = await _fetchone(
                db, "SELECT 1 FROM skip_polls WHERE game_id = ? AND turn = ?", (game_id, turn)
            )
            if poll is None:
                raise NotFound("vote to skip", turn)
            cursor = await db.execute(
                "INSERT OR IGNORE INTO skip_votes (game_id, turn, voter_id, created_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, turn, voter_id, self._stamp()),
            )
            return cursor.rowcount == 1

    async def set_computer(
        self,
        game_id: int,
        expected_revision: int,
        *,
        seat: int,
        computer: str,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Hand ``seat`` to the computer player ``computer`` for good and queue the news.

        A change to the game: the revision goes up. Raises :class:`RevisionConflict`,
        :class:`NotActive` or :class:`NotFound` (no such seat).
        """
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            cursor = await db.execute(
                "UPDATE seats SET computer = ? WHERE game_id = ? AND seat = ?",
                (computer, game_id, seat),
            )
            if cursor.rowcount == 0:
                raise NotFound("seat", seat)
            revision = await self._bump(db, game)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def computer_games(self) -> list[GameRow]:
        """Games being played with a seat handed to the computer, oldest first."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = {_ACTIVE} AND EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.computer IS NOT NULL)"
            " ORDER BY g.id",
            (),
        )
        return [_game(row) for row in rows]

    async def due_pings(self, now: datetime) -> list[GameRow]:
        """Games being played whose ping owed after quiet hours is due at ``now``."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = {_ACTIVE}"
            " AND g.ping_due_at IS NOT NULL AND g.ping_due_at <= ? ORDER BY g.ping_due_at, g.id",
            (_to_text(now),),
        )
        return [_game(row) for row in rows]

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
        async with self.transaction() as db:
            game = await _load_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            await db.execute(
                "UPDATE games SET ping_due_at = ?, next_reminder_at = ? WHERE id = ?",
                (_optional_text(ping_due_at), _optional_text(next_reminder_at), game_id),
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    async def person(self, user_id: int) -> Person:
        """A user's quiet hours and every period of their time away, oldest first."""
        self._refuse_reentry()
        async with self._lock:
            return await _load_person(self._open_connection(), user_id)

    async def set_quiet(
        self, user_id: int, *, start: int | None, end: int | None, zone: str | None
    ) -> Person:
        """Set a user's quiet hours (hours 0-23, an IANA zone name the caller checked), or
        clear them with three ``None``."""
        if (start is None) != (end is None) or (start is None) != (zone is None):
            raise ValueError("quiet hours need a start, an end and a zone, or none of them")
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO people (user_id, quiet_from, quiet_to, quiet_zone, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,"
                " quiet_zone = excluded.quiet_zone, updated_at = excluded.updated_at",
                (user_id, start, end, zone, self._stamp()),
            )
            return await _load_person(db, user_id)

    async def set_away(
        self, user_id: int, *, starts_at: datetime, ends_at: datetime, note: str | None
    ) -> Person:
        """Start time away at ``starts_at`` until ``ends_at``; when the user is away already
        at ``starts_at``, that period gets the new end and note instead."""
        if ends_at <= starts_at:
            raise ValueError(f"time away must end after it starts: {starts_at} >= {ends_at}")
        start = _to_text(starts_at)
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE away_periods SET ends_at = ?, note = ? WHERE id = (SELECT id FROM"
                " away_periods WHERE user_id = ? AND starts_at <= ? AND ends_at > ?"
                " ORDER BY ends_at DESC LIMIT 1)",
                (_to_text(ends_at), note, user_id, start, start),
            )
            if cursor.rowcount == 0:
                await db.execute(
                    "INSERT INTO away_periods (user_id, starts_at, ends_at, note)"
                    " VALUES (?, ?, ?, ?)",
                    (user_id, start, _to_text(ends_at), note),
                )
            return await _load_person(db, user_id)

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        """End the user's time away at ``now`` (every period still going on or ahead);
        ``False`` if there was none."""
        stamp = _to_text(now)
        async with self.transaction() as db:
            await db.execute(
                "DELETE FROM away_periods WHERE user_id = ? AND starts_at >= ?", (user_id, stamp)
            )
            cursor = await db.execute(
                "UPDATE away_periods SET ends_at = ? WHERE user_id = ? AND ends_at > ?",
                (stamp, user_id, stamp),
            )
            return cursor.rowcount > 0

    async def _polls(self, where: str, parameters: Sequence[object]) -> list[SkipPoll]:
        rows = await self._read(
            "SELECT p.game_id, p.turn, p.user_id, p.created_at, v.voter_id FROM skip_polls p"
            " LEFT JOIN skip_votes v ON v.game_id = p.game_id AND v.turn = p.turn"
            f" WHERE {where} ORDER BY p.game_id, p.turn, v.created_at",
            parameters,
        )
        polls: dict[tuple[int, int], SkipPoll] = {}
        for row in rows:
            key = (int(row["game_id"]), int(row["turn"]))
            poll = polls.get(key) or SkipPoll(
                game_id=key[0],
                turn=key[1],
                user_id=row["user_id"],
                created_at=_from_text(row["created_at"]),
                votes=frozenset(),
            )
            if row["voter_id"] is not None:
                poll = dataclasses.replace(poll, votes=poll.votes | {int(row["voter_id"])})
            polls[key] = poll
        return list(polls.values())

    # --- internals ----------------------------------------------------------------------------

    async def _configure(self) -> None:
        connection = self._open_connection()
        connection.row_factory = sqlite3.Row
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        # Pages freed by sent messages' snapshots go back to the file system with
        # :meth:`reclaim_space`. Only a file without tables takes this setting directly; an
        # older one is converted once after its migrations (see _migrate).
        await connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        rows = list(await connection.execute_fetchall("PRAGMA journal_mode = WAL"))
        mode = str(rows[0][0]).lower()
        if mode != "wal":
            raise StoreError(f"cannot use write-ahead logging on this database: {mode}")
        # FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on a power cut or OS
        # crash, and a move or message we acknowledged must not vanish. FULL costs one fsync
        # per commit, nothing at the rate of a turn-based game.
        await connection.execute("PRAGMA synchronous = FULL")
        await connection.execute("PRAGMA foreign_keys = ON")

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        known = len(migrations)
        current = await self.schema_version()
        if current > known:
            raise DatabaseTooNew(current, known)
        for migration in migrations[current:]:
            async with self.transaction() as db:
                # Read again under the write lock: another process may have migrated meanwhile.
                version = await _user_version(db)
                if version > known:
                    raise DatabaseTooNew(version, known)
                if version >= migration.version:
                    continue
                for statement in migration.statements:
                    await db.execute(statement)
                # PRAGMA takes no parameters; the value is an int from our own list.
                await db.execute(f"PRAGMA user_version = {migration.version:d}")
            log.info("applied migration %04d %s", migration.version, migration.name)
        await self._convert_to_incremental_vacuum()

    async def _convert_to_incremental_vacuum(self) -> None:
        """Turn on incremental auto-vacuum in a file created before it was asked for: one
        VACUUM rewrites the file compactly with the setting. A failure (another connection
        busy) only leaves the file as it was; the next start tries again."""
        rows = await self._read("PRAGMA auto_vacuum", ())
        if int(rows[0][0]) == _INCREMENTAL:
            return
        log.info("rewriting the database once to turn on incremental auto-vacuum")
        try:
            async with self._lock:
                await self._open_connection().execute("VACUUM")
        except sqlite3.OperationalError:
            log.warning("could not vacuum the database; trying again next start", exc_info=True)

    def _open_connection(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise StoreError("store is closed")
        return self._connection

    def _refuse_reentry(self) -> None:
        task = asyncio.current_task()
        if task is not None and task is self._transaction_task:
            raise RuntimeError("store used inside its own transaction: this would deadlock")

    def _stamp(self) -> str:
        return _to_text(self._now())

    async def _read(self, sql: str, parameters: Sequence[object]) -> list[sqlite3.Row]:
        self._refuse_reentry()
        async with self._lock:
            return list(await self._open_connection().execute_fetchall(sql, parameters))

    async def _bump(
        self,
        db: aiosqlite.Connection,
        game: GameRow,
        *,
        status: GameStatus | None = None,
        state: str | None = None,
        turn_started_at: datetime | None = None,
        next_reminder_at: datetime | _Keep | None = _KEEP,
        reminders_sent: int | None = None,
        ping_due_at: datetime | _Keep | None = _KEEP,
    ) -> int:
        """Write the changed fields of ``game``, bump its revision and return the new one."""
        changes: dict[str, object] = {
            "revision": game.revision + 1,
            "updated_at": self._stamp(),
        }
        if status is not None:
            changes["status"] = status
        if state is not None:
            changes["state"] = state
        if turn_started_at is not None:
            changes["turn_started_at"] = _to_text(turn_started_at)
        if not isinstance(next_reminder_at, _Keep):
            changes["next_reminder_at"] = _optional_text(next_reminder_at)
        if reminders_sent is not None:
            changes["reminders_sent"] = reminders_sent
        if not isinstance(ping_due_at, _Keep):
            changes["ping_due_at"] = _optional_text(ping_due_at)
        # Column names come from the fixed keys above, never from input.
        assignments = ", ".join(f"{column} = ?" for column in changes)
        cursor = await db.execute(
            f"UPDATE games SET {assignments} WHERE id = ? AND revision = ?",
            (*changes.values(), game.id, game.revision),
        )
        if cursor.rowcount != 1:
            raise RevisionConflict(game.id, game.revision, await _revision(db, game.id))
        return game.revision + 1

    async def _insert_outbox(
        self, db: aiosqlite.Connection, game: GameRow, messages: Sequence[OutboxMessage]
    ) -> tuple[int, ...]:
        stamp = self._stamp()
        ids: list[int] = []
        for message in messages:
            channel_id = game.channel_id if message.channel_id is None else message.channel_id
            cursor = await db.execute(
                "INSERT INTO outbox (game_id, channel_id, kind, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game.id, channel_id, message.kind, message.payload, stamp),
            )
            outbox_id = _rowid(cursor)
            if message.snapshot is not None:
                await db.execute(
                    "INSERT INTO outbox_snapshots (outbox_id, snapshot) VALUES (?, ?)",
                    (outbox_id, message.snapshot),
                )
            ids.append(outbox_id)
        return tuple(ids)


# --- helpers on an open transaction -----------------------------------------------------------


async def _reclaim(db: aiosqlite.Connection) -> int:
    row = await _fetchone(db, "PRAGMA freelist_count", ())
    free = 0 if row is None else int(row[0])
    if free:
        # executescript steps the pragma to its end; execute() would free a single page.
        # Outside any transaction it is one atomic statement of its own.
        await db.executescript("PRAGMA incremental_vacuum;")
    return free


async def _rollback(db: aiosqlite.Connection) -> None:
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError:
        # Some errors (SQLITE_FULL, an interrupted COMMIT that went through) end the
        # transaction by themselves; only a transaction still open is a real failure.
        if db.in_transaction:
            raise


async def _fetchone(
    db: aiosqlite.Connection, sql: str, parameters: Sequence[object]
) -> sqlite3.Row | None:
    rows = list(await db.execute_fetchall(sql, parameters))
    return rows[0] if rows else None


def _rowid(cursor: aiosqlite.Cursor) -> int:
    if cursor.lastrowid is None:
        raise StoreError("insert returned no row id")
    return cursor.lastrowid


async def _user_version(db: aiosqlite.Connection) -> int:
    row = await _fetchone(db, "PRAGMA user_version", ())
    return 0 if row is None else int(row[0])


async def _load_game(db: aiosqlite.Connection, game_id: int) -> GameRow:
    row = await _fetchone(db, f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,))
    if row is None:
        raise NotFound("game", game_id)
    return _game(row)


async def _revision(db: aiosqlite.Connection, game_id: int) -> int:
    row = await _fetchone(db, "SELECT revision FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise NotFound("game", game_id)
    return int(row["revision"])


def _check_revision(game: GameRow, expected: int) -> None:
    if game.revision != expected:
        raise RevisionConflict(game.id, expected, game.revision)


async def _load_seats(db: aiosqlite.Connection, game_id: int) -> list[Seat]:
    rows = await db.execute_fetchall(
        f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat", (game_id,)
    )
    return [_seat(row) for row in rows]


async def _insert_seats(db: aiosqlite.Connection, seats: Iterable[Seat]) -> None:
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
        [(seat.game_id, seat.seat, seat.user_id, seat.name, seat.computer) for seat in seats],
    )


async def _reseat(db: aiosqlite.Connection, game_id: int, players: Sequence[Seat]) -> None:
    """Replace the game's seats with ``players`` numbered 0, 1, ... in the order given."""
    # Delete and insert rather than renumber in place: an in-place UPDATE could collide with
    # the (game_id, seat) key halfway through.
    await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await _insert_seats(
        db,
        [
            Seat(
                game_id=game_id,
                seat=index,
                user_id=player.user_id,
                name=player.name,
                computer=player.computer,
            )
            for index, player in enumerate(players)
        ],
    )


async def _load_person(db: aiosqlite.Connection, user_id: int) -> Person:
    row = await _fetchone(
        db, "SELECT quiet_from, quiet_to, quiet_zone FROM people WHERE user_id = ?", (user_id,)
    )
    periods = await db.execute_fetchall(
        "SELECT user_id, starts_at, ends_at, note FROM away_periods WHERE user_id = ?"
        " ORDER BY starts_at, id",
        (user_id,),
    )
    away = tuple(
        AwayRow(
            user_id=p["user_id"],
            starts_at=_from_text(p["starts_at"]),
            ends_at=_from_text(p["ends_at"]),
            note=p["note"],
        )
        for p in periods
    )
    if row is None:
        return Person(user_id=user_id, away=away)
    return Person(
        user_id=user_id,
        quiet_from=row["quiet_from"],
        quiet_to=row["quiet_to"],
        quiet_zone=row["quiet_zone"],
        away=away,
    )


# --- rows to values ---------------------------------------------------------------------------


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=GameStatus(row["status"]),
        host_id=row["host_id"],
        cards=row["cards"],
        created_at=_from_text(row["created_at"]),
        updated_at=_from_text(row["updated_at"]),
        revision=row["revision"],
        state=row["state"],
        reminder_hours=row["reminder_hours"],
        turn_started_at=_optional_time(row["turn_started_at"]),
        next_reminder_at=_optional_time(row["next_reminder_at"]),
        reminders_sent=row["reminders_sent"],
        lobby_message_id=row["lobby_message_id"],
        deadline_hours=row["deadline_hours"],
        ping_due_at=_optional_time(row["ping_due_at"]),
    )


def _seat(row: sqlite3.Row) -> Seat:
    return Seat(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        computer=row["computer"],
    )


def _move(row: sqlite3.Row) -> MoveRow:
    return MoveRow(
        game_id=row["game_id"],
        seq=row["seq"],
        user_id=row["user_id"],
        action=row["action"],
        created_at=_from_text(row["created_at"]),
        played_for=row["played_for"],
    )


def _panel(row: sqlite3.Row) -> PanelRow:
    return PanelRow(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        turn=int(row["turn"]),
        revision=int(row["revision"]),
        version=int(row["version"]),
        draft=str(row["draft"]),
        updated_at=_from_text(row["updated_at"]),
    )


def _outbox(row: sqlite3.Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        game_id=row["game_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        payload=row["payload"],
        snapshot=row["snapshot"],
        created_at=_from_text(row["created_at"]),
        attempts=row["attempts"],
        last_error=row["last_error"],
        sent_at=_optional_time(row["sent_at"]),
        message_id=row["message_id"],
    )


def _to_text(moment: datetime) -> str:
    if moment.utcoffset() is None:
        raise ValueError(f"naive datetime, need an aware one: {moment.isoformat()}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _optional_text(moment: datetime | None) -> str | None:
    return None if moment is None else _to_text(moment)


def _from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _optional_time(text: str | None) -> datetime | None:
    return None if text is None else _from_text(text)
