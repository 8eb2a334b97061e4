"""SQLite, the embedded default: one file through one long-lived aiosqlite connection, WAL,
explicit ``BEGIN IMMEDIATE`` transactions, numbered migrations tracked with ``PRAGMA
user_version``. The stores' queries (put together in :mod:`bot.stores`) get asyncpg's calls
on aiosqlite (:class:`SqliteConnection`) and SQLite's ways from :class:`SqliteDatabase`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from typing import Any, Self

import aiosqlite

from bot.db.database import Connection, Database, Record
from bot.db.errors import CannotSave, StoreError
from bot.db.outage import Outage
from bot.db.schema import Migration
from bot.ops.clock import Clock, utc_now

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another connection's write lock before giving up."""

_INCREMENTAL = 2
"""``PRAGMA auto_vacuum`` value of incremental auto-vacuum."""

RECLAIM_PAGES = 512
"""The most pages (2 MiB) :meth:`SqliteDatabase.reclaim_space` gives back a call: each call holds
the database, and the drain calls it every few seconds, so a large give-back (the first pass
of forgetting old messages) is spread over its runs."""

_PLACEHOLDER = re.compile(r"\$(\d+)")

_SPACE = (
    "Moves are refused until it can save again: free some disk space (or see to the disk); "
    "play goes on by itself then, without a restart"
)
_WRITABLE = (
    "Moves are refused until it can save again: make the database file and its folder "
    "writable (a file system mounted read-only: writable again); play goes on by itself then"
)
_CANNOT_SAVE = {
    sqlite3.SQLITE_FULL: ("the disk is full", _SPACE),
    sqlite3.SQLITE_IOERR: ("the disk failed to write", _SPACE),
    sqlite3.SQLITE_READONLY: ("the database file is read-only", _WRITABLE),
    sqlite3.SQLITE_CANTOPEN: ("the database's files cannot be opened", _WRITABLE),
}
"""SQLite's primary result codes of a write the disk refused: the reason a player reads, and
what the operator should do."""


@functools.lru_cache(maxsize=512)
def sqlite_sql(sql: str) -> str:
    """``sql`` with asyncpg's placeholders (``$1``) written as SQLite's (``?1``)."""
    return _PLACEHOLDER.sub(r"?\1", sql)


class SqliteConnection:
    """An aiosqlite connection with asyncpg's calls and ``$1`` placeholders, as
    :class:`~bot.db.database.Connection` describes them: what the queries run on."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        """Wrap ``connection``, whose rows are ``sqlite3.Row``."""
        self.connection = connection

    async def execute(self, sql: str, *args: object) -> None:
        """Run one statement."""
        await self.connection.execute(sqlite_sql(sql), args)

    async def executemany(self, sql: str, args: Iterable[Sequence[object]]) -> None:
        """Run one statement once for each set of arguments."""
        await self.connection.executemany(sqlite_sql(sql), args)

    async def fetch(self, sql: str, *args: object) -> list[Record]:
        """Every row of a query."""
        # Every row fetched: a RETURNING statement changes its rows only as it is stepped.
        return list(await self.connection.execute_fetchall(sqlite_sql(sql), args))

    async def fetchrow(self, sql: str, *args: object) -> Record | None:
        """The first row of a query, if any."""
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: object) -> Any:
        """The first column of the first row, or ``None`` without a row."""
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]


class SqliteDatabase(Database):
    """A database in one SQLite file, through one long-lived aiosqlite connection (the stores
    stand on it as :class:`~bot.stores.SqliteStore`).

    Statements from concurrent tasks would interleave on the single connection, so every
    operation holds one asyncio lock for its duration; SQLite's own locking (``BEGIN
    IMMEDIATE`` with a busy timeout) covers other processes on the same file. A write
    transaction holds the whole file, so a game's row needs no lock of its own.
    """

    _log = log
    _dialect = "sqlite"
    _for_update = ""

    def __init__(self, connection: aiosqlite.Connection, *, now: Clock = utc_now) -> None:
        """Wrap a connection that :meth:`connect` has configured and migrated; use that instead."""
        super().__init__(now=now)
        self._connection: aiosqlite.Connection | None = connection
        self._db = SqliteConnection(connection)
        self._lock = asyncio.Lock()
        self._transaction_task: asyncio.Task[Any] | None = None
        self._outage = Outage(log)

    @classmethod
    async def _connected(cls, target: str | os.PathLike[str], *, now: Clock) -> Self:
        # Transactions are managed by hand (BEGIN IMMEDIATE), so no implicit ones.
        connection = await aiosqlite.connect(os.fspath(target), isolation_level=None)
        return cls(connection, now=now)

    async def _set_up(self, migrations: Sequence[Migration]) -> None:
        await self._configure()
        await self._migrate(migrations)
        await self._convert_to_incremental_vacuum()

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
        """Give the space that deleted rows (sent messages' snapshots, forgotten messages) left
        free back to the file system, a few thousand pages at most a call; returns how many
        pages were given back. Cheap when there are none: the bot calls it periodically."""
        self._refuse_reentry()
        async with self._lock:
            with self._saving():
                return await _reclaim(self._open_connection())

    async def schema_version(self) -> int:
        """The database's ``PRAGMA user_version``: the number of the last migration applied."""
        return int(await self._fetchval("PRAGMA user_version"))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the block in one write transaction: ``BEGIN IMMEDIATE``, then COMMIT or ROLLBACK.

        IMMEDIATE takes the write lock up front, so a transaction never fails halfway with
        ``SQLITE_BUSY`` when it first writes. Not reentrant: do not call store methods inside.
        :class:`CannotSave` when the disk refuses the write: it is rolled back whole.
        """
        self._refuse_reentry()
        async with self._lock:
            connection = self._open_connection()
            self._transaction_task = asyncio.current_task()
            try:
                with self._saving():
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

    # --- SQLite's ways ------------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[SqliteConnection]:
        async with self.transaction():
            yield self._db

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[SqliteConnection]:
        self._refuse_reentry()
        async with self._lock:
            self._open_connection()
            yield self._db

    def _time(self, moment: datetime) -> str:
        # Fixed-width ISO text in UTC: text order is time order.
        if moment.utcoffset() is None:
            raise ValueError(f"naive datetime, need an aware one: {moment.isoformat()}")
        return moment.astimezone(UTC).isoformat(timespec="microseconds")

    def _moment(self, value: Any) -> datetime:
        return datetime.fromisoformat(value)

    def _in(self, placeholder: str) -> str:
        return f"IN (SELECT value FROM json_each({placeholder}))"

    def _list(self, values: Iterable[int]) -> str:
        return json.dumps(list(values))

    async def _current_version(self) -> int:
        return await self.schema_version()

    async def _locked_version(self, db: Connection) -> int:
        return int(await db.fetchval("PRAGMA user_version"))

    async def _apply(self, db: Connection, migration: Migration) -> None:
        for statement in migration.statements:
            await db.execute(statement)
        # PRAGMA takes no parameters; the value is an int from our own list.
        await db.execute(f"PRAGMA user_version = {migration.version:d}")

    async def _configure(self) -> None:
        connection = self._open_connection()
        connection.row_factory = sqlite3.Row
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        # Pages freed by sent messages' snapshots go back to the file system with
        # :meth:`reclaim_space`. Only a file without tables takes this setting directly; an
        # older one is converted once after its migrations (see connect). Set only where it
        # differs: setting it writes, and a read-only file should still open for reading.
        [(vacuum,)] = await connection.execute_fetchall("PRAGMA auto_vacuum")
        if vacuum != _INCREMENTAL:
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

    async def _convert_to_incremental_vacuum(self) -> None:
        """Turn on incremental auto-vacuum in a file created before it was asked for: one
        VACUUM rewrites the file compactly with the setting. A failure (another connection
        busy) only leaves the file as it was; the next start tries again."""
        if int(await self._fetchval("PRAGMA auto_vacuum")) == _INCREMENTAL:
            return
        log.info("rewriting the database once to turn on incremental auto-vacuum")
        try:
            async with self._lock:
                await self._open_connection().execute("VACUUM")
        except sqlite3.OperationalError:
            log.warning("could not vacuum the database; trying again next start", exc_info=True)

    @contextmanager
    def _saving(self) -> Iterator[None]:
        """Turn a write the disk refused into :class:`CannotSave`; keep :attr:`_outage`."""
        try:
            yield
        except sqlite3.Error as error:
            known = _CANNOT_SAVE.get(getattr(error, "sqlite_errorcode", 0) & 0xFF)
            if known is None:
                raise
            why, advice = known
            refused = CannotSave(f"{error.sqlite_errorname}: {error}", why)
            self._outage.failed(refused, advice)
            raise refused from error
        self._outage.worked()

    def _open_connection(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise StoreError("store is closed")
        return self._connection

    def _refuse_reentry(self) -> None:
        task = asyncio.current_task()
        if task is not None and task is self._transaction_task:
            raise RuntimeError("store used inside its own transaction: this would deadlock")


async def _reclaim(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA freelist_count"))
    free = min(int(rows[0][0]) if rows else 0, RECLAIM_PAGES)
    if free:
        # executescript steps the pragma to its end; execute() would free a single page.
        # Outside any transaction it is one atomic statement of its own.
        await db.executescript(f"PRAGMA incremental_vacuum({free:d});")
    return free


async def _rollback(db: aiosqlite.Connection) -> None:
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError:
        # Some errors (SQLITE_FULL, an interrupted COMMIT that went through) end the
        # transaction by themselves; only a transaction still open is a real failure.
        if db.in_transaction:
            raise
