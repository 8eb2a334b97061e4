"""PostgreSQL, through a pool of asyncpg connections, with migrations tracked in the
``schema_version`` table. The stores' queries (put together in :mod:`bot.stores`) run here as
written; where processes share the work (claims that end with their claimer, a reminder pass
that updates its games at once) they branch on the dialect.

Several bot processes may share the database. Where the SQLite store relies on SQLite taking
one write at a time, this one takes row locks instead: a write locks its game's row
(``SELECT ... FOR UPDATE``) before reading what it checks, so two writes to one game run one
after the other, while writes to different games run side by side. Writes that are about a
person rather than a game take a transaction-scoped advisory lock on that person.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from datetime import UTC, datetime
from typing import Any, Self

import asyncpg

from bot.db.database import Connection, Database
from bot.db.errors import ConnectionLost, StoreError
from bot.db.outage import Outage
from bot.db.schema import Migration
from bot.ops.clock import Clock, utc_now

log = logging.getLogger(__name__)


_NAME_BYTES = 63
"""The longest ``application_name`` PostgreSQL keeps whole: a claimer's name fits in it."""

ALIVE = "SELECT application_name FROM pg_stat_activity WHERE application_name IS NOT NULL"
"""The names of the connections open now: a claim of any other name is void."""

POOL_SIZE = 10
"""The most connections one process keeps open to the database."""

CONNECT_SECONDS = 10.0
"""How long a new connection may take before the server counts as not answering (asyncpg's
own default, a minute, would hold a command that long while a failover is under way)."""

_MIGRATION_LOCK = 0x636173636164  # "cascad": the advisory lock held while migrating

_LOST = (
    OSError,  # the socket refused or gone, a timeout
    asyncpg.exceptions.PostgresConnectionError,  # class 08, a connection closed mid-query
    asyncpg.exceptions.CannotConnectNowError,  # starting up or shutting down
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    # A pooled connection the server ended while it sat idle, caught in the middle of reading
    # the goodbye ("another operation is in progress"): the pool replaces it on release.
    asyncpg.exceptions.InternalClientError,
)
"""What asyncpg raises when the server is not answering: each is :class:`ConnectionLost`."""

_ADVICE = (
    "Commands are answered that the database is not answering, and background work waits and "
    "retries; the bot reconnects by itself once the PostgreSQL server is back (if this lasts, "
    "see to the server or the network to it)"
)

_in_transaction: contextvars.ContextVar[PostgresDatabase | None] = contextvars.ContextVar(
    "cascadia_postgres_transaction", default=None
)


class PostgresDatabase(Database):
    """A database on a PostgreSQL server, through a pool of asyncpg connections (the stores
    stand on it as :class:`~bot.stores.PostgresStore`)."""

    _log = log
    _dialect = "postgres"
    _for_update = " FOR UPDATE"

    def __init__(self, pool: asyncpg.Pool, url: str, *, now: Clock = utc_now) -> None:
        """Wrap a pool on ``url`` whose database :meth:`connect` has migrated; use that
        instead."""
        super().__init__(now=now)
        self._pool: asyncpg.Pool | None = pool
        self._url = url
        self._presence: dict[str, asyncpg.Connection] = {}
        self._presence_lock = asyncio.Lock()
        self._outage = Outage(log)

    @classmethod
    async def _connected(cls, target: str | os.PathLike[str], *, now: Clock) -> Self:
        url = os.fspath(target)
        settings = {"application_name": "cascadia-bot"}
        # No floor of open connections: while the server is down, asyncpg would reconnect the
        # floor in the background and log a traceback each time. The pool connects on demand,
        # so after a restart the next operation finds the server again.
        pool = await asyncpg.create_pool(
            url,
            min_size=0,
            max_size=POOL_SIZE,
            server_settings=settings,
            timeout=CONNECT_SECONDS,
        )
        return cls(pool, url, now=now)

    async def close(self) -> None:
        """Wait for the operations in progress, then close every connection. Idempotent."""
        pool, self._pool = self._pool, None
        presence, self._presence = self._presence, {}
        for connection in presence.values():
            await connection.close()
        if pool is not None:
            await pool.close()

    async def reclaim_space(self) -> int:
        # Nothing to give back: PostgreSQL's autovacuum reuses the space of deleted rows.
        """Give the space that deleted rows (sent messages' snapshots, forgotten messages) left
        free back to the file system, a few thousand pages at most a call; returns how many
        pages were given back. Cheap when there are none: the bot calls it periodically."""
        self._open_pool()
        return 0

    async def schema_version(self) -> int:
        """The number of the last migration applied to the database."""
        with self._answering():
            async with self._open_pool().acquire() as db:
                return await _schema_version(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        """Run the block in one transaction on a connection of the pool: COMMIT at its end,
        ROLLBACK on an error. Not reentrant: do not call store methods inside (they would
        wait for the locks the block holds).

        :class:`ConnectionLost` when the server stops answering; if that happens during the
        COMMIT, the write may or may not have been kept, and a retry meets the revision check.
        """
        self._refuse_reentry()
        pool = self._open_pool()
        with self._answering():
            async with pool.acquire() as connection, connection.transaction():
                token = _in_transaction.set(self)
                try:
                    yield connection
                finally:
                    _in_transaction.reset(token)

    # --- where several processes share the database -------------------------------------------

    async def _be_present(self, name: str) -> None:
        """Hold a connection named after ``claimer`` for as long as this store is open.

        A claim binds other processes only while its claimer is alive: PostgreSQL lists the
        connection (``pg_stat_activity.application_name``) until its process ends, however it
        ends, so a bot killed and started again takes its dead self's claims over at once. A
        claimer whose connection was lost (network, server restart) gets a new one next claim.
        """
        if len(name.encode()) > _NAME_BYTES or not name.isascii():
            raise ValueError(f"a claimer's name is ASCII of at most {_NAME_BYTES} bytes")
        async with self._presence_lock:
            connection = self._presence.get(name)
            if connection is not None and not connection.is_closed():
                return
            with self._answering():
                self._presence[name] = await asyncpg.connect(
                    self._url,
                    server_settings={"application_name": name},
                    timeout=CONNECT_SECONDS,
                )

    # --- PostgreSQL's ways --------------------------------------------------------------------

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self.transaction()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        self._refuse_reentry()
        pool = self._open_pool()
        with self._answering():
            async with pool.acquire() as connection:
                yield connection

    def _time(self, moment: datetime) -> datetime:
        if moment.utcoffset() is None:
            raise ValueError(f"naive datetime, need an aware one: {moment.isoformat()}")
        return moment.astimezone(UTC)

    def _moment(self, value: Any) -> datetime:
        return value  # type: ignore[no-any-return]

    def _in(self, placeholder: str) -> str:
        return f"= ANY({placeholder}::bigint[])"

    def _list(self, values: Iterable[int]) -> list[int]:
        return list(values)

    async def _lock_key(self, db: Connection, key: str) -> None:
        await db.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)

    async def _current_version(self) -> int:
        async with self.transaction() as db:
            return await self._locked_version(db)

    async def _locked_version(self, db: Connection) -> int:
        await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        # The runner's own bookkeeping, like SQLite's user_version: one row, made on first use.
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " one boolean PRIMARY KEY DEFAULT true CHECK (one),"
            " version integer NOT NULL CHECK (version >= 0))"
        )
        await db.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")
        return await _schema_version(db)

    async def _apply(self, db: Connection, migration: Migration) -> None:
        # Without parameters asyncpg sends the whole file, every statement, at once.
        await db.execute(migration.sql)
        await db.execute("UPDATE schema_version SET version = $1", migration.version)

    @contextmanager
    def _answering(self) -> Iterator[None]:
        """Turn the server not answering into :class:`ConnectionLost`; keep :attr:`_outage`."""
        try:
            yield
        except (*_LOST, asyncpg.exceptions.InterfaceError) as error:
            cause = _cause_lost(error)
            if cause is None:
                raise
            lost = ConnectionLost(f"{type(cause).__name__}: {cause}")
            self._outage.failed(lost, _ADVICE)
            raise lost from error
        self._outage.worked()

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("store is closed")
        return self._pool

    def _refuse_reentry(self) -> None:
        if _in_transaction.get() is self:
            raise RuntimeError("store used inside its own transaction: this would deadlock")


def _cause_lost(error: BaseException) -> BaseException | None:
    """The error of the server not answering behind ``error``, if that is what it is: itself,
    or for asyncpg's complaint that a connection is closed (a transaction's end after its
    connection died), the error it was raised while handling."""
    if isinstance(error, _LOST):
        return error
    context = error.__context__
    while context is not None:
        if isinstance(context, _LOST):
            return context
        context = context.__context__
    return None


async def _schema_version(db: Connection) -> int:
    version = await db.fetchval("SELECT version FROM schema_version")
    return 0 if version is None else int(version)
