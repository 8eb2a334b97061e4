"""Migrations are written once from the first after those shipped twice: one file both
databases run, and a PostgreSQL override only where its statements differ."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from bot.db.errors import StoreError
from bot.db.schema import SHIPPED_TWICE, load_migrations

SHIPPED = Path(str(resources.files("bot.db").joinpath("migrations")))
NEXT = len(load_migrations()) + 1
"""The number of a migration after every shipped one."""


def _copy_shipped(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(SHIPPED, folder)
    return folder


def test_the_shipped_migrations_have_a_twin_each_up_to_the_last_shipped_twice() -> None:
    sqlite, postgres = load_migrations("sqlite"), load_migrations("postgres")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgres]
    assert len(sqlite) >= SHIPPED_TWICE
    first = (SHIPPED / "postgres" / f"0001_{sqlite[0].name}.sql").read_text(encoding="utf-8")
    assert postgres[0].sql == first != sqlite[0].sql


def test_a_migration_written_once_runs_on_both_databases(tmp_path: Path) -> None:
    folder = _copy_shipped(tmp_path)
    once = (
        f"-- {NEXT:04d}_note: one statement both databases run.\nALTER TABLE games ADD note TEXT;\n"
    )
    (folder / f"{NEXT:04d}_note.sql").write_text(once, encoding="utf-8")
    for dialect in ("sqlite", "postgres"):
        last = load_migrations(dialect, folder=folder)[-1]
        assert (last.version, last.name, last.sql) == (NEXT, "note", once)


def test_a_postgres_override_replaces_the_shared_file_for_postgres_only(tmp_path: Path) -> None:
    folder = _copy_shipped(tmp_path)
    name = f"{NEXT:04d}_note.sql"
    (folder / name).write_text("ALTER TABLE games ADD note TEXT;\n", encoding="utf-8")
    (folder / "postgres" / name).write_text("ALTER TABLE games ADD note text;\n", encoding="utf-8")
    assert load_migrations("sqlite", folder=folder)[-1].sql.endswith("TEXT;\n")
    assert load_migrations("postgres", folder=folder)[-1].sql.endswith("text;\n")


def test_an_override_without_its_shared_file_is_refused(tmp_path: Path) -> None:
    folder = _copy_shipped(tmp_path)
    stray = folder / "postgres" / f"{NEXT:04d}_stray.sql"
    stray.write_text("SELECT 1;\n", encoding="utf-8")
    with pytest.raises(StoreError, match="overrides no migration"):
        load_migrations("postgres", folder=folder)


def test_a_migration_shipped_twice_keeps_its_twin(tmp_path: Path) -> None:
    folder = _copy_shipped(tmp_path)
    next((folder / "postgres").glob("0005_*.sql")).unlink()
    with pytest.raises(StoreError, match="0005 was shipped with a postgres twin"):
        load_migrations("sqlite", folder=folder)
