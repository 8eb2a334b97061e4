"""The start-up check of a PostgreSQL ``CASCADIA_DB``: one clear line for each way the
database can be out of reach, never the password, against the session's real server."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.db.schema import load_migrations
from bot.ops.config import Settings
from bot.ops.preflight import StartupError, check_postgres
from bot.stores import PostgresStore
from sandbox.pgserver import PostgresServer

ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "hunter2-not-for-logs"
TOKEN = "MTIz.secret-token-value"


def closed_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (the socket that had it is closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_server_that_is_not_there() -> None:
    url = f"postgresql://bot:{PASSWORD}@127.0.0.1:{closed_port()}/cascadia"
    with pytest.raises(StartupError) as refused:
        check_postgres(url)
    message = str(refused.value)
    assert message.startswith("cannot reach the PostgreSQL server of CASCADIA_DB")
    assert "is it running" in message
    assert PASSWORD not in message
    assert "bot:***@127.0.0.1" in message
    assert "\n" not in message


def test_a_missing_database(postgres_server: PostgresServer) -> None:
    with pytest.raises(StartupError, match="does not exist on that PostgreSQL server"):
        check_postgres(postgres_server.url(database="no_such_database"))


def test_an_unknown_user(postgres_server: PostgresServer) -> None:
    url = postgres_server.url().replace("cascadia@", f"stranger:{PASSWORD}@", 1)
    with pytest.raises(StartupError) as refused:
        check_postgres(url)
    message = str(refused.value)
    assert message.startswith("PostgreSQL refused the bot at CASCADIA_DB")
    assert 'role "stranger" does not exist' in message
    assert PASSWORD not in message


def test_a_url_that_is_not_one() -> None:
    with pytest.raises(StartupError, match="not a usable PostgreSQL URL") as refused:
        check_postgres(f"postgresql://bot:{PASSWORD}@127.0.0.1:notaport/cascadia")
    assert PASSWORD not in str(refused.value)


def test_a_database_that_answers(postgres_url: str) -> None:
    check_postgres(postgres_url)


def test_the_url_decides_the_backend_and_stays_out_of_repr() -> None:
    url = f"postgresql://bot:{PASSWORD}@db:5432/cascadia"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "CASCADIA_DB": url})
    assert settings.db_url == url
    assert settings.database == url
    assert PASSWORD not in repr(settings)
    # The one local file (the command sync record) goes to the cache folder, not the cwd.
    cached = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "CASCADIA_DB": url, "XDG_CACHE_HOME": "/var/cache/x"}
    )
    assert cached.db_path == Path("/var/cache/x/cascadia-bot/postgresql")
    sqlite = Settings.from_env({"DISCORD_TOKEN": TOKEN, "CASCADIA_DB": "/data/x.sqlite3"})
    assert sqlite.db_url is None
    assert sqlite.database == "/data/x.sqlite3"


@pytest.mark.parametrize(
    "form",
    [
        "postgresql://bot:{password}@127.0.0.1:{port}/cascadia",
        "postgresql://bot@127.0.0.1:{port}/cascadia?password={password}",
        "postgresql://bot@127.0.0.1:{port}/cascadia?sslmode=disable&password={password}",
    ],
)
def test_the_bot_stops_with_one_line(form: str) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    url = form.format(password=PASSWORD, port=closed_port())
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        env={**base, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "CASCADIA_DB": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("cascadia-bot: cannot reach the PostgreSQL server")
    assert PASSWORD not in done.stderr + done.stdout
    assert TOKEN not in done.stderr + done.stdout


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (f"postgresql://bot:{PASSWORD}@127.0.0.1:99999/cascadia", "'99999' is not a port"),
        (f"postgresql://bot:{PASSWORD}@[::1/cascadia", "must be an IPv6 address, closed"),
        (f"postgresql://bot@[::1]:70000/cascadia?password={PASSWORD}", "'70000' is not a port"),
        (f"postgresql://bot@/cascadia?host=/run/pg&port=0&password={PASSWORD}", "'0' is not a"),
    ],
)
def test_an_impossible_url_is_one_line(url: str, words: str) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        env={**base, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "CASCADIA_DB": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("cascadia-bot: CASCADIA_DB is not a usable PostgreSQL URL ("), line
    assert words in line
    assert PASSWORD not in done.stderr + done.stdout


async def test_a_database_of_a_newer_bot_is_refused_before_discord(postgres_url: str) -> None:
    async with PostgresStore.open(postgres_url) as store, store.transaction() as db:
        await db.execute("UPDATE schema_version SET version = 99")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    env = {
        **base,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "CASCADIA_DB": postgres_url,
        # Nothing listens there: the bot must stop before it would wait for Discord.
        "DISCORD_API_BASE": f"http://127.0.0.1:{closed_port()}/api/v10",
    }
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    known = len(load_migrations("postgres"))
    assert done.stderr.splitlines() == [
        f"cascadia-bot: the database in CASCADIA_DB ({postgres_url}) was written by a newer "
        f"version of the bot (schema version 99, this one knows {known}): run that version on "
        "it, or restore a backup made by this one"
    ]
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT version FROM schema_version") == 99
    finally:
        await connection.close()
