"""The numbered schema migrations shipped beside this module, and how to read them.

Each ``migrations/NNNN_name.sql`` file takes a database's schema from version ``NNNN - 1`` to
``NNNN``; a header comment gives the reason. SQLite keeps the version in ``PRAGMA
user_version``, PostgreSQL in the ``schema_version`` table. ``Database`` runs them, a dialect
applies them.

Written once. A migration is one file both databases run; ``migrations/postgres/`` holds an
override of the same number and name only where PostgreSQL needs other statements. The
migrations up to :data:`SHIPPED_TWICE` were shipped written twice, one file for each database,
and stay as they are.

:func:`check_schema` reads an SQLite file's version and tables before anything migrates it:
one written by a newer bot, another application's file (tables, no version) and a file whose
tables are not those of its version (a backup put together by hand) are refused, since
migrating them would fail halfway or fill someone else's database with the bot's tables.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

from bot.db.errors import DatabaseTooNew, ForeignDatabase, SchemaMismatch, StoreError
from bot.ops.preflight import StartupError

_MIGRATION_FILE = re.compile(r"(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class Migration:
    """One numbered schema upgrade: the SQL that takes ``user_version`` to ``version``.

    The SQL holds no BEGIN/COMMIT: the runner wraps each migration in its own transaction.
    """

    version: int
    name: str
    sql: str

    @property
    def statements(self) -> tuple[str, ...]:
        """The SQL split into single statements."""
        return split_statements(self.sql)


Dialect = Literal["sqlite", "postgres"]
"""The SQL dialects the migrations are shipped in."""


SHIPPED_TWICE = 12
"""The last migration shipped as two files, one for each database: every one up to it has its
``postgres`` twin; from the next one on, a migration is written once."""


def load_migrations(
    dialect: Dialect = "sqlite", *, folder: Traversable | None = None
) -> tuple[Migration, ...]:
    """The migrations for ``dialect``, in order, numbered 1, 2, ... without gaps: each one's
    shared file, or for PostgreSQL its override where there is one. ``folder`` replaces the
    shipped ``bot/db/migrations`` (for tests of the rule)."""
    if folder is None:
        folder = resources.files("bot.db").joinpath("migrations")
    shared = _migrations_in(folder)
    overrides = _migrations_in(folder.joinpath("postgres"))
    for version, override in overrides.items():
        own = shared.get(version)
        if own is None or own.name != override.name:
            raise StoreError(
                f"postgres/{version:04d}_{override.name}.sql overrides no migration of its"
                " number and name"
            )
    for version in shared:
        if version <= SHIPPED_TWICE and version not in overrides:
            raise StoreError(f"migration {version:04d} was shipped with a postgres twin: missing")
    chosen = overrides if dialect == "postgres" else {}
    found = sorted((chosen.get(v, m) for v, m in shared.items()), key=lambda m: m.version)
    check_numbering(found)
    return tuple(found)


def _migrations_in(folder: Traversable) -> dict[int, Migration]:
    """The migration files directly in ``folder``, by version (none if it does not exist)."""
    if not folder.is_dir():
        return {}
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = _MIGRATION_FILE.fullmatch(entry.name)
        if match is not None:
            version = int(match["version"])
            if version in found:
                raise StoreError(f"two migrations numbered {version:04d} in {folder.name}")
            found[version] = Migration(
                version=version, name=match["name"], sql=entry.read_text(encoding="utf-8")
            )
    return found


def check_numbering(migrations: Sequence[Migration]) -> None:
    """Raise :class:`StoreError` unless the migrations are numbered 1, 2, ... in order."""
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, ... without gaps: {versions}")


@dataclass(frozen=True)
class Schema:
    """What an SQLite database is made of, by name (SQLite's own ``sqlite_*`` left out)."""

    tables: Mapping[str, frozenset[str]]
    """Each table with its columns' names."""
    others: frozenset[str]
    """Its indexes, triggers and views, as ``"index outbox_pending"``."""

    @property
    def names(self) -> frozenset[str]:
        """Everything in it, tables as ``"table games"``."""
        return self.others | {f"table {name}" for name in self.tables}


@functools.cache
def expected_schema(version: int) -> Schema:
    """What the shipped SQLite migrations make by ``version``: what a database at that version
    holds, worked out by running them on an empty one in memory."""
    with contextlib.closing(sqlite3.connect(":memory:", isolation_level=None)) as db:
        for migration in load_migrations()[:version]:
            for statement in migration.statements:
                db.execute(statement)
        return schema_of(db)


def schema_of(db: sqlite3.Connection) -> Schema:
    """What the database ``db`` is made of."""
    rows = [
        (str(kind), str(name))
        for kind, name in db.execute("SELECT type, name FROM sqlite_master")
        if not str(name).startswith("sqlite_")
    ]
    columns = "SELECT name FROM pragma_table_info(?)"
    return Schema(
        tables={
            name: frozenset(str(column) for (column,) in db.execute(columns, (name,)))
            for kind, name in rows
            if kind == "table"
        },
        others=frozenset(f"{kind} {name}" for kind, name in rows if kind != "table"),
    )


def check_schema(db: sqlite3.Connection) -> int:
    """The schema version of the SQLite database ``db``, once what it is made of is checked
    against it: raises :class:`DatabaseTooNew` (a newer bot's), :class:`ForeignDatabase`
    (tables but no version: another application's) or :class:`SchemaMismatch` (a table,
    column, index or trigger of its version missing, or one that only a later version
    makes). What the operator added beside the bot's is let be."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    known = len(load_migrations())
    if version > known:
        raise DatabaseTooNew(version, known)
    found = schema_of(db)
    if version == 0:
        # The bot's first migration sets version 1 in the transaction that makes its tables.
        if found.names:
            raise ForeignDatabase(tuple(sorted(name.partition(" ")[2] for name in found.names)))
        return 0
    expected = expected_schema(version)
    problems = [f"no table {name}" for name in sorted(expected.tables.keys() - found.tables)]
    for table, columns in sorted(expected.tables.items()):
        have = found.tables.get(table)
        if have is not None:
            problems += [f"no column {table}.{column}" for column in sorted(columns - have)]
    problems += [f"no {name}" for name in sorted(expected.others - found.others)]
    later = expected_schema(known).names - expected.names
    problems += [f"{name} of a later version" for name in sorted(later & found.names)]
    if problems:
        raise SchemaMismatch(version, tuple(problems))
    return version


def refuse_at_start(path: Path, db: sqlite3.Connection) -> None:
    """:func:`check_schema` before the bot (or ``cascadia-bot migrate``) opens the file
    ``path``: each refusal a :class:`~bot.ops.preflight.StartupError` saying what to do (see
    :func:`~bot.ops.preflight.check_database`)."""
    try:
        check_schema(db)
    except DatabaseTooNew as error:
        raise StartupError(
            f"{path} was written by a newer version of the bot (schema version {error.found}, "
            f"this one knows {error.known}): run that version on it, or restore a backup made "
            "by this one"
        ) from None
    except ForeignDatabase as error:
        raise StartupError(
            f"{path} is not the bot's database: {error}. Name the bot's database instead, or "
            "a new file name to start an empty one"
        ) from None
    except SchemaMismatch as error:
        raise StartupError(
            f"{path} is not a database of the bot as its version says: {error}. Restore a "
            "backup of the bot's database (cascadia-bot restore), or name the bot's database"
        ) from None


def split_statements(script: str) -> tuple[str, ...]:
    """Split an SQL script into single statements (triggers with inner ``;`` stay whole).

    Comments before a statement stay with it; trailing comments are dropped. Raises
    ``ValueError`` on a final statement without its ``;``.
    """
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statements.append(script[start : index + 1].strip())
            start = index + 1
    rest = [line for line in script[start:].splitlines() if line.strip() and not _is_comment(line)]
    if rest:
        raise ValueError(f"unterminated sql statement: {rest[0].strip()!r}")
    return tuple(statements)


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("--")
