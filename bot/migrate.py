"""``cascadia-bot migrate --from cascadia.sqlite3 --to postgresql://...``: move the bot's
games from its SQLite file into an empty PostgreSQL database.

Every row of every table is copied with its id (games, outbox messages and periods of time
away keep theirs, so buttons and Discord nonces that carry them still work), in one
transaction; the id sequences then continue after the largest id ever handed out. The counts
of both sides are compared before the transaction commits, and printed. The SQLite file is
first brought to the current schema (as the bot would at start) and locked like the bot locks
it, so a bot still running on it is refused; the target must hold no rows.

Stop the bot before, point ``CASCADIA_DB`` at the URL after. The target's password comes from
the environment (``PGPASSWORD``) or a password file (``~/.pgpass``, or the one ``PGPASSFILE``
names), never from ``--to``: a command line is readable by every user of the machine. A
password in ``--to`` is still taken, with a warning.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.db.errors import StoreError
from bot.db.postgres import PostgresDatabase
from bot.db.schema import load_migrations, refuse_at_start
from bot.db.sqlite import SqliteDatabase
from bot.game.packing import PackDamaged, unpack_state
from bot.ops.preflight import StartupError, check_database, check_postgres
from bot.ops.target import has_password, hide_passwords, is_postgres_url, safe_url

TABLES = (
    "games",
    "seats",
    "moves",
    "packed_moves",
    "outbox",
    "outbox_snapshots",
    "panels",
    "people",
    "away_periods",
    "skip_polls",
    "skip_votes",
    "hints",
    "round_scores",
    "results",
    "leagues",
    "league_members",
    "ratings",
    "daily_attempts",
    "daily_channels",
    "daily_posts",
    "daily_shares",
    "notify_settings",
    "server_settings",
    "achievements",
    "server_locales",
    "person_locales",
)
"""Every table of the schema, each after the tables it refers to."""

_BATCH = 5_000
"""Rows read from SQLite and sent to PostgreSQL at a time."""


class MigrateError(Exception):
    """The copy cannot be made; the message says why. Nothing was written."""


def copy_database(
    source: Path, target: str, *, say: Callable[[str], None] = print
) -> dict[str, int]:
    """Copy every row of the SQLite database ``source`` into the empty PostgreSQL database
    ``target``; returns the rows copied per table (checked equal on both sides)."""
    if not source.is_file():
        raise MigrateError(f"{source} is not a file: name the bot's SQLite database")
    lock = check_database(source, contents=refuse_at_start)
    try:
        return asyncio.run(_copy_database(source, source.resolve().as_uri(), target, say))
    finally:
        lock.release()


async def _copy_database(
    source: Path, uri: str, target: str, say: Callable[[str], None]
) -> dict[str, int]:
    async with SqliteDatabase.open(source):
        pass  # brings the file to the current schema, or refuses a newer one
    # A plain read-only connection: reading blocks the loop, but this command does nothing else.
    reader = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        async with PostgresDatabase.open(target) as store:
            return await _copy(reader, store, say)
    finally:
        reader.close()


async def _copy(
    reader: sqlite3.Connection, store: PostgresDatabase, say: Callable[[str], None]
) -> dict[str, int]:
    counts: dict[str, int] = {}
    async with store.transaction() as db:
        await _refuse_rows(db)
        for table in TABLES:
            counts[table] = await _copy_table(reader, db, table)
        await _continue_sequences(reader, db)
        for table, expected in counts.items():
            found = int(await db.fetchval(f"SELECT count(*) FROM {table}"))
            if found != expected:
                raise MigrateError(
                    f"{table}: {expected} rows in SQLite but {found} in PostgreSQL; "
                    "nothing was copied"
                )
    for table, count in counts.items():
        say(f"{table:<17} {count:>9}")
    say(f"copied {sum(counts.values())} rows; the counts of both databases match")
    return counts


async def _refuse_rows(db: Any) -> None:
    for table in TABLES:
        if await db.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise MigrateError(
                f"the PostgreSQL database is not empty (its {table} table has rows): "
                "migrate into a new, empty database"
            )


async def _copy_table(reader: sqlite3.Connection, db: Any, table: str) -> int:
    # Table names come from TABLES above, never from input.
    columns = await db.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    names = [str(column["column_name"]) for column in columns]
    times = {str(c["column_name"]) for c in columns if str(c["data_type"]).startswith("timestamp")}
    have = [str(row[1]) for row in reader.execute(f"PRAGMA table_info({table})")]
    if sorted(have) != sorted(names):
        raise MigrateError(
            f"the {table} tables differ: SQLite has {', '.join(have)}; "
            f"PostgreSQL has {', '.join(names)}"
        )
    convert = [_to_time if name in times else _same for name in names]
    if table == "games":
        convert[names.index("state")] = _to_text
    cursor = reader.execute(f"SELECT {', '.join(names)} FROM {table}")
    copied = 0
    for batch in _batches(cursor):
        records = [tuple(f(value) for f, value in zip(convert, row, strict=True)) for row in batch]
        await db.copy_records_to_table(table, records=records, columns=names)
        copied += len(records)
    return copied


async def _continue_sequences(reader: sqlite3.Connection, db: Any) -> None:
    """Set each id sequence past the largest id SQLite ever handed out (AUTOINCREMENT keeps
    it in sqlite_sequence, even for rows deleted since)."""
    handed_out = dict(reader.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    for table in ("games", "outbox", "away_periods"):
        largest = max(
            int(handed_out.get(table) or 0),
            int(await db.fetchval(f"SELECT COALESCE(MAX(id), 0) FROM {table}")),
        )
        if largest > 0:
            await db.execute("SELECT setval(pg_get_serial_sequence($1, 'id'), $2)", table, largest)


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[Any]]:
    while batch := cursor.fetchmany(_BATCH):
        yield batch


def _to_time(value: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def _to_text(value: object) -> object:
    # A finished game's state that SQLite keeps packed (see Store.compact_finished) is text
    # again in PostgreSQL, which compresses long text by itself.
    if not isinstance(value, bytes):
        return value
    try:
        return unpack_state(value)
    except PackDamaged as error:
        raise MigrateError(f"a game's packed state cannot be unpacked ({error})") from None


def _same(value: object) -> object:
    return value


PASSWORD_WARNING = (
    "cascadia-bot migrate: warning: the password in --to can be read by every user of this "
    "machine while the command runs (ps); leave it out of the URL and give it in PGPASSWORD or "
    "~/.pgpass instead"
)


def main(arguments: Sequence[str]) -> int:
    """``cascadia-bot migrate``: returns the exit status (2 and one line on any refusal)."""
    parser = argparse.ArgumentParser(
        prog="cascadia-bot migrate",
        description="Copy the bot's SQLite database into an empty PostgreSQL database.",
        epilog="The password of the PostgreSQL user is read from PGPASSWORD or ~/.pgpass "
        "(PGPASSFILE), not from --to.",
    )
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file")
    parser.add_argument(
        "--to",
        dest="target",
        required=True,
        help="a postgresql:// URL, without the password (postgresql://user@host/database)",
    )
    options = parser.parse_args(arguments)
    target = str(options.target)
    try:
        if not is_postgres_url(target):
            raise MigrateError(
                f"--to must be a postgresql:// URL, not {safe_url(target)!r}: the SQLite file "
                "is --from"
            )
        check_postgres(target, name="--to", known_version=len(load_migrations("postgres")))
        copy_database(Path(options.source), target)
    except (MigrateError, StartupError, StoreError) as error:
        print(f"cascadia-bot migrate: {hide_passwords(str(error), target)}", file=sys.stderr)
        return 2
    except (asyncpg.PostgresError, sqlite3.Error) as error:
        shown, said = safe_url(target), hide_passwords(str(error), target)
        print(f"cascadia-bot migrate: copying into {shown} failed: {said}", file=sys.stderr)
        return 2
    known = len(load_migrations("postgres"))
    print(f"{safe_url(target)} is at schema version {known}: set CASCADIA_DB to it")
    if has_password(target):
        # Still taken, as the docs once showed it; said after the copy, so that a refusal
        # stays one line.
        print(PASSWORD_WARNING, file=sys.stderr)
    return 0
