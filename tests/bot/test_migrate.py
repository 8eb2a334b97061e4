"""``cascadia-bot migrate``: an SQLite database played through the service, copied into
PostgreSQL, reads back the same through both stores, and the copy's ids go on from where
SQLite's stopped. Against the session's real PostgreSQL server."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.attendance.store import NotifySettings
from bot.game.rows import GameStatus, OutboxMessage, ReminderNote
from bot.game.service import GameService, LoadedGame
from bot.migrate import TABLES, MigrateError, copy_database
from bot.stores import PostgresStore, SqliteStore, Store
from engine import Move, PlaceTile, PlaceToken, Take, apply, legal_actions
from sandbox.pgserver import SUPERUSER, PostgresServer

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1
FINISHED, PLAYING, LOBBY = 10, 11, 12
ADA, BOB, CY = 100, 200, 300
USERS = (ADA, BOB, CY)
START = datetime(2024, 5, 1, 12, tzinfo=UTC)


class Clock:
    """A clock that moves one minute each time it is read, so times differ."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def any_turn(table: LoadedGame, rng: random.Random) -> Move:
    """A random legal whole turn for the current player."""
    state = table.require_state()
    pair = rng.randint(1, 4)
    taken = apply(state, Take(pair, pair))
    place = rng.choice([a for a in legal_actions(taken) if isinstance(a, PlaceTile)])
    placed = apply(taken, place)
    token = rng.choice([a for a in legal_actions(placed) if isinstance(a, PlaceToken)])
    return Move(pair, pair, place.at, place.rotation, token.at)


async def play_turns(service: GameService, channel: int, rng: random.Random, count: int) -> None:
    table = await service.game(channel)
    for _ in range(count):
        if table.game.status is not GameStatus.ACTIVE:
            return
        mover = table.players[table.require_state().current].user_id
        await service.turns.play(channel, user_id=mover, move=any_turn(table, rng))
        table = await service.game_by_id(table.game.id)


async def fill(path: Path) -> None:
    """A database with a finished game, a game in play (a hint, a panel, a vote to skip,
    messages sent, failed and pending), a lobby, quiet hours and time away."""
    clock = Clock()
    rng = random.Random(14)
    async with SqliteStore.open(path, now=clock) as store:
        service = GameService(store, now=clock, seeds=lambda: 5)
        for channel in (FINISHED, PLAYING):
            table = await service.lobby.open_lobby(
                guild_id=GUILD, channel_id=channel, user_id=ADA, name="Ada", cards="A"
            )
            await service.lobby.join(table.game.id, user_id=BOB, name="Bob")
            await service.lobby.start(table.game.id, user_id=ADA)
        await play_turns(service, FINISHED, rng, 100)
        await play_turns(service, PLAYING, rng, 5)
        table = await service.game(PLAYING)
        mover = table.players[table.require_state().current].user_id
        await service.turns.hint(PLAYING, user_id=mover)
        await store.save_panel(
            table.game.id,
            mover,
            turn=5,
            revision=table.game.revision,
            draft="{}",
            expected_version=None,
        )
        await store.open_skip_poll(
            table.game.id,
            table.game.revision,
            turn=table.require_state().turn,
            user_id=mover,
            outbox_messages=[OutboxMessage(kind="vote", payload='{"text": "vote?"}')],
        )
        await store.add_skip_vote(table.game.id, table.require_state().turn, ADA)
        lobby = await service.lobby.open_lobby(
            guild_id=GUILD, channel_id=LOBBY, user_id=CY, name="Cy", cards="A"
        )
        await store.set_lobby_message(lobby.game.id, 555)
        await store.set_quiet(ADA, start=22, end=7, zone="Europe/Paris")
        await store.set_away(BOB, starts_at=START, ends_at=START + timedelta(days=3), note="off")
        await store.set_away(CY, starts_at=START, ends_at=START + timedelta(days=1), note=None)
        await store.clear_away(CY, now=START + timedelta(hours=1))
        await store.save_notify_settings(
            NotifySettings(
                BOB,
                dm=True,
                digest_hour=8,
                channel_ping=False,
                dms_refused_at=START,
                digest_day="2026-05-01",
            )
        )
        pending = await store.pending(1_000)
        for row in pending[:-3]:
            await store.mark_sent(row.id, 9_000 + row.id)
        await store.mark_failed(pending[-3].id, "Discord said no")
        # A game whose rows are deleted no more: its ids must still not come back.
        await store.end_game(lobby.game.id)


async def everything(store: Store, game_ids: range) -> list[object]:
    """What the bot can read back about every game and person."""
    seen: list[object] = []
    for game_id in game_ids:
        seen += [
            await store.get_game(game_id),
            await store.seats(game_id),
            await store.moves(game_id),
            await store.hints(game_id),
            [await store.get_panel(game_id, user) for user in USERS],
        ]
    seen += [await store.get_outbox(outbox_id) for outbox_id in range(1, 200)]
    seen += [await store.person(user) for user in USERS]
    seen += [await store.notify_settings_of(USERS)]
    seen += [
        await store.open_skip_polls(),
        await store.pending(1_000),
        await store.latest_message(2),
        [(g.game.id, g.seat) for g in await store.games_for_user(ADA, statuses=list(GameStatus))],
    ]
    return seen


def run_migrate(
    *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_", "PGPASS"))
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate", *arguments],
        env={**base, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_a_played_database_copies_whole(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)

    done = await asyncio.to_thread(run_migrate, "--from", str(path), "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    printed = dict(line.split() for line in done.stdout.splitlines()[:12])
    assert set(printed) == {
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
    }
    assert printed["games"] == "3"
    assert int(printed["moves"]) > 40
    assert "the counts of both databases match" in done.stdout

    async with SqliteStore.open(path) as sqlite, PostgresStore.open(postgres_url) as postgres:
        assert await everything(postgres, range(1, 4)) == await everything(sqlite, range(1, 4))
        largest_outbox = max(row.id for row in await sqlite.pending(1_000))
        # New rows take ids after every id SQLite handed out.
        game = await postgres.create_lobby(GUILD, 99, ADA, "Ada", "A")
        assert game.id == 4
        playing = await postgres.get_active_game(PLAYING)
        assert playing is not None
        reminder = OutboxMessage(kind="reminder", payload="{}")
        note = ReminderNote(playing.id, playing.revision, None, (reminder,))
        [result] = (await postgres.record_reminders([note])).values()
        assert result.outbox_ids[0] > largest_outbox
        person = await postgres.set_away(
            ADA, starts_at=START, ends_at=START + timedelta(days=1), note=None
        )
        assert person.away[0].user_id == ADA


async def test_a_packed_game_copies_as_text_and_reads_the_same(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)
    async with SqliteStore.open(path) as sqlite:
        assert await sqlite.compact_finished(START + timedelta(days=30)) == 1
    with sqlite3.connect(path) as db:
        [(kept,)] = db.execute("SELECT typeof(state) FROM games WHERE channel_id = ?", (FINISHED,))
    assert kept == "blob"

    done = await asyncio.to_thread(run_migrate, "--from", str(path), "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    printed = dict(line.split() for line in done.stdout.splitlines()[: len(TABLES)])
    assert printed["packed_moves"] == "1"
    async with SqliteStore.open(path) as sqlite, PostgresStore.open(postgres_url) as postgres:
        assert await everything(postgres, range(1, 4)) == await everything(sqlite, range(1, 4))
        async with postgres.transaction() as db:
            kind = await db.fetchval(
                "SELECT pg_typeof(state)::text FROM games WHERE channel_id = $1", FINISHED
            )
        assert kind == "text"
        finished = await postgres.games_for_user(ADA, statuses=[GameStatus.FINISHED])
        assert len(await postgres.moves(finished[0].game.id)) == 40


async def test_a_database_with_rows_is_refused(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with SqliteStore.open(path) as store:
        await store.create_lobby(GUILD, LOBBY, ADA, "Ada", "A")
    async with PostgresStore.open(postgres_url) as postgres:
        await postgres.set_quiet(BOB, start=1, end=2, zone="UTC")

    done = await asyncio.to_thread(run_migrate, "--from", str(path), "--to", postgres_url)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "cascadia-bot migrate: the PostgreSQL database is not empty (its people table has "
        "rows): migrate into a new, empty database"
    ]
    async with PostgresStore.open(postgres_url) as postgres:
        assert await postgres.get_game(1) is None


async def test_a_copy_that_fails_writes_nothing(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    async with SqliteStore.open(path) as store:
        await store.create_lobby(GUILD, LOBBY, ADA, "Ada", "A")
    async with PostgresStore.open(postgres_url) as postgres, postgres.transaction() as db:
        # A column only PostgreSQL has: the tables no longer match.
        await db.execute("ALTER TABLE hints ADD COLUMN extra integer")
    with pytest.raises(MigrateError, match="the hints tables differ"):
        await asyncio.to_thread(copy_database, path, postgres_url, say=lambda line: None)
    async with PostgresStore.open(postgres_url) as postgres:
        assert await postgres.get_game(1) is None


@pytest.mark.parametrize(
    ("source", "target", "words"),
    [
        ("missing.sqlite3", "postgresql://x@127.0.0.1:1/db", "cannot reach the PostgreSQL"),
        ("missing.sqlite3", "elsewhere.sqlite3", "--to must be a postgresql:// URL"),
        ("missing.sqlite3", "postgresql://x@127.0.0.1:99999/db", "--to is not a usable"),
        ("missing.sqlite3", "postgresql://x@[::1/db", "--to is not a usable PostgreSQL URL"),
    ],
)
def test_one_line_errors(tmp_path: Path, source: str, target: str, words: str) -> None:
    done = run_migrate("--from", str(tmp_path / source), "--to", target)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("cascadia-bot migrate: ")
    assert words in line


def test_a_missing_file_is_named(tmp_path: Path, postgres_url: str) -> None:
    done = run_migrate("--from", str(tmp_path / "nope.sqlite3"), "--to", postgres_url)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"cascadia-bot migrate: {tmp_path / 'nope.sqlite3'} is not a file: name the bot's "
        "SQLite database"
    ]


async def test_every_table_is_copied(tmp_path: Path, postgres_url: str) -> None:
    """A table added by a later migration must join TABLES, or its rows would stay behind."""
    async with SqliteStore.open(tmp_path / "x.sqlite3"):
        pass
    connection = sqlite3.connect(tmp_path / "x.sqlite3")
    try:
        in_sqlite = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        } - {"sqlite_sequence"}
    finally:
        connection.close()
    async with PostgresStore.open(postgres_url) as postgres, postgres.transaction() as db:
        in_postgres = {
            str(row[0])
            for row in await db.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        } - {"schema_version"}
    assert in_sqlite == in_postgres == set(TABLES)


def test_another_applications_file_is_refused_and_left_as_it_was(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "notes.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.executemany("INSERT INTO notes (body) VALUES (?)", [("x",)] * 10)
        db.commit()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = run_migrate("--from", str(path), "--to", postgres_url)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"cascadia-bot migrate: {path} is not the bot's database: it holds tables that are not "
        "the bot's (notes) and no schema version. Name the bot's database instead, or a new "
        "file name to start an empty one"
    ]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite3"]


SECRET = "k33p-0ut-of-ps"


@pytest.fixture(scope="module")
def password_server(own_postgres: PostgresServer) -> PostgresServer:
    """The module's own server, where the user ``keeper`` must give its password (the others
    are let in as before); restarted, so the rule holds from the first connection on."""
    own_postgres.psql(f"CREATE ROLE keeper LOGIN PASSWORD '{SECRET}'")
    own_postgres.psql("CREATE DATABASE kept OWNER keeper", database="postgres")
    hba = own_postgres.data / "pg_hba.conf"
    hba.write_text("local all keeper scram-sha-256\n" + hba.read_text())
    own_postgres.halt()
    own_postgres.launch()
    return own_postgres


@pytest.fixture
def keepers_url(password_server: PostgresServer) -> str:
    """A new empty schema of ``keeper``'s, as a URL without the password."""
    schema = f"kept_{next(_schemas)}"
    password_server.psql(f'CREATE SCHEMA "{schema}" AUTHORIZATION keeper', database="kept")
    url = password_server.url(schema, database="kept")
    return url.replace(f"//{SUPERUSER}@", "//keeper@", 1)


_schemas = itertools.count()


async def test_the_password_comes_from_the_environment(tmp_path: Path, keepers_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)
    done = await asyncio.to_thread(
        run_migrate, "--from", str(path), "--to", keepers_url, env={"PGPASSWORD": SECRET}
    )
    assert done.returncode == 0, done.stderr
    assert "the counts of both databases match" in done.stdout
    assert done.stderr == ""
    assert SECRET not in done.stdout


async def test_or_from_a_password_file(tmp_path: Path, keepers_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)
    passfile = tmp_path / "pgpass"
    passfile.write_text(f"*:*:kept:keeper:{SECRET}\n")
    passfile.chmod(0o600)
    done = await asyncio.to_thread(
        run_migrate, "--from", str(path), "--to", keepers_url, env={"PGPASSFILE": str(passfile)}
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


async def test_a_password_in_the_url_still_works_with_a_warning(
    tmp_path: Path, keepers_url: str
) -> None:
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)
    in_argv = keepers_url.replace("//keeper@", f"//keeper:{SECRET}@", 1)
    done = await asyncio.to_thread(run_migrate, "--from", str(path), "--to", in_argv)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "cascadia-bot migrate: warning: the password in --to can be read by every user of this "
        "machine while the command runs (ps); leave it out of the URL and give it in PGPASSWORD "
        "or ~/.pgpass instead"
    ]
    assert "keeper:***@" in done.stdout
    assert SECRET not in done.stdout


def test_without_the_password_it_is_one_line(tmp_path: Path, keepers_url: str) -> None:
    path = tmp_path / "cascadia.sqlite3"
    done = run_migrate("--from", str(path), "--to", keepers_url, env={"PGPASSWORD": "wrong"})
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("cascadia-bot migrate: PostgreSQL refused the password in --to ("), line
    assert not path.exists()
