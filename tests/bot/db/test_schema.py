"""What a database is made of, checked against its schema version before anything migrates
it."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.db.errors import DatabaseTooNew, ForeignDatabase, SchemaMismatch
from bot.db.schema import check_schema, load_migrations
from bot.stores import SqliteStore

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
