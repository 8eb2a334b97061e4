"""The numbered schema migrations shipped beside this module, and how to read them.

Each ``migrations/NNNN_name.sql`` file takes a database's schema from version ``NNNN - 1`` to
``NNNN``; a header comment gives the reason. SQLite keeps the version in ``PRAGMA
user_version``, PostgreSQL in the ``schema_version`` table. ``Database`` runs them, a dialect
applies them.

Written once. A migration is one file both databases run; ``migrations/postgres/`` holds an
override of the same number and name only where PostgreSQL needs other statements. The
migrations up to :data:`SHIPPED_TWICE` were shipped written twice, one file for each database,
and stay as they are.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal

from bot.db.errors import StoreError

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
