"""Checks before the bot touches anything, that this process may use ``CASCADIA_DB``.

For an SQLite file (:func:`check_database`): each operator mistake (a missing or read-only
folder, a directory, a read-only or foreign file, a damaged database, a second bot on the same
file) becomes one :class:`StartupError` whose message names the problem and what to do, raised
before any file is created or written.
Passing the checks takes the database's lock (a ``.lock`` file beside it, locked with
``flock``), held until the process exits, so that two bots never share one database.

For a PostgreSQL URL (:func:`check_postgres`): one connection is tried, and a server that is
down or unreachable, a wrong password, a missing database or a malformed URL becomes one
:class:`StartupError` line, without the password.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.ops.target import hide_passwords, safe_url, url_problem

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, so no lock either
    fcntl = None  # type: ignore[assignment]

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


class StartupError(Exception):
    """The bot cannot start on this database; the message says why and what to do."""


class DatabaseInUse(StartupError):
    """Another process holds the database's lock: a bot is running on it."""


@dataclass
class DatabaseLock:
    """The exclusive lock on a database, held while the bot runs (see :func:`check_database`)."""

    path: Path
    fd: int | None
    created: bool = False
    """Whether this process created the lock file."""

    def release(self) -> None:
        """Give the lock up (exiting does the same). The lock file stays: removing it could
        race with a process that has just opened it."""
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)

    def abandon(self) -> None:
        """Give the lock up after a refused start, removing the lock file if this start made
        it, so that a refusal leaves no file behind."""
        if self.created and self.fd is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.release()


def lock_path(db_path: Path) -> Path:
    """The lock file of a database: beside it, with ``.lock`` added to its name."""
    return db_path.with_name(db_path.name + ".lock")


Contents = Callable[[Path, sqlite3.Connection], None]
"""A check of what an existing database holds, on a read-only connection to it, raising
:class:`StartupError` (the bot's is :func:`bot.db.schema.refuse_at_start`)."""


def check_database(db_path: Path, *, contents: Contents | None = None) -> DatabaseLock:
    """Check that the bot can use ``db_path`` (which need not exist yet) and take its lock;
    ``contents`` then checks what an existing file holds (its schema), before anything opens
    it for writing.

    Raises :class:`StartupError` and leaves every file as it was when it cannot.
    """
    folder = db_path.parent
    if db_path.is_dir():
        raise StartupError(
            f"CASCADIA_DB ({db_path}) is a directory: set it to a file in it, such as "
            f"{db_path / 'cascadia.sqlite3'}"
        )
    if not folder.is_dir():
        raise StartupError(
            f"the folder of CASCADIA_DB ({folder}) does not exist: create it, or point "
            "CASCADIA_DB at a file in an existing folder"
        )
    if not _writable(folder):
        raise StartupError(
            f"the folder of CASCADIA_DB ({folder}) is read-only: the bot keeps its journal and "
            "lock files beside the database, so make the folder writable for the user running "
            "the bot, or move CASCADIA_DB"
        )
    exists = db_path.exists()
    if exists:
        _check_file(db_path)
    lock = _take_lock(db_path)
    try:
        if exists:
            _check_integrity(db_path, contents)
    except BaseException:
        lock.abandon()
        raise
    return lock


def check_existing(db_path: Path, *, contents: Contents | None = None) -> None:
    """Check an existing database a bot may be running on, without its lock (a command such
    as ``cascadia-bot ratings``): the file is there, a SQLite database the process may read
    and write, undamaged, holding what ``contents`` checks. Raises :class:`StartupError`,
    creating no file, when it is not."""
    if not db_path.exists():
        raise StartupError(
            f"the database {db_path} does not exist: point CASCADIA_DB at the bot's database"
        )
    if db_path.is_dir():
        raise StartupError(f"CASCADIA_DB ({db_path}) is a directory: point it at the database")
    _check_file(db_path)
    _check_integrity(db_path, contents)


def lock_database(db_path: Path) -> DatabaseLock:
    """Take the lock of ``db_path`` alone, without checking the file (which may be damaged or
    absent: ``cascadia-bot restore`` replaces it); raises :class:`DatabaseInUse` while a bot
    runs on it."""
    return _take_lock(db_path)


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK | (os.X_OK if path.is_dir() else 0))


def _check_file(db_path: Path) -> None:
    if not stat.S_ISREG(db_path.stat().st_mode):
        raise StartupError(
            f"CASCADIA_DB ({db_path}) is not a regular file: point it at the bot's database file"
        )
    try:
        with db_path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except PermissionError:
        raise StartupError(
            f"the database {db_path} cannot be read: give the user running the bot read and "
            "write access to it"
        ) from None
    if header and header != SQLITE_HEADER:
        raise StartupError(
            f"{db_path} is not a SQLite database: point CASCADIA_DB at the bot's database, or "
            "at a new file name to start an empty one"
        )
    if not _writable(db_path):
        raise StartupError(
            f"the database {db_path} is read-only: make it writable for the user running the bot"
        )


def _take_lock(db_path: Path) -> DatabaseLock:
    path = lock_path(db_path)
    if fcntl is None:
        return DatabaseLock(path, None)
    created = not path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StartupError(
            f"cannot open the lock file {path} ({error.strerror}): make it writable for the "
            "user running the bot"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise DatabaseInUse(
            f"another bot process is already using {db_path} (it holds {path.name}): stop it "
            "first, or give this one its own CASCADIA_DB"
        ) from None
    return DatabaseLock(path, fd, created)


def _check_integrity(db_path: Path, contents: Contents | None) -> None:
    # Read-only; "immutable" also keeps SQLite from creating -wal and -shm files beside a
    # database that has none (a cleanly closed one). With a journal left over, SQLite must
    # read it, and the files are there already.
    journal = db_path.with_name(db_path.name + "-wal").exists()
    uri = f"{db_path.resolve().as_uri()}?mode=ro{'' if journal else '&immutable=1'}"
    try:
        connection = sqlite3.connect(uri, uri=True)
        try:
            rows = connection.execute("PRAGMA quick_check").fetchall()
            found = [line for row in rows for line in str(row[0]).splitlines()]
            if found == ["ok"]:
                if contents is not None:
                    contents(db_path, connection)
                return
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        problem = str(error)
    else:
        problem = found[0] if len(found) == 1 else f"{found[0]}, and {len(found) - 1} more"
    if "not a database" in problem:
        raise StartupError(
            f"{db_path} is not a SQLite database: point CASCADIA_DB at the bot's database, or "
            "at a new file name to start an empty one"
        )
    raise StartupError(
        f"the database {db_path} is damaged ({problem}): restore it from a backup, or move it "
        "away to start with an empty one"
    )


POSTGRES_TIMEOUT = 10.0
"""Seconds the check waits for the PostgreSQL server to answer."""


def check_postgres(
    url: str,
    *,
    name: str = "CASCADIA_DB",
    known_version: int | None = None,
    timeout: float = POSTGRES_TIMEOUT,
) -> None:
    """Check that the PostgreSQL database of ``url`` answers and lets the bot in, and, given
    the ``known_version`` of the code's schema, that no newer bot wrote it.

    Raises :class:`StartupError` with one line naming the problem and the setting (``name``)
    that gave the URL; no password of the connection appears in it. No lock is taken:
    several bot processes (shards) share one database.
    """
    shown = safe_url(url)
    problem = url_problem(url)
    if problem is not None:
        raise StartupError(
            f"{name} is not a usable PostgreSQL URL ({shown}): {hide_passwords(problem, url)}"
        )
    try:
        version = asyncio.run(_connect_once(url, seconds=timeout))
    except asyncpg.InvalidPasswordError:
        raise StartupError(
            f"PostgreSQL refused the password in {name} ({shown}): check the user and password"
        ) from None
    except asyncpg.InvalidCatalogNameError:
        raise StartupError(
            f"the database in {name} ({shown}) does not exist on that PostgreSQL server: "
            "create it (createdb), or fix the name"
        ) from None
    except asyncpg.PostgresError as error:
        raise StartupError(
            f"PostgreSQL refused the bot at {name} ({shown}): {hide_passwords(str(error), url)}"
        ) from None
    except TimeoutError:
        raise StartupError(
            f"the PostgreSQL server of {name} ({shown}) did not answer within "
            f"{timeout:g} s: is it running, and are the host and port right?"
        ) from None
    except OSError as error:
        raise StartupError(
            f"cannot reach the PostgreSQL server of {name} ({shown}): "
            f"{error.strerror or error}; is it running, and are the host and port right?"
        ) from None
    except (ValueError, OverflowError, asyncpg.InterfaceError) as error:
        raise StartupError(
            f"{name} is not a usable PostgreSQL URL ({shown}): {hide_passwords(str(error), url)}"
        ) from None

    if known_version is not None and version > known_version:
        raise StartupError(
            f"the database in {name} ({shown}) was written by a newer version of the bot "
            f"(schema version {version}, this one knows {known_version}): run that version on "
            "it, or restore a backup made by this one"
        )


async def _connect_once(url: str, *, seconds: float) -> int:
    """Connect, read the schema version (0 before the bot's first start) and leave."""
    connection = await asyncpg.connect(url, timeout=seconds)
    try:
        # The table the migrations keep it in, looked up on the connection's search path.
        if await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
            return int(await connection.fetchval("SELECT max(version) FROM schema_version") or 0)
        return 0
    finally:
        await connection.close()
