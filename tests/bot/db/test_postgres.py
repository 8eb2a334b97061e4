"""What is particular to :class:`PostgresStore`, against the session's real PostgreSQL server:
its migrations and their version table, the refusal of a newer database, the schema's
backstops, transactions, several stores (processes) on one database, and choosing the backend
from ``CASCADIA_DB``. The behaviour both stores share is tested once for both in
``test_store.py``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import asyncpg
import pytest

from bot.db.errors import DatabaseTooNew, MigrationFailed, StoreError
from bot.db.schema import Migration, load_migrations
from bot.ops.target import describe, is_postgres_url, safe_url
from bot.stores import PostgresStore, SqliteStore, open_store
from tests.bot.clocks import FakeClock
from tests.bot.game.test_store import BOB, CHANNEL, HOST, lobby, move, started


@pytest.fixture
async def store(postgres_url: str, clock: FakeClock) -> AsyncIterator[PostgresStore]:
    async with PostgresStore.open(postgres_url, now=clock) as opened:
        yield opened


async def scalar(url: str, sql: str) -> object:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()


def test_both_dialects_ship_the_same_migrations() -> None:
    sqlite = load_migrations()
    postgres = load_migrations("postgres")
    assert [(m.version, m.name) for m in postgres] == [(m.version, m.name) for m in sqlite]
    for migration in postgres:
        assert migration.sql.startswith(f"-- {migration.version:04d}_{migration.name}: ")
        # The runner owns the transaction around each migration.
        assert not re.search(r"^\s*(BEGIN|COMMIT|ROLLBACK)\s*;", migration.sql, re.I | re.M)


async def test_migrations_from_empty(store: PostgresStore, postgres_url: str) -> None:
    assert await store.schema_version() == len(load_migrations("postgres"))
    tables = await scalar(
        postgres_url,
        "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables"
        " WHERE schemaname = current_schema()",
    )
    assert tables == (
        "achievements,away_periods,daily_attempts,daily_channels,daily_posts,daily_shares,games,"
        "hints,"
        "league_members,leagues,moves,notify_settings,outbox,outbox_snapshots,packed_moves,panels,"
        "people,person_locales,ratings,"
        "results,round_scores,schema_version,seats,server_locales,server_settings,skip_polls,"
        "skip_votes"
    )


async def test_each_applied_migration_is_logged(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.db.postgres"):
        async with PostgresStore.open(postgres_url):
            pass
    applied = [r.getMessage() for r in caplog.records if r.getMessage().startswith("applied")]
    assert applied == [f"applied migration {m.version:04d} {m.name}" for m in load_migrations()]
    caplog.clear()
    async with PostgresStore.open(postgres_url) as again:
        assert await again.schema_version() == len(applied)
    assert not [r for r in caplog.records if r.getMessage().startswith("applied")]


async def test_reopen_keeps_data(postgres_url: str, clock: FakeClock) -> None:
    async with PostgresStore.open(postgres_url, now=clock) as first:
        game = await started(first)
        await move(first, game)
    async with PostgresStore.open(postgres_url, now=clock) as second:
        assert len(await second.moves(game.id)) == 1
        stored = await second.get_game(game.id)
        assert stored is not None
        assert stored.revision == game.revision + 1


async def test_refuses_a_newer_database(store: PostgresStore, postgres_url: str) -> None:
    known = len(load_migrations("postgres"))
    await scalar(postgres_url, f"UPDATE schema_version SET version = {known + 1}")
    with pytest.raises(DatabaseTooNew) as too_new:
        await PostgresStore.connect(postgres_url)
    assert (too_new.value.found, too_new.value.known) == (known + 1, known)
    assert str(too_new.value) == (
        f"database schema version {known + 1} is newer than this code knows ({known})"
    )
    assert await scalar(postgres_url, "SELECT version FROM schema_version") == known + 1


async def test_a_failing_migration_leaves_the_last_good_version(postgres_url: str) -> None:
    shipped = load_migrations("postgres")
    broken = Migration(
        version=len(shipped) + 1,
        name="broken",
        sql="CREATE TABLE extra (x integer);\nCREATE TABLE games (y integer);\n",
    )
    with pytest.raises(MigrationFailed, match='relation "games" already exists') as failed:
        await PostgresStore.connect(postgres_url, migrations=[*shipped, broken])
    assert isinstance(failed.value.__cause__, asyncpg.DuplicateTableError)
    assert await scalar(postgres_url, "SELECT version FROM schema_version") == len(shipped)
    assert await scalar(postgres_url, "SELECT to_regclass('extra') IS NULL") is True
    async with PostgresStore.open(postgres_url) as store:
        assert await store.schema_version() == len(shipped)


async def test_migrations_must_have_no_gaps(postgres_url: str) -> None:
    with pytest.raises(StoreError, match="without gaps"):
        await PostgresStore.connect(postgres_url, migrations=[Migration(2, "two", "SELECT 1;")])


async def test_two_stores_migrating_at_once_migrate_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.connect(postgres_url) for _ in range(3)))
    try:
        assert {await store.schema_version() for store in stores} == {len(load_migrations())}
    finally:
        for store in stores:
            await store.close()


async def test_schema_backstops(store: PostgresStore, postgres_url: str) -> None:
    game = await started(store)
    await move(store, game)
    connection = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.UniqueViolationError):
            await connection.execute(
                "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
                " updated_at, revision) VALUES (1, $1, 'lobby', 1, '', now(), now(), 1)",
                CHANNEL,
            )
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await connection.execute("UPDATE moves SET action = 'rewritten'")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await connection.execute("DELETE FROM moves")
        with pytest.raises(asyncpg.CheckViolationError):
            await connection.execute("UPDATE games SET status = 'paused'")
    finally:
        await connection.close()


async def test_transaction_rolls_back_on_error(store: PostgresStore) -> None:
    game = await lobby(store)

    async def change_then_fail() -> None:
        async with store.transaction() as db:
            await db.execute("UPDATE games SET cards = 'changed' WHERE id = $1", game.id)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await change_then_fail()
    assert await store.get_game(game.id) == game
    await store.join(game.id, BOB, "Bob")


async def test_transaction_is_not_reentrant(store: PostgresStore) -> None:
    game = await lobby(store)
    with pytest.raises(RuntimeError, match="deadlock"):
        async with store.transaction():
            await store.get_game(game.id)


async def test_a_cancelled_move_is_all_or_nothing(store: PostgresStore) -> None:
    game = await started(store)
    for _ in range(20):
        current = await store.get_game(game.id)
        assert current is not None
        task = asyncio.create_task(move(store, current))
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        stored = await store.get_game(game.id)
        assert stored is not None
        applied = len(await store.moves(game.id))
        assert stored.revision == game.revision + applied
        assert len(await store.pending(1_000)) == 1 + applied


async def test_many_concurrent_joins_fill_the_seats_once(store: PostgresStore) -> None:
    game = await lobby(store)
    results = await asyncio.gather(
        *(store.join(game.id, 100 + n, f"P{n}") for n in range(8)), return_exceptions=True
    )
    seated = [result for result in results if not isinstance(result, BaseException)]
    refused = [type(result).__name__ for result in results if isinstance(result, BaseException)]
    assert len(seated) == 3
    assert set(refused) == {"LobbyFull"}
    assert [seat.seat for seat in await store.seats(game.id)] == [0, 1, 2, 3]


async def test_two_lobbies_at_once_in_one_channel(store: PostgresStore) -> None:
    results = await asyncio.gather(
        *(store.create_lobby(1, CHANNEL, HOST + n, "Ada", "A,A,A,A,A") for n in range(4)),
        return_exceptions=True,
    )
    assert sorted(type(result).__name__ for result in results) == [
        "ChannelBusy",
        "ChannelBusy",
        "ChannelBusy",
        "GameRow",
    ]


def test_the_url_decides_the_backend() -> None:
    assert is_postgres_url("postgresql://bot@db/cascadia")
    assert is_postgres_url("postgres://bot@db/cascadia")
    assert is_postgres_url("PostgreSQL://bot@db/cascadia")
    assert not is_postgres_url("./cascadia.sqlite3")
    assert not is_postgres_url("postgresql.sqlite3")
    assert not is_postgres_url(Path("postgresql://x"))


def test_a_password_is_never_shown() -> None:
    url = "postgresql://bot:s3cret@db.example:5432/cascadia?sslmode=require"
    assert safe_url(url) == "postgresql://bot:***@db.example:5432/cascadia?sslmode=require"
    assert describe(url) == safe_url(url)
    assert "s3cret" not in describe(url)
    assert describe("/data/cascadia.sqlite3") == "/data/cascadia.sqlite3"
    assert safe_url("postgresql://bot@db/cascadia") == "postgresql://bot@db/cascadia"
    # libpq's other place for it, and URLs too broken for urlsplit (the start-up error quotes
    # them).
    query = "postgresql://bot@db/cascadia?sslmode=require&password=s3cret"
    assert describe(query) == "postgresql://bot@db/cascadia?sslmode=require&password=***"
    assert safe_url("postgresql://bot:s3cret@[::1/x") == "postgresql://bot:***@[::1/x"
    assert safe_url("postgresql://b:s3cret@h:99999/x") == "postgresql://b:***@h:99999/x"


async def test_open_store_picks_the_backend(postgres_url: str, tmp_path: Path) -> None:
    async with open_store(postgres_url) as store:
        assert isinstance(store, PostgresStore)
    async with open_store(str(tmp_path / "x.sqlite3")) as store:
        assert isinstance(store, SqliteStore)


async def test_naive_times_are_refused(store: PostgresStore) -> None:
    game = await started(store)
    with pytest.raises(ValueError, match="naive"):
        await store.due_reminders(datetime(2024, 5, 1, 18, 0))
    with pytest.raises(ValueError, match="naive"):
        await move(store, game, turn_started_at=datetime(2024, 5, 2))


async def test_closed_store(postgres_url: str) -> None:
    store = await PostgresStore.connect(postgres_url)
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.get_game(1)
