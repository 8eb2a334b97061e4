"""What a database is made of, checked against its schema version before anything migrates it,
and a migration that fails: rolled back, and said in one sentence of what failed, where the
database stands and what to do."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.db.errors import DatabaseTooNew, ForeignDatabase, MigrationFailed, SchemaMismatch
from bot.db.schema import Migration, check_schema, load_migrations
from bot.ops.target import is_postgres_url
from bot.stores import PostgresStore, SqliteStore

KNOWN = len(load_migrations())
V2 = Path(__file__).parent / "data" / "v2.sqlite3"


def checked(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return check_schema(db)


@pytest.mark.parametrize("version", range(KNOWN + 1))
async def test_the_bots_own_database_passes_at_every_version(tmp_path: Path, version: int) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with SqliteStore.open(path, migrations=load_migrations()[:version]):
        pass
    assert checked(path) == version


async def test_a_database_the_bot_wrote_long_ago_passes_before_and_after_migrating(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cascadia.sqlite3"
    shutil.copyfile(V2, path)
    assert checked(path) == 2
    async with SqliteStore.open(path):
        pass
    assert checked(path) == KNOWN


def test_what_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("CREATE VIEW recent AS SELECT body FROM notes")
        with pytest.raises(ForeignDatabase) as foreign:
            check_schema(db)
        assert foreign.value.tables == ("notes", "recent")
        db.execute("PRAGMA user_version = 3")
        with pytest.raises(SchemaMismatch) as mismatch:
            check_schema(db)
        assert mismatch.value.problems[:2] == ("no table games", "no table moves")
        db.execute(f"PRAGMA user_version = {KNOWN + 1}")
        with pytest.raises(DatabaseTooNew):
            check_schema(db)


async def test_the_operators_own_tables_beside_the_bots_are_let_be(tmp_path: Path) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with SqliteStore.open(path):
        pass
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE my_notes (body TEXT)")
        db.execute("CREATE INDEX games_by_host ON games (host_id)")
        db.commit()
    assert checked(path) == KNOWN


async def test_a_failed_migration_says_what_was_applied_before_it(database: str) -> None:
    postgres = is_postgres_url(database)
    shipped = load_migrations("postgres" if postgres else "sqlite")
    kind = PostgresStore if postgres else SqliteStore
    async with kind.open(database, migrations=shipped[:1]) as store:
        assert await store.schema_version() == 1
    broken = Migration(3, "broken", "CREATE TABLE games (id INTEGER);\n")
    with pytest.raises(MigrationFailed) as failed:
        async with kind.open(database, migrations=[*shipped[:2], broken]):
            pass
    assert (failed.value.number, failed.value.version, failed.value.applied) == (3, 2, 1)
    message = str(failed.value)
    assert message.startswith("migration 0003 (broken) failed: ")
    assert "already exists" in message
    assert (
        "it was rolled back, but migration 0002 before it was applied: the database is at "
        "schema version 2. Restore a backup made by this version of the bot" in message
    )
    assert "\n" not in message
    async with kind.open(database, migrations=shipped[:2]) as store:
        assert await store.schema_version() == 2
