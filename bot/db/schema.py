"""The numbered schema migrations shipped beside this module, and how to read them.

Each ``migrations/NNNN_name.sql`` file takes an SQLite database's ``PRAGMA user_version`` from
``NNNN - 1`` to ``NNNN``; a header comment gives the reason. ``migrations/postgres/`` holds the
same migrations, number for number and name for name, in PostgreSQL's dialect (there the
version is kept in the ``schema_version`` table). ``Database`` runs them, a backend applies them.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
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


def load_migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """The migrations shipped for ``dialect`` (``bot/db/migrations``, or its ``postgres``
    folder), in order, numbered 1, 2, ... without gaps."""
    folder = resources.files("bot.db").joinpath("migrations")
    if dialect == "postgres":
        folder = folder.joinpath("postgres")
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_FILE.fullmatch(entry.name)
        if match is not None:
            found.append(
                Migration(
                    version=int(match["version"]),
                    name=match["name"],
                    sql=entry.read_text(encoding="utf-8"),
                )
            )
    found.sort(key=lambda migration: migration.version)
    check_numbering(found)
    return tuple(found)


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
