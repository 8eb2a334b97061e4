"""What every store's queries stand on: the :class:`Connection` they run on, and the
:class:`Database` whose hooks each dialect fills in its own way. Knows no table but the
schema version."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, ClassVar, Protocol, Self, TypeVar

from bot.db.errors import DatabaseTooNew, MigrationFailed, StoreError
from bot.db.schema import Dialect, Migration, check_numbering, load_migrations
from bot.ops.clock import Clock, utc_now

Record = Any
"""A row as a driver returns it (``sqlite3.Row`` or asyncpg's ``Record``): by name or index."""


D = TypeVar("D", bound="Database")


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


class Database:
    """A database the bot's stores stand on: the hooks a dialect (:mod:`bot.db.sqlite`,
    :mod:`bot.db.postgres`) fills in, opening and migrating, and reads outside a transaction."""

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
        """Release the store (see :meth:`Store.close <bot.stores.Store.close>`)."""
        raise NotImplementedError

    async def reclaim_space(self) -> int:
        """Give the space that deleted rows (sent messages' snapshots, forgotten messages) left
        free back to the file system, a few thousand pages at most a call; returns how many
        pages were given back. Cheap when there are none: the bot calls it periodically."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema version the database is at."""
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

    async def _be_present(self, name: str) -> None:
        """Show the database that the claimer ``name`` is alive, where claims outlive their
        claimer otherwise (nothing to do where one process owns the database)."""

    async def _lock_key(self, db: Connection, key: str) -> None:
        """Hold ``key`` (a name of the caller's choosing) until the transaction ends, where
        write transactions do not already exclude each other."""

    async def _current_version(self) -> int:
        """The schema version before migrating."""
        raise NotImplementedError

    async def _locked_version(self, db: Connection) -> int:
        """The schema version, read in a migration's transaction, where no other migrates."""
        raise NotImplementedError

    async def _apply(self, db: Connection, migration: Migration) -> None:
        """Run a migration's SQL and record its version."""
        raise NotImplementedError

    def view(self, kind: type[D]) -> D:
        """This database as ``kind``, one feature's store over it: the store the application
        opens (:mod:`bot.stores`) is every feature's at once, and a feature that reads
        another's facts (a declared edge) asks for that store by type."""
        if not isinstance(self, kind):
            raise TypeError(f"this database is no {kind.__name__}: open it with bot.stores")
        return self

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
        """Apply the migrations the database lacks, each in its own transaction.

        A migration that raises is rolled back whole and becomes :class:`MigrationFailed`,
        which says what failed and where the database stands (its traceback is logged at
        debug level); the store's own errors (a newer database, a server gone) pass as they
        are.
        """
        known = len(migrations)
        current = await self._current_version()
        if current > known:
            raise DatabaseTooNew(current, known)
        applied = 0
        for migration in migrations[current:]:
            try:
                async with self._transaction() as db:
                    # Read again under the lock: another process may have migrated meanwhile.
                    version = await self._locked_version(db)
                    if version > known:
                        raise DatabaseTooNew(version, known)
                    if version >= migration.version:
                        continue
                    await self._apply(db, migration)
            except StoreError:
                raise
            except Exception as error:
                self._log.debug("migration %04d failed", migration.version, exc_info=True)
                detail = " ".join(str(error).split()) or type(error).__name__
                raise MigrationFailed(
                    migration.version,
                    migration.name,
                    detail,
                    version=migration.version - 1,
                    applied=applied,
                ) from error
            applied += 1
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


def marks(first: int, count: int) -> str:
    """``count`` placeholders numbered from ``first``: ``$3, $4, $5``."""
    return ", ".join(f"${number}" for number in range(first, first + count))
