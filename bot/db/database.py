"""What :class:`~bot.game.store.SqlStore`'s queries stand on: the :class:`Connection` they run
on, the hooks in which a backend does things its own way, and the reads and writes that
several queries share (a game locked, the revision bumped, the outbox filled, rows read)."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, ClassVar, Protocol, Self

from bot.db.errors import DatabaseTooNew, NotFound
from bot.db.schema import Dialect, Migration, check_numbering, load_migrations
from bot.game.errors import GameClosed, NotActive, RevisionConflict
from bot.game.packing import DAMAGED_STATE, PackDamaged, unpack_state
from bot.game.rows import (
    OPEN_STATUSES,
    GameRow,
    GameStatus,
    OutboxMessage,
    OutboxRow,
    PanelRow,
    Seat,
)
from bot.ops.clock import Clock, utc_now

Record = Any
"""A row as a driver returns it (``sqlite3.Row`` or asyncpg's ``Record``): by name or index."""

GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.status, g.host_id, g.cards, g.created_at, g.updated_at,"
    " g.revision, g.state, g.reminder_hours, g.turn_started_at, g.next_reminder_at,"
    " g.reminders_sent, g.lobby_message_id, g.deadline_hours, g.ping_due_at"
)
SEAT_COLUMNS = "s.game_id, s.seat, s.user_id, s.name, s.computer"
OUTBOX_COLUMNS = (
    "o.id, o.game_id, o.channel_id, o.kind, o.payload, s.snapshot, o.created_at, o.attempts,"
    " o.last_error, o.sent_at, o.message_id"
)
OUTBOX_TABLES = "outbox o LEFT JOIN outbox_snapshots s ON s.outbox_id = o.id"
# Statuses written into the SQL, not bound: SQLite uses a partial index (``WHERE status =
# 'active'``) only when the query states its condition in the same literal words.
ACTIVE = f"'{GameStatus.ACTIVE.value}'"
OPEN = f"('{GameStatus.LOBBY.value}', '{GameStatus.ACTIVE.value}')"


class Connection(Protocol):
    """What the queries need of a connection: asyncpg's calls, with ``$1`` placeholders."""

    async def execute(self, sql: str, *args: object) -> object:
        """Run a statement whose rows, if any, are not wanted."""

    async def executemany(self, sql: str, args: Iterable[Sequence[object]]) -> object:
        """Run a statement once for each parameter tuple."""

    async def fetch(self, sql: str, *args: object) -> list[Record]:
        """Every row of a query."""

    async def fetchrow(self, sql: str, *args: object) -> Record | None:
        """The first row of a query, if any."""

    async def fetchval(self, sql: str, *args: object) -> Any:
        """The first column of the first row, or ``None`` without a row."""


class SqlBase:
    """The hooks a backend fills in, and the helpers of :class:`~bot.game.store.SqlStore`."""

    _log: ClassVar[logging.Logger]
    _dialect: ClassVar[Dialect]
    _for_update: ClassVar[str]
    """What locks the rows a ``SELECT`` reads ("" where a write transaction locks them all)."""

    def __init__(self, *, now: Clock = utc_now) -> None:
        """Keep the clock; the backend keeps its connection."""
        self._now = now
        self._told_damaged: set[tuple[int, str]] = set()

    # --- what a backend does its own way ------------------------------------------------------

    @classmethod
    async def connect(
        cls,
        target: str | os.PathLike[str],
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
    ) -> Self:
        """Open the database at ``target`` (a file path, or a URL) and bring its schema up to
        date.

        ``migrations`` replaces the shipped ones (for tests of the runner). Raises
        :class:`DatabaseTooNew` if the database's schema is newer than the code.
        """
        if migrations is None:
            migrations = load_migrations(cls._dialect)
        check_numbering(migrations)
        store = await cls._connected(target, now=now)
        try:
            await store._set_up(migrations)
        except BaseException:
            await store.close()
            raise
        return store

    @classmethod
    async def _connected(cls, target: str | os.PathLike[str], *, now: Clock) -> Self:
        """A store on a new connection to ``target``, before :meth:`_set_up`."""
        raise NotImplementedError

    async def _set_up(self, migrations: Sequence[Migration]) -> None:
        """Make the new connection ready: bring the schema up to date."""
        await self._migrate(migrations)

    async def close(self) -> None:
        """Release the store (see :meth:`Store.close <bot.store.Store.close>`)."""
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: COMMIT at the block's end, ROLLBACK on an error."""
        raise NotImplementedError

    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads outside a transaction."""
        raise NotImplementedError

    def _time(self, moment: datetime) -> object:
        """An aware datetime as the database stores it (``ValueError`` on a naive one)."""
        raise NotImplementedError

    def _moment(self, value: Any) -> datetime:
        """A stored time as an aware datetime."""
        raise NotImplementedError

    def _in(self, placeholder: str) -> str:
        """The condition "is in the list of integers bound at ``placeholder``"."""
        raise NotImplementedError

    def _list(self, values: Iterable[int]) -> object:
        """Integers as one parameter for :meth:`_in`."""
        raise NotImplementedError

    def _packed_state(self, text: str) -> object | None:
        """A finished game's state text as it is kept for good; ``None``: as it is."""
        raise NotImplementedError

    async def _lock_person(self, db: Connection, user_id: int) -> None:
        """Hold a user's time away still until the transaction ends."""

    async def _current_version(self) -> int:
        """The schema version before migrating."""
        raise NotImplementedError

    async def _locked_version(self, db: Connection) -> int:
        """The schema version, read in a migration's transaction, where no other migrates."""
        raise NotImplementedError

    async def _apply(self, db: Connection, migration: Migration) -> None:
        """Run a migration's SQL and record its version."""
        raise NotImplementedError

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        now: Clock = utc_now,
        migrations: Sequence[Migration] | None = None,
    ) -> AsyncIterator[Self]:
        """:meth:`connect` as an ``async with`` block that closes the store at its end."""
        store = await cls.connect(target, now=now, migrations=migrations)
        try:
            yield store
        finally:
            await store.close()

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        known = len(migrations)
        current = await self._current_version()
        if current > known:
            raise DatabaseTooNew(current, known)
        for migration in migrations[current:]:
            async with self._transaction() as db:
                # Read again under the lock: another process may have migrated meanwhile.
                version = await self._locked_version(db)
                if version > known:
                    raise DatabaseTooNew(version, known)
                if version >= migration.version:
                    continue
                await self._apply(db, migration)
            self._log.info("applied migration %04d %s", migration.version, migration.name)

    # --- shared reads and writes --------------------------------------------------------------

    def _stamp(self) -> object:
        return self._time(self._now())

    def _optional_time(self, moment: datetime | None) -> object:
        return None if moment is None else self._time(moment)

    def _optional_moment(self, value: Any) -> datetime | None:
        return None if value is None else self._moment(value)

    async def _fetch(self, sql: str, *parameters: object) -> list[Record]:
        async with self._reading() as db:
            return await db.fetch(sql, *parameters)

    async def _fetchrow(self, sql: str, *parameters: object) -> Record | None:
        async with self._reading() as db:
            return await db.fetchrow(sql, *parameters)

    async def _fetchval(self, sql: str, *parameters: object) -> Any:
        async with self._reading() as db:
            return await db.fetchval(sql, *parameters)

    async def _load_game(self, db: Connection, game_id: int, *, lock: bool = False) -> GameRow:
        """The game; with ``lock``, held still until the transaction ends."""
        q = f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"
        row = await db.fetchrow(q + self._for_update if lock else q, game_id)
        if row is None:
            raise NotFound("game", game_id)
        return self._game(row)

    async def _lock_active(self, db: Connection, game_id: int, expected_revision: int) -> GameRow:
        """The game locked for a write on it in play at ``expected_revision``."""
        game = await self._load_game(db, game_id, lock=True)
        check_revision(game, expected_revision)
        if game.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, game.status)
        return game

    async def _set_open_game(self, game_id: int, settings: str, *values: object) -> GameRow:
        """Change a lobby's or a game in play's ``settings`` (bookkeeping: the revision stays)."""
        async with self._transaction() as db:
            game = await self._load_game(db, game_id, lock=True)
            if game.status not in OPEN_STATUSES:
                raise GameClosed(game_id, game.status)
            await db.execute(f"UPDATE games SET {settings} WHERE id = $1", game_id, *values)
            return await self._load_game(db, game_id)

    async def _active_games(self, rest: str, *parameters: object) -> list[GameRow]:
        """The games being played that ``rest`` (more conditions, then the order) picks."""
        q = f"SELECT {GAME_COLUMNS} FROM games g WHERE g.status = {ACTIVE}{rest}"
        return [self._game(row) for row in await self._fetch(q, *parameters)]

    async def _bump(self, db: Connection, game: GameRow, **changes: object) -> int:
        """Write ``changes`` (column: value as stored) to ``game``, bump its revision and
        return the new one; :class:`RevisionConflict` if the row has moved on."""
        values = {"revision": game.revision + 1, "updated_at": self._stamp(), **changes}
        # Column names are the callers' keywords, never input.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(values, start=3))
        q = f"UPDATE games SET {assignments} WHERE id = $1 AND revision = $2 RETURNING revision"
        if await db.fetchval(q, game.id, game.revision, *values.values()) is None:
            revision = await db.fetchval("SELECT revision FROM games WHERE id = $1", game.id)
            if revision is None:
                raise NotFound("game", game.id)
            raise RevisionConflict(game.id, game.revision, int(revision))
        return game.revision + 1

    async def _insert_outbox(
        self, db: Connection, game: GameRow, messages: Sequence[OutboxMessage]
    ) -> tuple[int, ...]:
        stamp = self._stamp()
        ids: list[int] = []
        q = (
            "INSERT INTO outbox (game_id, channel_id, kind, payload, created_at)"
            " VALUES ($1, $2, $3, $4, $5) RETURNING id"
        )
        for message in messages:
            channel_id = game.channel_id if message.channel_id is None else message.channel_id
            values = (game.id, channel_id, message.kind, message.payload, stamp)
            outbox_id = int(await db.fetchval(q, *values))
            if message.snapshot is not None:
                snapshot = "INSERT INTO outbox_snapshots (outbox_id, snapshot) VALUES ($1, $2)"
                await db.execute(snapshot, outbox_id, message.snapshot)
            ids.append(outbox_id)
        return tuple(ids)

    # --- rows to values -----------------------------------------------------------------------

    def _game(self, row: Record) -> GameRow:
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            status=GameStatus(row["status"]),
            host_id=row["host_id"],
            cards=row["cards"],
            created_at=self._moment(row["created_at"]),
            updated_at=self._moment(row["updated_at"]),
            revision=row["revision"],
            state=self._state_text(row["id"], row["state"]),
            reminder_hours=row["reminder_hours"],
            turn_started_at=self._optional_moment(row["turn_started_at"]),
            next_reminder_at=self._optional_moment(row["next_reminder_at"]),
            reminders_sent=row["reminders_sent"],
            lobby_message_id=row["lobby_message_id"],
            deadline_hours=row["deadline_hours"],
            ping_due_at=self._optional_moment(row["ping_due_at"]),
        )

    def _state_text(self, game_id: int, stored: object) -> str | None:
        """A game's state text, unpacked if it was packed (see :meth:`_packed_state`)."""
        if not isinstance(stored, bytes):
            return stored  # type: ignore[return-value]
        try:
            return unpack_state(stored)
        except PackDamaged as error:
            self._tell_damaged(game_id, "state", error)
            return DAMAGED_STATE

    def _tell_damaged(self, game_id: int, what: str, error: PackDamaged) -> None:
        """Log once a game and part that a packed ``what`` of it cannot be unpacked."""
        if (game_id, what) in self._told_damaged:
            return
        self._told_damaged.add((game_id, what))
        self._log.warning(
            "game %d: its packed %s cannot be unpacked (%s); restore it from a backup"
            " (docs/hosting.md, Backups)",
            game_id,
            what,
            error,
        )

    def _panel(self, row: Record) -> PanelRow:
        return PanelRow(
            game_id=int(row["game_id"]),
            user_id=int(row["user_id"]),
            turn=int(row["turn"]),
            revision=int(row["revision"]),
            version=int(row["version"]),
            draft=str(row["draft"]),
            updated_at=self._moment(row["updated_at"]),
        )

    def _outbox(self, row: Record) -> OutboxRow:
        return OutboxRow(
            id=row["id"],
            game_id=row["game_id"],
            channel_id=row["channel_id"],
            kind=row["kind"],
            payload=row["payload"],
            snapshot=row["snapshot"],
            created_at=self._moment(row["created_at"]),
            attempts=row["attempts"],
            last_error=row["last_error"],
            sent_at=self._optional_moment(row["sent_at"]),
            message_id=row["message_id"],
        )


def check_revision(game: GameRow, expected: int) -> None:
    """:class:`RevisionConflict` unless ``game`` is at the ``expected`` revision."""
    if game.revision != expected:
        raise RevisionConflict(game.id, expected, game.revision)


def marks(first: int, count: int) -> str:
    """``count`` placeholders numbered from ``first``: ``$3, $4, $5``."""
    return ", ".join(f"${number}" for number in range(first, first + count))


def seat(row: Record) -> Seat:
    """A seat from a row of :data:`SEAT_COLUMNS`."""
    return Seat(row["game_id"], row["seat"], row["user_id"], row["name"], row["computer"])


async def load_seats(db: Connection, game_id: int) -> list[Seat]:
    """The game's seats in seat order."""
    q = f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat"
    return [seat(row) for row in await db.fetch(q, game_id)]


async def insert_seats(db: Connection, seats: Iterable[Seat]) -> None:
    """Add the seats."""
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES ($1, $2, $3, $4, $5)",
        [(s.game_id, s.seat, s.user_id, s.name, s.computer) for s in seats],
    )


async def reseat(db: Connection, game_id: int, players: Sequence[Seat]) -> None:
    """Replace the game's seats with ``players`` numbered 0, 1, ... in the order given."""
    # Delete and insert rather than renumber in place: an in-place UPDATE could collide with
    # the (game_id, seat) key halfway through.
    await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
    await insert_seats(
        db, [Seat(game_id, n, p.user_id, p.name, p.computer) for n, p in enumerate(players)]
    )
