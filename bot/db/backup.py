"""Backups of the SQLite database, restoring one, and the bot's own backups every few hours.

``cascadia-bot backup --to FILE`` copies the database of ``CASCADIA_DB``, running or not,
through SQLite's online backup API (:func:`backup`): a consistent copy, never a file copy of a
live write-ahead-log database. The copy is made in steps under one read transaction, so the
bot's writes go on meanwhile and every step reads the same moment; it is written beside
``FILE`` under a temporary name, checked with ``PRAGMA integrity_check``, and only then given
its name. It prints the counts of games and moves.

``cascadia-bot restore --from FILE`` puts a backup in place of the database (:func:`restore`):
it takes the database's lock first (so it refuses while a bot runs on it), checks the file (a
SQLite database, ``integrity_check`` ok, a schema version this code knows and the tables of
that version), copies it beside the database, keeps the old database aside under a name it
prints, and renames the copy over the database in one step.

With ``CASCADIA_BACKUP_DIR`` set, the bot writes such a backup itself every
``CASCADIA_BACKUP_HOURS`` (:class:`Backups`), in a thread, and keeps the newest
:data:`KEEP`. For PostgreSQL both commands print the ``pg_dump`` or ``pg_restore`` command to
use instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import shutil
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.db.errors import DatabaseTooNew, ForeignDatabase, SchemaMismatch
from bot.db.schema import check_schema
from bot.ops.config import database_from_env
from bot.ops.preflight import (
    SQLITE_HEADER,
    DatabaseInUse,
    StartupError,
    lock_database,
    lock_path,
)
from bot.ops.target import is_postgres_url, without_password

log = logging.getLogger(__name__)

STEP_PAGES = 1024
"""Pages copied per step of the backup (4 MiB at SQLite's default page size); between steps
the copy may be called off."""
KEEP = 7
"""How many of its own backups the bot keeps in ``CASCADIA_BACKUP_DIR``."""
BACKUP_NAME = re.compile(r"cascadia-(?P<stamp>\d{8}T\d{6}Z)\.sqlite3")
"""The name of a backup the bot wrote itself: its UTC time, so names sort by time."""
_STAMP = "%Y%m%dT%H%M%SZ"
_BUSY_SECONDS = 10.0
"""How long opening a read transaction may wait for a checkpoint in progress."""


class BackupError(Exception):
    """The backup or the restore cannot be made; the message says why. Nothing was changed."""


class Stopped(BackupError):
    """The backup was called off (the bot is shutting down); its partial file is gone."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database file holds, as a backup or restore reports it."""

    games: int
    moves: int
    version: int
    """Its schema version, ``PRAGMA user_version``."""

    def __str__(self) -> str:
        return f"{self.games} games, {self.moves} moves"


def backup(
    source: Path,
    target: Path,
    *,
    pages: int = STEP_PAGES,
    stop: threading.Event | None = None,
) -> Contents:
    """Copy the SQLite database ``source`` (a bot may be running on it) into the new file
    ``target``, ``pages`` at a step, check the copy and return what it holds.

    Blocks (run it in a thread from the event loop); setting ``stop`` calls the copy off
    between two steps. Raises :class:`BackupError`, leaving no file behind, when it cannot.
    """
    # Only SQLite opens the source: closing any other descriptor of the file would drop the
    # POSIX locks this process (the bot) holds on it, and another process could then take
    # itself for the last connection and remove the write-ahead log under the bot.
    if not source.is_file():
        raise BackupError(f"the database {source} is not a file")
    if target.exists():
        raise BackupError(f"{target} already exists: name a new file for the backup")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist: create it first")
    partial = target.with_name(target.name + ".partial")
    try:
        _copy(source, partial, pages=pages, stop=stop, uri=False)
        contents = inspect(partial)
        _sync(partial)
        os.replace(partial, target)
        _sync(target.parent)
    except sqlite3.Error as error:
        if "not a database" in str(error):
            raise BackupError(f"the database {source} is not a SQLite database") from None
        raise BackupError(f"the backup of {source} into {target} failed: {error}") from None
    except OSError as error:
        raise BackupError(
            f"the backup of {source} into {target} failed: {error.strerror or error}"
        ) from None
    finally:
        _remove(partial)
    return contents


def inspect(path: Path) -> Contents:
    """Check a database file that nothing writes (a backup) with ``PRAGMA integrity_check``
    and count its games and moves; raises :class:`BackupError` when it is damaged or not the
    bot's."""
    _check_sqlite(path, "the file")
    try:
        with contextlib.closing(sqlite3.connect(_read_only(path), uri=True)) as db:
            found = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
            if found != ["ok"]:
                more = f", and {len(found) - 1} more problems" if len(found) > 1 else ""
                raise BackupError(f"{path} is damaged ({found[0]}{more})")
            tables = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master")}
            if not {"games", "moves"} <= tables:
                raise BackupError(f"{path} is not a database of the bot: it has no games table")
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
            moves = int(db.execute("SELECT count(*) FROM moves").fetchone()[0])
            if "packed_moves" in tables:  # the moves of games packed for good (migration 12)
                packed = db.execute("SELECT COALESCE(sum(moves), 0) FROM packed_moves")
                moves += int(packed.fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} cannot be read as a database: {error}") from None
    return Contents(games, moves, version)


@dataclass(frozen=True, slots=True)
class Restored:
    """A restore done: what the database holds now, and where the one it replaced went."""

    contents: Contents
    aside: Path | None
    """The database from before the restore, kept; ``None`` if there was none."""


def restore(source: Path, target: Path, *, now: datetime | None = None) -> Restored:
    """Put the backup ``source`` in place of the database ``target``, which no bot may be
    running on; the old database (with its journal) is kept aside, named after ``now``.

    Raises :class:`BackupError`, changing nothing, when the file or the moment is wrong.
    """
    if not source.is_file():
        raise BackupError(f"{source} is not a file: name a backup of the bot's database")
    if target.is_dir():
        raise BackupError(f"CASCADIA_DB ({target}) is a directory: point it at the database file")
    if not target.parent.is_dir():
        raise BackupError(
            f"the folder of CASCADIA_DB ({target.parent}) does not exist: create it first"
        )
    if source.resolve() == target.resolve():
        raise BackupError(f"{source} is the database itself: name a backup of it")
    try:
        lock = lock_database(target)
    except DatabaseInUse:
        raise BackupError(
            f"a bot is running on {target} (it holds {lock_path(target).name}): stop it, then "
            "restore"
        ) from None
    except StartupError as error:
        raise BackupError(str(error)) from None
    try:
        contents = inspect(source)
        _check_schema(source, contents.version)
        restored = _replace(source, target, contents, now or datetime.now(UTC))
    except BaseException:
        lock.abandon()
        raise
    lock.release()
    return restored


def _check_schema(path: Path, version: int) -> None:
    """Refuse a backup this bot could not migrate: one from a newer bot, one without a schema
    version, one whose tables are not those of its version (see
    :func:`~bot.db.schema.check_schema`), or one with rows that refer to rows it lacks."""
    try:
        with contextlib.closing(sqlite3.connect(_read_only(path), uri=True)) as db:
            check_schema(db)
            # A row whose reference leads nowhere stops a migration that copies its table.
            orphans = db.execute("PRAGMA foreign_key_check").fetchall()
    except DatabaseTooNew as error:
        raise BackupError(
            f"{path} was written by a newer version of the bot (schema version {error.found}, "
            f"this one knows {error.known}): restore it with that version"
        ) from None
    except (ForeignDatabase, SchemaMismatch) as error:
        raise BackupError(
            f"{path} is not a backup of the bot's database: {error}. Pick another backup"
        ) from None
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} cannot be read as a database: {error}") from None
    if version < 1:
        raise BackupError(f"{path} is not a database of the bot: it has no schema version")
    if orphans:
        table, rowid, parent, _ = orphans[0]
        more = f", and {len(orphans) - 1} more" if len(orphans) > 1 else ""
        raise BackupError(
            f"{path} has rows that refer to rows it lacks ({table} row {rowid} to {parent}"
            f"{more}): it is damaged, or was put together by hand. Pick another backup"
        )


def _read_only(path: Path) -> str:
    """The URI that opens ``path`` for reading only; "immutable" keeps SQLite from creating
    -wal and -shm files beside a file that has none, which also lets a backup be checked on a
    read-only disk."""
    journal = path.with_name(path.name + "-wal").exists()
    return f"{path.resolve().as_uri()}?mode=ro{'' if journal else '&immutable=1'}"


def _replace(source: Path, target: Path, contents: Contents, now: datetime) -> Restored:
    partial = target.with_name(target.name + ".restoring")
    aside = None
    try:
        _copy(source, partial, pages=STEP_PAGES, stop=None, uri=True)
        _sync(partial)
        if target.exists():
            aside = target.with_name(f"{target.name}.before-restore-{now.strftime(_STAMP)}")
            _keep_aside(target, aside)
        os.replace(partial, target)
        _sync(target.parent)
    except sqlite3.Error as error:
        raise BackupError(f"copying {source} into {target} failed: {error}") from None
    except OSError as error:
        raise BackupError(
            f"copying {source} into {target} failed: {error.strerror or error}"
        ) from None
    finally:
        _remove(partial)
    return Restored(contents, aside)


def _keep_aside(target: Path, aside: Path) -> None:
    """Keep the database under the name ``aside``, with its journal, before the restored
    file takes its name: a write-ahead log left beside that file would be played into it."""
    if aside.exists():
        raise BackupError(f"{aside} already exists: move it away and restore again")
    try:
        os.link(target, aside)
    except OSError:
        shutil.copy2(target, aside)
    for suffix in ("-wal", "-shm"):
        journal = target.with_name(target.name + suffix)
        if journal.exists():
            os.replace(journal, aside.with_name(aside.name + suffix))


def _copy(
    source: Path, target: Path, *, pages: int, stop: threading.Event | None, uri: bool
) -> None:
    """Copy ``source`` into the new file ``target`` with SQLite's backup API, in steps that all
    read one snapshot (the read transaction held across them), so a writer on the source goes
    on and never restarts the copy."""
    _remove(target)
    if uri:
        # A backup being restored is only read: no journal files beside it.
        name = _read_only(source)
        reader = sqlite3.connect(name, uri=True, timeout=_BUSY_SECONDS, isolation_level=None)
    else:
        reader = sqlite3.connect(source, timeout=_BUSY_SECONDS, isolation_level=None)

    def step(status: int, remaining: int, total: int) -> None:
        if stop is not None and stop.is_set():
            raise Stopped("the backup was called off")

    try:
        with contextlib.closing(sqlite3.connect(target)) as writer:
            reader.execute("BEGIN")
            tables = {str(row[0]) for row in reader.execute("SELECT name FROM sqlite_master")}
            if "games" not in tables:
                raise BackupError(f"{source} is not a database of the bot: it has no games table")
            reader.backup(writer, pages=pages, progress=step)
            reader.execute("COMMIT")
    finally:
        reader.close()


def _check_sqlite(path: Path, what: str) -> None:
    if not path.is_file():
        raise BackupError(f"{what} {path} is not a file")
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise BackupError(f"{what} {path} cannot be read: {error.strerror or error}") from None
    if header != SQLITE_HEADER:
        raise BackupError(f"{what} {path} is not a SQLite database")


def _sync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()


# --- the bot's own backups ---------------------------------------------------------------------


def backups_in(folder: Path) -> list[tuple[datetime, Path]]:
    """The backups the bot wrote in ``folder``, oldest first, with their times."""
    found = []
    for path in folder.iterdir():
        match = BACKUP_NAME.fullmatch(path.name)
        if match is not None:
            moment = datetime.strptime(match["stamp"], _STAMP).replace(tzinfo=UTC)
            found.append((moment, path))
    return sorted(found)


class Backups:
    """The bot's backups of its database ``source`` into ``folder`` every ``every``, keeping
    the newest ``keep``. The first is due ``every`` after the newest one in the folder (at
    once when there is none or it is older), so restarts do not put backups off.

    The copy runs in a thread (:func:`backup`); the event loop goes on serving meanwhile.
    A failed backup is logged and tried again ``every`` later.
    """

    def __init__(
        self,
        source: Path,
        folder: Path,
        *,
        every: timedelta,
        keep: int = KEEP,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.source = source
        self.folder = folder
        self.every = every
        self.keep = keep
        self._now = now
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start writing backups in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="backups")

    async def close(self) -> None:
        """Stop: a backup in progress is called off at its next step and leaves no file."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def next_due(self) -> datetime:
        """When the next backup is due: ``every`` after the newest in the folder."""
        existing = backups_in(self.folder)
        return existing[-1][0] + self.every if existing else self._now()

    async def write(self) -> Path:
        """Write one backup now, named by the time, then remove all but the newest ``keep``."""
        path = self.folder / f"cascadia-{self._now().strftime(_STAMP)}.sqlite3"
        contents = await asyncio.to_thread(backup, self.source, path, stop=self._stop)
        log.info("backed the database up to %s (%s)", path, contents)
        for _, old in backups_in(self.folder)[: -self.keep]:
            old.unlink(missing_ok=True)
            log.info("removed the old backup %s", old)
        return path

    async def _run(self) -> None:
        try:
            due = self.next_due()
        except OSError:
            due = self._now()  # the folder is gone: the backup says so in the log
        while True:
            wait = (due - self._now()).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self.write()
            except Stopped:
                return
            except (BackupError, OSError):
                log.exception(
                    "the backup into %s failed; trying again in %s", self.folder, self.every
                )
            due = self._now() + self.every


# --- the commands ------------------------------------------------------------------------------


_PASSWORD_NOTE = (
    "with the password in PGPASSWORD or ~/.pgpass (not on the command line: every user of "
    "the machine can read it there)"
)


def _pg_command(url: str, template: str) -> str:
    """``template`` with ``{url}`` as the URL without its passwords (``user:password@``,
    ``?password=``): pg_dump and pg_restore take the password from the environment
    (``PGPASSWORD``) or ``~/.pgpass``, or ask for it, never from their command line, which
    every user of the machine can read. Nothing secret is printed."""
    return template.replace("{url}", f"'{without_password(url)}'")


def backup_main(arguments: Sequence[str]) -> int:
    """``cascadia-bot backup --to FILE``: returns the exit status (2 and one line on any
    refusal)."""
    parser = argparse.ArgumentParser(
        prog="cascadia-bot backup",
        description="Copy the bot's database (CASCADIA_DB), running or not, into a new file.",
    )
    parser.add_argument("--to", dest="target", required=True, help="the new backup file")
    options = parser.parse_args(arguments)
    target = Path(options.target)
    database = database_from_env()
    if is_postgres_url(database):
        command = _pg_command(database, f"pg_dump --format=custom --file={target} {{url}}")
        print(
            "cascadia-bot backup: CASCADIA_DB is a PostgreSQL database; back it up with "
            f"pg_dump:\n  {command}\n{_PASSWORD_NOTE}",
            file=sys.stderr,
        )
        return 2
    try:
        contents = backup(Path(database), target)
    except BackupError as error:
        print(f"cascadia-bot backup: {error}", file=sys.stderr)
        return 2
    print(f"backed up {database} to {target}: {contents}; integrity check ok")
    return 0


def restore_main(arguments: Sequence[str]) -> int:
    """``cascadia-bot restore --from FILE``: returns the exit status (2 and one line on any
    refusal)."""
    parser = argparse.ArgumentParser(
        prog="cascadia-bot restore",
        description="Replace the bot's database (CASCADIA_DB) with a backup; the bot stopped.",
    )
    parser.add_argument("--from", dest="source", required=True, help="the backup file")
    options = parser.parse_args(arguments)
    source = Path(options.source)
    database = database_from_env()
    if is_postgres_url(database):
        command = _pg_command(database, f"pg_restore --clean --if-exists --dbname={{url}} {source}")
        print(
            "cascadia-bot restore: CASCADIA_DB is a PostgreSQL database; restore a pg_dump "
            f"backup with pg_restore, the bot stopped:\n  {command}\n{_PASSWORD_NOTE}",
            file=sys.stderr,
        )
        return 2
    try:
        restored = restore(source, Path(database))
    except BackupError as error:
        print(f"cascadia-bot restore: {error}", file=sys.stderr)
        return 2
    print(f"restored {source} into {database}: {restored.contents}")
    if restored.aside is not None:
        print(f"the database it replaced is kept as {restored.aside}")
    return 0
