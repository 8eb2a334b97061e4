"""The :class:`~bot.store.Store` on a PostgreSQL database, through a pool of asyncpg
connections: one transaction per write, numbered migrations tracked in the ``schema_version``
table, and a revision checked on every write.

Several bot processes may share the database. Where the SQLite store relies on SQLite taking
one write at a time, this one takes row locks instead: a write locks its game's row
(``SELECT ... FOR UPDATE``) before reading what it checks, so two writes to one game run one
after the other, while writes to different games run side by side. Writes that are about a
person rather than a game take a transaction-scoped advisory lock on that person.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Self

import asyncpg

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

_CLAIM_LOCK = 0x43415343
"""The advisory lock key that makes claims of outbox rows one process at a time."""

_NAME_BYTES = 63
"""The longest ``application_name`` PostgreSQL keeps whole: a claimer's name fits in it."""

_ALIVE = "SELECT application_name FROM pg_stat_activity WHERE application_name IS NOT NULL"
"""The names of the connections open now: a claim of any other name is void."""

POOL_SIZE = 10
"""The most connections one process keeps open to the database."""

_MAX_ERROR_CHARS = 2_000
_MIGRATION_LOCK = 0x636173636164  # "cascad": the advisory lock held while migrating

# asyncpg ships no type information: its connections and rows are ``Any`` here.
Connection = Any
Record = Any

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

_in_transaction: contextvars.ContextVar[PostgresStore | None] = contextvars.ContextVar(
    "cascadia_postgres_transaction", default=None
)


class _Keep:
    """Marks an optional column that a write leaves as it is."""


_KEEP = _Keep()


class PostgresStore:
    """The :class:`Store` on a PostgreSQL database, through a pool of asyncpg connections."""

    def __init__(self, pool: asyncpg.Pool, url: str, *, now: Clock = utc_now) -> None:
        """Wrap a pool on ``url`` whose database :meth:`connect` has migrated; use that
        instead."""
        self._pool: asyncpg.Pool | None = pool
        self._now = now
        self._url = url
        self._presence: dict[str, asyncpg.Connection] = {}
        self._presence_lock = asyncio.Lock()

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = POOL_SIZE,
    ) -> Self:
        """Connect to the database at ``url`` and bring its schema up to date.

        ``migrations`` replaces the shipped ones (for tests of the runner). Raises
        :class:`DatabaseTooNew` if the database's schema is newer than the code.
        """
        if migrations is None:
            migrations = load_migrations("postgres")
        check_numbering(migrations)
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            server_settings={"application_name": "cascadia-bot"},
        )
        store = cls(pool, url, now=now)
        try:
            await store._migrate(migrations)
        except BaseException:
            await store.close()
            raise
        return store

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        url: str,
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
    ) -> AsyncIterator[Self]:
        """:meth:`connect` as an ``async with`` block that closes the store at its end."""
        store = await cls.connect(url, now=now, migrations=migrations)
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Wait for the operations in progress, then close every connection. Idempotent."""
        pool, self._pool = self._pool, None
        presence, self._presence = self._presence, {}
        for connection in presence.values():
            await connection.close()
        if pool is not None:
            await pool.close()

    async def _be_present(self, claimer: Claimer) -> None:
        """Hold a connection named after ``claimer`` for as long as this store is open.

        A claim binds other processes only while its claimer is alive: PostgreSQL lists the
        connection (``pg_stat_activity.application_name``) until the process that opened it
        ends, however it ends; so a bot killed and started again takes over the claims of
        its dead self at once instead of waiting out their lease. A claimer whose connection
        was lost (the network, the server's restart) gets a new one at its next claim.
        """
        if len(claimer.name.encode()) > _NAME_BYTES or not claimer.name.isascii():
            raise ValueError(f"a claimer's name is ASCII of at most {_NAME_BYTES} bytes")
        async with self._presence_lock:
            connection = self._presence.get(claimer.name)
            if connection is not None and not connection.is_closed():
                return
            self._presence[claimer.name] = await asyncpg.connect(
                self._url, server_settings={"application_name": claimer.name}
            )

    async def reclaim_space(self) -> int:
        """Nothing to do: PostgreSQL's autovacuum reuses the space of deleted rows (mostly sent
        messages' snapshots). Returns 0, the pages given back here."""
        self._open_pool()
        return 0

    async def schema_version(self) -> int:
        """The number of the last migration applied to the database."""
        async with self._open_pool().acquire() as db:
            return await _schema_version(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """Run the block in one transaction on a connection of the pool: COMMIT at its end,
        ROLLBACK on an error. Not reentrant: do not call store methods inside (they would
        wait for the locks the block holds)."""
        self._refuse_reentry()
        async with self._open_pool().acquire() as connection, connection.transaction():
            token = _in_transaction.set(self)
            try:
                yield connection
            finally:
                _in_transaction.reset(token)

    # --- lobby --------------------------------------------------------------------------------

    async def create_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, cards: str
    ) -> GameRow:
        """Open a lobby in a channel with the host in seat 0; :class:`ChannelBusy` if taken."""
        stamp = self._stamp()
        async with self.transaction() as db:
            # The partial unique index decides between two processes opening a lobby at once.
            game_id = await db.fetchval(
                "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
                " updated_at, revision) VALUES ($1, $2, $3, $4, $5, $6, $6, 1)"
                " ON CONFLICT (channel_id) WHERE status IN ('lobby', 'active') DO NOTHING"
                " RETURNING id",
                guild_id,
                channel_id,
                GameStatus.LOBBY.value,
                host_id,
                cards,
                stamp,
            )
            if game_id is None:
                busy = await db.fetchval(
                    "SELECT id FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
                    channel_id,
                )
                raise ChannelBusy(channel_id, int(busy))
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES ($1, 0, $2, $3)",
                game_id,
                host_id,
                host_name,
            )
            return await _load_game(db, int(game_id))

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
            game = await _lock_game(db, game_id)
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

        The seats behind close up; the host leaving ends the lobby. Raises :class:`NotInLobby`
        or :class:`NotSeated`.
        """
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
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
            status = await db.execute(
                "UPDATE games SET lobby_message_id = $1 WHERE id = $2", message_id, game_id
            )
            if _count(status) == 0:
                raise NotFound("game", game_id)

    async def pass_host(self, game_id: int, *, old_host: int, new_host: int) -> bool:
        """Make ``new_host`` the host in place of ``old_host`` (bookkeeping: no revision
        bump); ``False`` if ``old_host`` was not the host any more."""
        async with self.transaction() as db:
            status = await db.execute(
                "UPDATE games SET host_id = $1 WHERE id = $2 AND host_id = $3",
                new_host,
                game_id,
                old_host,
            )
            return _count(status) == 1

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
        :class:`RevisionConflict`, :class:`NotInLobby`, or ``ValueError`` if ``seat_order`` is
        not exactly the seated users.
        """
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
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

        As :meth:`SqliteStore.commit_move <bot.store.SqliteStore.commit_move>`: raises
        :class:`RevisionConflict` (changing nothing) or :class:`NotActive`.
        """
        if new_status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
            raise ValueError(f"a move cannot leave a game {new_status}")
        stamp = self._stamp()
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
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
            # The game's row lock makes this the only move being numbered for the game.
            await db.execute(
                "INSERT INTO moves (game_id, seq, user_id, action, created_at, played_for)"
                " SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM moves"
                " WHERE game_id = $1",
                game_id,
                user_id,
                action_text,
                stamp,
                played_for,
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def end_game(
        self, game_id: int, *, outbox_messages: Sequence[OutboxMessage] = ()
    ) -> CommitResult:
        """Stop a lobby or a game in play early: status ``ended``, no more reminders.

        Takes no expected revision: ending wins over anything in flight. Raises
        :class:`GameClosed` if the game is already finished or ended.
        """
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            revision = await self._bump(
                db, game, status=GameStatus.ENDED, next_reminder_at=None, ping_due_at=None
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel was deleted: its open game ends (status ``ended``, no more reminders)
        and every message still to post there is dropped. Returns the ids of the games
        ended."""
        async with self.transaction() as db:
            rows = await db.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = $1"
                " AND g.status IN ('lobby', 'active') FOR UPDATE",
                channel_id,
            )
            games = [_game(row) for row in rows]
            for game in games:
                await self._bump(
                    db, game, status=GameStatus.ENDED, next_reminder_at=None, ping_due_at=None
                )
            await db.execute(
                "DELETE FROM outbox_snapshots WHERE outbox_id IN"
                " (SELECT id FROM outbox WHERE channel_id = $1 AND sent_at IS NULL)",
                channel_id,
            )
            await db.execute(
                "DELETE FROM outbox WHERE channel_id = $1 AND sent_at IS NULL", channel_id
            )
            return [game.id for game in games]

    async def set_reminder_hours(
        self, game_id: int, reminder_hours: int, *, next_reminder_at: datetime | None
    ) -> GameRow:
        """Change the reminder interval and the time of the next reminder; 0 turns them off.
        Bookkeeping: no revision bump. Raises :class:`GameClosed`."""
        if reminder_hours < 0:
            raise ValueError(f"reminder hours must be 0 or more: {reminder_hours}")
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(
                "UPDATE games SET reminder_hours = $1, next_reminder_at = $2 WHERE id = $3",
                reminder_hours,
                _optional_utc(next_reminder_at),
                game_id,
            )
            return await _load_game(db, game_id)

    # --- reads --------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, in any status."""
        row = await self._fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = $1", game_id)
        return None if row is None else _game(row)

    async def get_active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, if there is one."""
        row = await self._fetchrow(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = $1"
            " AND g.status IN ('lobby', 'active')",
            channel_id,
        )
        return None if row is None else _game(row)

    async def seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""
        rows = await self._fetch(
            f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat", game_id
        )
        return [_seat(row) for row in rows]

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[Seat]]:
        """The seats of several games at once, each game's in seat order (a game without
        seats, or unknown, is left out)."""
        rows = await self._fetch(
            f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = ANY($1::bigint[])"
            " ORDER BY s.game_id, s.seat",
            sorted(set(game_ids)),
        )
        found: dict[int, list[Seat]] = {}
        for row in rows:
            found.setdefault(int(row["game_id"]), []).append(_seat(row))
        return found

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's move log in order."""
        rows = await self._fetch(
            "SELECT game_id, seq, user_id, action, created_at, played_for FROM moves"
            " WHERE game_id = $1 ORDER BY seq",
            game_id,
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
        wanted = sorted(GameStatus(status).value for status in statuses)
        if not wanted:
            return []
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS}, {_SEAT_COLUMNS} FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = $1 AND g.status = ANY($2::text[])"
            " AND ($3::bigint IS NULL OR g.channel_id = $3)"
            " ORDER BY g.updated_at DESC, g.id DESC",
            user_id,
            wanted,
            channel_id,
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
            game = await _lock_game(db, game_id)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            status = await db.execute(
                "INSERT INTO hints (game_id, turn, user_id, moves, created_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                game_id,
                turn,
                user_id,
                "\n".join(moves),
                stamp,
            )
            if _count(status) != 1:
                raise HintTaken(game_id, turn)
            return HintRow(game_id, turn, user_id, tuple(moves), stamp)

    async def hints(self, game_id: int) -> list[HintRow]:
        """The game's hints in turn order."""
        rows = await self._fetch(
            "SELECT game_id, turn, user_id, moves, created_at FROM hints"
            " WHERE game_id = $1 ORDER BY turn",
            game_id,
        )
        return [
            HintRow(
                row["game_id"],
                row["turn"],
                row["user_id"],
                tuple(row["moves"].split("\n")),
                row["created_at"],
            )
            for row in rows
        ]

    # --- outbox -------------------------------------------------------------------------------

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Unsent outbox rows, oldest first; with ``max_attempts``, only rows tried fewer times;
        with ``channel_id``, only that channel's."""
        where = ["o.sent_at IS NULL"]
        params: list[int] = []
        if max_attempts is not None:
            params.append(max_attempts)
            where.append(f"o.attempts < ${len(params)}")
        if channel_id is not None:
            params.append(channel_id)
            where.append(f"o.channel_id = ${len(params)}")
        params.append(limit)
        rows = await self._fetch(
            f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE {' AND '.join(where)}"
            f" ORDER BY o.id LIMIT ${len(params)}",
            *params,
        )
        return [_outbox(row) for row in rows]

    async def claim_outbox(
        self, claimer: Claimer, limit: int = 50, *, channel_id: int | None = None
    ) -> list[OutboxRow]:
        """Claim unsent rows for ``claimer`` until its lease ends and return them, oldest
        first (only ``channel_id``'s when given): rows of games in guilds its shards own, not
        held by another claimer's lease that has not ended, in channels where no earlier
        unsent row is held so. Rows it holds already are claimed again (the lease renewed).

        Claims are taken one process at a time (a transaction advisory lock): with rows
        merely skipped while another process claims them (``SKIP LOCKED``), a process could
        take a channel's later row while another takes its earlier one."""
        now = self._stamp()
        params: list[object] = [
            claimer.shard_count,
            list(claimer.shard_ids),
            claimer.name,
            now,
            now + claimer.lease,
        ]
        only = ""
        if channel_id is not None:
            params.append(channel_id)
            only = f" AND o.channel_id = ${len(params)}"
        params.append(limit)
        await self._be_present(claimer)
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", _CLAIM_LOCK)
            claimed = await db.fetch(
                "WITH picked AS ("
                " SELECT o.id FROM outbox o JOIN games g ON g.id = o.game_id"
                " WHERE o.sent_at IS NULL AND (g.guild_id >> 22) % $1 = ANY($2::bigint[])"
                " AND NOT EXISTS (SELECT 1 FROM outbox o2 WHERE o2.channel_id = o.channel_id"
                " AND o2.sent_at IS NULL AND o2.id <= o.id"
                " AND o2.claimed_by <> $3 AND o2.lease_until > $4"
                f" AND o2.claimed_by IN ({_ALIVE}))"
                f"{only} ORDER BY o.id LIMIT ${len(params)} FOR UPDATE OF o)"
                " UPDATE outbox SET claimed_by = $3, lease_until = $5 FROM picked"
                " WHERE outbox.id = picked.id RETURNING outbox.id",
                *params,
            )
            ids = sorted(row["id"] for row in claimed)
            rows = await db.fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE o.id = ANY($1::bigint[])"
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
        now = self._stamp()
        await self._be_present(claimer)
        async with self.transaction() as db:
            rows = await db.fetch(
                "UPDATE games SET claimed_by = $1, lease_until = $2"
                " WHERE id = ANY($3::bigint[]) AND (guild_id >> 22) % $4 = ANY($5::bigint[])"
                " AND (claimed_by IS NULL OR claimed_by = $1 OR lease_until <= $6"
                f" OR claimed_by NOT IN ({_ALIVE})) RETURNING id",
                claimer.name,
                now + claimer.lease,
                list(game_ids),
                claimer.shard_count,
                list(claimer.shard_ids),
                now,
            )
        return {row["id"] for row in rows}

    async def release_claims(self) -> int:
        """Drop every claim (rows and games) at once; returns how many rows were held. Only
        for a process that knows it is the only one on the database, so that claims of a
        process that died are not waited out."""
        released = 0
        async with self.transaction() as db:
            for table in ("outbox", "games"):
                status = await db.execute(
                    f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL"
                    " WHERE claimed_by IS NOT NULL"
                )
                released += _count(status)
        return released

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        """One outbox row, sent or not."""
        row = await self._fetchrow(
            f"SELECT {_OUTBOX_COLUMNS} FROM {_OUTBOX_TABLES} WHERE o.id = $1", outbox_id
        )
        return None if row is None else _outbox(row)

    async def mark_sent(self, outbox_id: int, message_id: int) -> None:
        """Record that a row was posted as ``message_id`` and drop its snapshot.

        Idempotent: marking again keeps the first time and message id.
        """
        stamp = self._stamp()
        async with self.transaction() as db:
            status = await db.execute(
                "UPDATE outbox SET sent_at = COALESCE(sent_at, $1),"
                " message_id = COALESCE(message_id, $2) WHERE id = $3",
                stamp,
                message_id,
                outbox_id,
            )
            if _count(status) == 0:
                raise NotFound("outbox message", outbox_id)
            await db.execute("DELETE FROM outbox_snapshots WHERE outbox_id = $1", outbox_id)

    async def mark_failed(self, outbox_id: int, error: str) -> None:
        """Count a failed attempt to post a row and keep the error; ignored once it is sent."""
        async with self.transaction() as db:
            status = await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = $1"
                " WHERE id = $2 AND sent_at IS NULL",
                error[:_MAX_ERROR_CHARS],
                outbox_id,
            )
            if _count(status) == 0:
                exists = await db.fetchval("SELECT 1 FROM outbox WHERE id = $1", outbox_id)
                if exists is None:
                    raise NotFound("outbox message", outbox_id)

    # --- reminders ----------------------------------------------------------------------------

    async def due_reminders(self, now: datetime) -> list[GameRow]:
        """Games being played, with reminders on, whose next reminder is at or before ``now``."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = 'active'"
            " AND g.reminder_hours > 0 AND g.next_reminder_at IS NOT NULL"
            " AND g.next_reminder_at <= $1 ORDER BY g.next_reminder_at, g.id",
            _utc(now),
        )
        return [_game(row) for row in rows]

    async def record_reminders(self, notes: Sequence[ReminderNote]) -> dict[int, CommitResult]:
        """Count one more reminder for each note's turn, schedule the next and queue its
        message, all in one transaction (one write to disk for a whole pass); by game id. The
        revision stays as it is (bookkeeping). A game that a move changed since its note's
        revision (the row :meth:`due_reminders` gave), or that is no longer being played, is
        left out and left as it is.

        The games' rows are locked in id order, so that two batches cannot deadlock."""
        results: dict[int, CommitResult] = {}
        if not notes:
            return results
        async with self.transaction() as db:
            rows = await db.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ANY($1::bigint[])"
                " ORDER BY g.id FOR UPDATE",
                [note.game_id for note in notes],
            )
            games = {game.id: game for game in map(_game, rows)}
            due = [
                (game, note)
                for note in notes
                if (game := games.get(note.game_id)) is not None
                and game.revision == note.expected_revision
                and game.status is GameStatus.ACTIVE
            ]
            await db.execute(
                "UPDATE games SET reminders_sent = reminders_sent + 1, next_reminder_at = n.at"
                " FROM unnest($1::bigint[], $2::timestamptz[]) AS n(id, at) WHERE games.id = n.id",
                [game.id for game, _ in due],
                [_optional_utc(note.next_reminder_at) for _, note in due],
            )
            for game, note in due:
                ids = await self._insert_outbox(db, game, note.outbox_messages)
                results[game.id] = CommitResult(revision=game.revision, outbox_ids=ids)
        return results

    # --- turn panels --------------------------------------------------------------------------

    async def get_panel(self, game_id: int, user_id: int) -> PanelRow | None:
        """The user's turn-panel draft in a game, if any."""
        row = await self._fetchrow(
            f"SELECT {_PANEL_COLUMNS} FROM panels WHERE game_id = $1 AND user_id = $2",
            game_id,
            user_id,
        )
        return None if row is None else _panel(row)

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
        whatever is there."""
        stamp = self._stamp()
        async with self.transaction() as db:
            # One statement each way, so that two presses cannot both build on one version.
            if expected_version is None:
                row = await db.fetchrow(
                    "INSERT INTO panels (game_id, user_id, turn, revision, version, draft,"
                    " updated_at) VALUES ($1, $2, $3, $4, 1, $5, $6)"
                    " ON CONFLICT (game_id, user_id) DO UPDATE SET turn = excluded.turn,"
                    " revision = excluded.revision, version = panels.version + 1,"
                    " draft = excluded.draft, updated_at = excluded.updated_at"
                    f" RETURNING {_PANEL_COLUMNS}",
                    game_id,
                    user_id,
                    turn,
                    revision,
                    draft,
                    stamp,
                )
                return _panel(row)
            row = await db.fetchrow(
                "UPDATE panels SET turn = $3, revision = $4, version = version + 1,"
                " draft = $5, updated_at = $6"
                " WHERE game_id = $1 AND user_id = $2 AND version = $7"
                f" RETURNING {_PANEL_COLUMNS}",
                game_id,
                user_id,
                turn,
                revision,
                draft,
                stamp,
                expected_version,
            )
            if row is None:
                raise StalePanel(game_id, user_id, expected_version)
            return _panel(row)

    async def latest_message(self, game_id: int) -> int | None:
        """The Discord id of the game's latest posted turn message (start, turn or wipe)."""
        message_id = await self._fetchval(
            "SELECT message_id FROM outbox WHERE game_id = $1 AND message_id IS NOT NULL"
            " AND kind IN ('start', 'turn', 'wipe') ORDER BY id DESC LIMIT 1",
            game_id,
        )
        return None if message_id is None else int(message_id)

    # --- absence: deadlines, votes to skip, time away, quiet hours ----------------------------

    async def set_deadline_hours(self, game_id: int, deadline_hours: int) -> GameRow:
        """Change how many hours a turn may take before the others may vote to skip it; 0
        turns deadlines off. Bookkeeping: no revision bump. Raises :class:`GameClosed`."""
        if deadline_hours < 0:
            raise ValueError(f"deadline hours must be 0 or more: {deadline_hours}")
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(
                "UPDATE games SET deadline_hours = $1 WHERE id = $2", deadline_hours, game_id
            )
            return await _load_game(db, game_id)

    async def deadline_games(self) -> list[GameRow]:
        """Games being played that have a deadline, oldest first."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = 'active'"
            " AND g.deadline_hours > 0 ORDER BY g.id"
        )
        return [_game(row) for row in rows]

    async def skip_poll(self, game_id: int, turn: int) -> SkipPoll | None:
        """The vote to skip that turn of the game, with its votes, if one was opened."""
        polls = await self._polls("p.game_id = $1 AND p.turn = $2", game_id, turn)
        return polls[0] if polls else None

    async def open_skip_polls(self) -> list[SkipPoll]:
        """The votes of games being played, by game and turn; a vote whose turn is over is
        among them (the store does not read turns): the caller compares them."""
        return await self._polls("p.game_id IN (SELECT id FROM games WHERE status = 'active')")

    async def open_skip_poll(
        self,
        game_id: int,
        expected_revision: int,
        *,
        turn: int,
        user_id: int,
        outbox_messages: Sequence[OutboxMessage],
    ) -> CommitResult:
        """Open the vote to skip ``turn`` of a game and queue its message, in one transaction;
        once per turn (no outbox id when it was open already). A move since
        ``expected_revision`` raises :class:`RevisionConflict`. Bookkeeping."""
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            status = await db.execute(
                "INSERT INTO skip_polls (game_id, turn, user_id, created_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                game_id,
                turn,
                user_id,
                self._stamp(),
            )
            if _count(status) == 0:
                return CommitResult(revision=game.revision, outbox_ids=())
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    async def add_skip_vote(self, game_id: int, turn: int, voter_id: int) -> bool:
        """Count ``voter_id``'s vote to skip ``turn``; ``False`` if they had voted already.
        Raises :class:`NotFound` when no such vote was opened."""
        async with self.transaction() as db:
            poll = await db.fetchval(
                "SELECT 1 FROM skip_polls WHERE game_id = $1 AND turn = $2", game_id, turn
            )
            if poll is None:
                raise NotFound("vote to skip", turn)
            status = await db.execute(
                "INSERT INTO skip_votes (game_id, turn, voter_id, created_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                game_id,
                turn,
                voter_id,
                self._stamp(),
            )
            return _count(status) == 1

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
        The revision goes up. Raises :class:`RevisionConflict`, :class:`NotActive` or
        :class:`NotFound` (no such seat)."""
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            status = await db.execute(
                "UPDATE seats SET computer = $1 WHERE game_id = $2 AND seat = $3",
                computer,
                game_id,
                seat,
            )
            if _count(status) == 0:
                raise NotFound("seat", seat)
            revision = await self._bump(db, game)
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=revision, outbox_ids=ids)

    async def computer_games(self) -> list[GameRow]:
        """Games being played with a seat handed to the computer, oldest first."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = 'active' AND EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.computer IS NOT NULL)"
            " ORDER BY g.id"
        )
        return [_game(row) for row in rows]

    async def due_pings(self, now: datetime) -> list[GameRow]:
        """Games being played whose ping owed after quiet hours is due at ``now``."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status = 'active'"
            " AND g.ping_due_at IS NOT NULL AND g.ping_due_at <= $1"
            " ORDER BY g.ping_due_at, g.id",
            _utc(now),
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
        """Queue the ping owed after quiet hours and set the next one and the next reminder;
        or, with no message, only move them. A move since raises :class:`RevisionConflict`.
        Bookkeeping."""
        async with self.transaction() as db:
            game = await _lock_game(db, game_id)
            _check_revision(game, expected_revision)
            if game.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, game.status)
            await db.execute(
                "UPDATE games SET ping_due_at = $1, next_reminder_at = $2 WHERE id = $3",
                _optional_utc(ping_due_at),
                _optional_utc(next_reminder_at),
                game_id,
            )
            ids = await self._insert_outbox(db, game, outbox_messages)
            return CommitResult(revision=game.revision, outbox_ids=ids)

    async def person(self, user_id: int) -> Person:
        """A user's quiet hours and every period of their time away, oldest first."""
        self._refuse_reentry()
        async with self._open_pool().acquire() as db:
            return await _load_person(db, user_id)

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
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET"
                " quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,"
                " quiet_zone = excluded.quiet_zone, updated_at = excluded.updated_at",
                user_id,
                start,
                end,
                zone,
                self._stamp(),
            )
            return await _load_person(db, user_id)

    async def set_away(
        self, user_id: int, *, starts_at: datetime, ends_at: datetime, note: str | None
    ) -> Person:
        """Start time away at ``starts_at`` until ``ends_at``; when the user is away already
        at ``starts_at``, that period gets the new end and note instead."""
        if ends_at <= starts_at:
            raise ValueError(f"time away must end after it starts: {starts_at} >= {ends_at}")
        start = _utc(starts_at)
        async with self.transaction() as db:
            await _lock_person(db, user_id)
            status = await db.execute(
                "UPDATE away_periods SET ends_at = $1, note = $2 WHERE id = (SELECT id FROM"
                " away_periods WHERE user_id = $3 AND starts_at <= $4 AND ends_at > $4"
                " ORDER BY ends_at DESC LIMIT 1)",
                _utc(ends_at),
                note,
                user_id,
                start,
            )
            if _count(status) == 0:
                await db.execute(
                    "INSERT INTO away_periods (user_id, starts_at, ends_at, note)"
                    " VALUES ($1, $2, $3, $4)",
                    user_id,
                    start,
                    _utc(ends_at),
                    note,
                )
            return await _load_person(db, user_id)

    async def clear_away(self, user_id: int, *, now: datetime) -> bool:
        """End the user's time away at ``now`` (every period still going on or ahead);
        ``False`` if there was none."""
        moment = _utc(now)
        async with self.transaction() as db:
            await _lock_person(db, user_id)
            await db.execute(
                "DELETE FROM away_periods WHERE user_id = $1 AND starts_at >= $2", user_id, moment
            )
            status = await db.execute(
                "UPDATE away_periods SET ends_at = $1 WHERE user_id = $2 AND ends_at > $1",
                moment,
                user_id,
            )
            return _count(status) > 0

    async def _polls(self, where: str, *parameters: object) -> list[SkipPoll]:
        rows = await self._fetch(
            "SELECT p.game_id, p.turn, p.user_id, p.created_at, v.voter_id FROM skip_polls p"
            " LEFT JOIN skip_votes v ON v.game_id = p.game_id AND v.turn = p.turn"
            f" WHERE {where} ORDER BY p.game_id, p.turn, v.created_at",
            *parameters,
        )
        polls: dict[tuple[int, int], SkipPoll] = {}
        for row in rows:
            key = (int(row["game_id"]), int(row["turn"]))
            poll = polls.get(key) or SkipPoll(
                game_id=key[0],
                turn=key[1],
                user_id=row["user_id"],
                created_at=row["created_at"],
                votes=frozenset(),
            )
            if row["voter_id"] is not None:
                poll = dataclasses.replace(poll, votes=poll.votes | {int(row["voter_id"])})
            polls[key] = poll
        return list(polls.values())

    # --- internals ----------------------------------------------------------------------------

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        known = len(migrations)
        async with self.transaction() as db:
            await _lock_schema(db)
            current = await _schema_version(db)
        if current > known:
            raise DatabaseTooNew(current, known)
        for migration in migrations[current:]:
            async with self.transaction() as db:
                # Read again under the lock: another process may have migrated meanwhile.
                await _lock_schema(db)
                version = await _schema_version(db)
                if version > known:
                    raise DatabaseTooNew(version, known)
                if version >= migration.version:
                    continue
                # Without parameters asyncpg sends the whole file, every statement, at once.
                await db.execute(migration.sql)
                await db.execute("UPDATE schema_version SET version = $1", migration.version)
            log.info("applied migration %04d %s", migration.version, migration.name)

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("store is closed")
        return self._pool

    def _refuse_reentry(self) -> None:
        if _in_transaction.get() is self:
            raise RuntimeError("store used inside its own transaction: this would deadlock")

    def _stamp(self) -> datetime:
        return _utc(self._now())

    async def _fetch(self, sql: str, *parameters: object) -> list[Record]:
        self._refuse_reentry()
        return list(await self._open_pool().fetch(sql, *parameters))

    async def _fetchrow(self, sql: str, *parameters: object) -> Record | None:
        self._refuse_reentry()
        return await self._open_pool().fetchrow(sql, *parameters)

    async def _fetchval(self, sql: str, *parameters: object) -> Any:
        self._refuse_reentry()
        return await self._open_pool().fetchval(sql, *parameters)

    async def _bump(
        self,
        db: Connection,
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
            changes["status"] = status.value
        if state is not None:
            changes["state"] = state
        if turn_started_at is not None:
            changes["turn_started_at"] = _utc(turn_started_at)
        if not isinstance(next_reminder_at, _Keep):
            changes["next_reminder_at"] = _optional_utc(next_reminder_at)
        if reminders_sent is not None:
            changes["reminders_sent"] = reminders_sent
        if not isinstance(ping_due_at, _Keep):
            changes["ping_due_at"] = _optional_utc(ping_due_at)
        # Column names come from the fixed keys above, never from input.
        assignments = ", ".join(
            f"{column} = ${number}" for number, column in enumerate(changes, start=1)
        )
        count = len(changes)
        status_text = await db.execute(
            f"UPDATE games SET {assignments} WHERE id = ${count + 1} AND revision = ${count + 2}",
            *changes.values(),
            game.id,
            game.revision,
        )
        if _count(status_text) != 1:
            raise RevisionConflict(game.id, game.revision, await _revision(db, game.id))
        return game.revision + 1

    async def _insert_outbox(
        self, db: Connection, game: GameRow, messages: Sequence[OutboxMessage]
    ) -> tuple[int, ...]:
        stamp = self._stamp()
        ids: list[int] = []
        for message in messages:
            channel_id = game.channel_id if message.channel_id is None else message.channel_id
            outbox_id = int(
                await db.fetchval(
                    "INSERT INTO outbox (game_id, channel_id, kind, payload, created_at)"
                    " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    game.id,
                    channel_id,
                    message.kind,
                    message.payload,
                    stamp,
                )
            )
            if message.snapshot is not None:
                await db.execute(
                    "INSERT INTO outbox_snapshots (outbox_id, snapshot) VALUES ($1, $2)",
                    outbox_id,
                    message.snapshot,
                )
            ids.append(outbox_id)
        return tuple(ids)


# --- helpers on an open transaction -----------------------------------------------------------


def _count(status: str) -> int:
    """The number of rows a command's status (``"UPDATE 1"``, ``"INSERT 0 1"``) reports."""
    return int(status.rsplit(" ", 1)[-1])


async def _lock_schema(db: Connection) -> None:
    await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
    # The runner's own bookkeeping, like SQLite's user_version: one row, made on first use.
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " one boolean PRIMARY KEY DEFAULT true CHECK (one),"
        " version integer NOT NULL CHECK (version >= 0))"
    )
    await db.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")


async def _schema_version(db: Connection) -> int:
    version = await db.fetchval("SELECT version FROM schema_version")
    return 0 if version is None else int(version)


async def _lock_person(db: Connection, user_id: int) -> None:
    """Hold a user's time away still until the transaction ends."""
    await db.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('cascadia away ' || $1::bigint::text, 0))",
        user_id,
    )


async def _lock_game(db: Connection, game_id: int) -> GameRow:
    """Read the game and lock its row until the transaction ends."""
    row = await db.fetchrow(
        f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = $1 FOR UPDATE", game_id
    )
    if row is None:
        raise NotFound("game", game_id)
    return _game(row)


async def _load_game(db: Connection, game_id: int) -> GameRow:
    row = await db.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = $1", game_id)
    if row is None:
        raise NotFound("game", game_id)
    return _game(row)


async def _revision(db: Connection, game_id: int) -> int:
    revision = await db.fetchval("SELECT revision FROM games WHERE id = $1", game_id)
    if revision is None:
        raise NotFound("game", game_id)
    return int(revision)


def _check_revision(game: GameRow, expected: int) -> None:
    if game.revision != expected:
        raise RevisionConflict(game.id, expected, game.revision)


async def _load_seats(db: Connection, game_id: int) -> list[Seat]:
    rows = await db.fetch(
        f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat", game_id
    )
    return [_seat(row) for row in rows]


async def _insert_seats(db: Connection, seats: Iterable[Seat]) -> None:
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES ($1, $2, $3, $4, $5)",
        [(seat.game_id, seat.seat, seat.user_id, seat.name, seat.computer) for seat in seats],
    )


async def _reseat(db: Connection, game_id: int, players: Sequence[Seat]) -> None:
    """Replace the game's seats with ``players`` numbered 0, 1, ... in the order given."""
    await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
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


async def _load_person(db: Connection, user_id: int) -> Person:
    row = await db.fetchrow(
        "SELECT quiet_from, quiet_to, quiet_zone FROM people WHERE user_id = $1", user_id
    )
    periods = await db.fetch(
        "SELECT user_id, starts_at, ends_at, note FROM away_periods WHERE user_id = $1"
        " ORDER BY starts_at, id",
        user_id,
    )
    away = tuple(
        AwayRow(
            user_id=p["user_id"], starts_at=p["starts_at"], ends_at=p["ends_at"], note=p["note"]
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


def _game(row: Record) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=GameStatus(row["status"]),
        host_id=row["host_id"],
        cards=row["cards"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        revision=row["revision"],
        state=row["state"],
        reminder_hours=row["reminder_hours"],
        turn_started_at=row["turn_started_at"],
        next_reminder_at=row["next_reminder_at"],
        reminders_sent=row["reminders_sent"],
        lobby_message_id=row["lobby_message_id"],
        deadline_hours=row["deadline_hours"],
        ping_due_at=row["ping_due_at"],
    )


def _seat(row: Record) -> Seat:
    return Seat(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        computer=row["computer"],
    )


def _move(row: Record) -> MoveRow:
    return MoveRow(
        game_id=row["game_id"],
        seq=row["seq"],
        user_id=row["user_id"],
        action=row["action"],
        created_at=row["created_at"],
        played_for=row["played_for"],
    )


def _panel(row: Record) -> PanelRow:
    return PanelRow(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        turn=int(row["turn"]),
        revision=int(row["revision"]),
        version=int(row["version"]),
        draft=str(row["draft"]),
        updated_at=row["updated_at"],
    )


def _outbox(row: Record) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        game_id=row["game_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        payload=row["payload"],
        snapshot=row["snapshot"],
        created_at=row["created_at"],
        attempts=row["attempts"],
        last_error=row["last_error"],
        sent_at=row["sent_at"],
        message_id=row["message_id"],
    )


def _utc(moment: datetime) -> datetime:
    if moment.utcoffset() is None:
        raise ValueError(f"naive datetime, need an aware one: {moment.isoformat()}")
    return moment.astimezone(UTC)


def _optional_utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else _utc(moment)
