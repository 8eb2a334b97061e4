"""Backups and restore on real SQLite files: a backup taken while a writer writes is one
consistent moment and passes ``integrity_check``; ``cascadia-bot backup`` and ``restore``
print counts, exit 0, and refuse (status 2, nothing changed) a running bot, a damaged, foreign
or newer file; the bot's own backups keep the newest seven."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import re
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.db.backup import KEEP, BackupError, Backups, backup, backups_in, inspect, restore
from bot.db.schema import load_migrations
from bot.ops.preflight import check_database
from bot.stores import SqliteStore
from tests.bot.test_migrate import everything, fill

ROOT = Path(__file__).resolve().parents[3]


def run(*arguments: str, db: Path | str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGUMENTS`` with ``CASCADIA_DB`` set and no token."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CASCADIA_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        env={**base, "PYTHONPATH": str(ROOT), "CASCADIA_DB": str(db)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def counts(path: Path) -> tuple[int, int]:
    """The games and moves of ``path``, those of packed move logs counted."""
    with closing(sqlite3.connect(path)) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = db.execute("SELECT count(*) FROM moves").fetchone()[0]
        moves += db.execute("SELECT COALESCE(sum(moves), 0) FROM packed_moves").fetchone()[0]
    return int(games), int(moves)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def corrupt(path: Path) -> None:
    """Overwrite the middle pages of ``path`` with seeded noise."""
    data = bytearray(path.read_bytes())
    noise = random.Random(9).randbytes(len(data) // 2)
    start = len(data) // 4
    data[start : start + len(noise)] = noise
    path.write_bytes(bytes(data))


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    """The bot's database with a finished game, a game in play and a lobby (closed)."""
    path = tmp_path / "cascadia.sqlite3"
    await fill(path)
    return path


def people(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT count(*) FROM people").fetchone()[0])


class WritesEachStep(threading.Event):
    """A writer on its own connection that adds a person and a lobby between every two steps
    of the backup (the backup asks its ``stop`` event at each step)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.writes = 0

    def is_set(self) -> bool:
        self.writes += 1
        self.writer.execute(
            "INSERT INTO people (user_id, quiet_from, quiet_to, quiet_zone, updated_at)"
            " VALUES (?, 22, 7, 'UTC', '2026-12-02T00:00:00.000000+00:00')",
            (10_000 + self.writes,),
        )
        return False


def test_a_backup_during_writes_is_the_moment_it_began(database: Path, tmp_path: Path) -> None:
    before = counts(database), people(database)
    writer = WritesEachStep(database)
    target = tmp_path / "backup.sqlite3"
    try:
        contents = backup(database, target, pages=2, stop=writer)
    finally:
        writer.writer.close()
    assert writer.writes > 10, "the backup did not run in steps"
    assert ((contents.games, contents.moves), people(target)) == before
    assert people(database) == before[1] + writer.writes
    with closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == [
        "backup.sqlite3"
    ]


async def test_a_backup_beside_the_bots_store_holds_a_state_it_had(
    database: Path, tmp_path: Path
) -> None:
    async with SqliteStore.open(database) as store:
        done = asyncio.Event()
        written = 0

        async def write() -> None:
            nonlocal written
            while not done.is_set():
                await store.set_quiet(10_000 + written, start=22, end=7, zone="UTC")
                written += 1

        writing = asyncio.create_task(write())
        try:
            contents = await asyncio.to_thread(backup, database, tmp_path / "b.sqlite3", pages=1)
        finally:
            done.set()
            await writing
        copied = await asyncio.to_thread(inspect, tmp_path / "b.sqlite3")
        assert copied == contents
        async with SqliteStore.open(tmp_path / "b.sqlite3") as copy:
            assert await everything(copy, range(1, 4)) == await everything(store, range(1, 4))
    with closing(sqlite3.connect(tmp_path / "b.sqlite3")) as db:
        people = db.execute("SELECT count(*) FROM people WHERE user_id >= 10000").fetchone()[0]
    assert 0 <= people <= written


def test_the_backup_command_prints_the_counts(database: Path, tmp_path: Path) -> None:
    games, moves = counts(database)
    target = tmp_path / "copy.sqlite3"
    done = run("backup", "--to", str(target), db=database)
    assert done.returncode == 0, done.stderr
    assert f"{games} games, {moves} moves; integrity check ok" in done.stdout
    with closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        copied = db.execute("SELECT id, state FROM games ORDER BY id").fetchall()
    with closing(sqlite3.connect(database)) as db:
        assert copied == db.execute("SELECT id, state FROM games ORDER BY id").fetchall()


async def test_the_backup_counts_the_moves_of_packed_games(database: Path, tmp_path: Path) -> None:
    before = counts(database)
    async with SqliteStore.open(database) as store:
        assert await store.compact_finished(datetime(2030, 1, 1, tzinfo=UTC)) == 1
    with closing(sqlite3.connect(database)) as db:
        left = db.execute("SELECT count(*) FROM moves").fetchone()[0]
    assert left < before[1], "the finished game's move rows should be packed"
    target = tmp_path / "copy.sqlite3"
    done = await asyncio.to_thread(run, "backup", "--to", str(target), db=database)
    assert done.returncode == 0, done.stderr
    assert f"{before[0]} games, {before[1]} moves; integrity check ok" in done.stdout


def test_a_backup_of_a_running_bots_database(database: Path, tmp_path: Path) -> None:
    lock = check_database(database)
    try:
        done = run("backup", "--to", str(tmp_path / "copy.sqlite3"), db=database)
    finally:
        lock.release()
    assert done.returncode == 0, done.stderr
    assert counts(tmp_path / "copy.sqlite3") == counts(database)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        ("existing", "already exists: name a new file"),
        ("missing", "is not a file"),
        ("foreign", "is not a SQLite database"),
        ("empty", "empty.sqlite3 is not a database of the bot"),
    ],
)
def test_the_backup_command_refuses(
    database: Path, tmp_path: Path, make: str, message: str
) -> None:
    target = tmp_path / "copy.sqlite3"
    source = database
    if make == "existing":
        target.write_bytes(b"keep me")
    elif make == "missing":
        source = tmp_path / "nothing.sqlite3"
    elif make == "empty":
        source = tmp_path / "empty.sqlite3"
        source.write_bytes(b"")
    else:
        source = tmp_path / "notes.txt"
        source.write_text("not a database")
    done = run("backup", "--to", str(target), db=source)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("copy")] == (
        ["copy.sqlite3"] if make == "existing" else []
    )
    if make == "existing":
        assert target.read_bytes() == b"keep me"


@pytest.mark.parametrize("command", ["backup --to /tmp/x.dump", "restore --from /tmp/x.dump"])
@pytest.mark.parametrize(
    "url",
    [
        "postgresql://cascadia:s3cret@db.example:5432/games",
        "postgresql://cascadia@db.example:5432/games?password=s3cret",
        "postgresql://cascadia:s3cret@db.example:5432/games?password=s3cret",
    ],
)
def test_postgresql_is_pointed_at_pg_dump_without_the_password(command: str, url: str) -> None:
    done = run(*command.split(), db=url)
    assert done.returncode == 2
    program = "pg_dump" if command.startswith("backup") else "pg_restore"
    assert f"  {program} " in done.stderr
    assert "'postgresql://cascadia@db.example:5432/games'" in done.stderr
    assert "password in PGPASSWORD or ~/.pgpass" in done.stderr
    assert "s3cret" not in done.stderr + done.stdout


def test_the_pg_dump_command_keeps_the_other_parameters() -> None:
    url = "postgresql://cascadia@/games?host=/run/pg&password=s3cret&sslmode=require"
    done = run("backup", "--to", "/tmp/x.dump", db=url)
    assert "'postgresql://cascadia@/games?host=/run/pg&sslmode=require'" in done.stderr
    assert "s3cret" not in done.stderr + done.stdout


CRASH = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode = WAL")
db.execute("CREATE TABLE old (x)")
db.execute("INSERT INTO old VALUES ('before')")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("PRAGMA wal_autocheckpoint = 0")
db.execute("INSERT INTO old VALUES ('only in the journal')")
os._exit(0)
"""


def crashed_with_a_journal(path: Path) -> None:
    """A database whose process ended without closing it: its last commit is only in the
    write-ahead log beside it."""
    subprocess.run([sys.executable, "-c", CRASH, str(path)], check=True, timeout=30)
    assert path.with_name(path.name + "-wal").stat().st_size > 0


async def test_restore_replaces_the_database_and_keeps_the_old_one(
    database: Path, tmp_path: Path
) -> None:
    saved = tmp_path / "saved.sqlite3"
    backup(database, saved)
    async with SqliteStore.open(saved) as store:
        expected = await everything(store, range(1, 4))
    target = tmp_path / "live" / "cascadia.sqlite3"
    target.parent.mkdir()
    crashed_with_a_journal(target)
    restored = restore(saved, target, now=datetime(2026, 12, 2, 3, 4, 5, tzinfo=UTC))
    assert restored.contents == inspect(saved)
    assert restored.aside == target.with_name("cascadia.sqlite3.before-restore-20261202T030405Z")
    async with SqliteStore.open(target) as store:
        assert await everything(store, range(1, 4)) == expected
    with closing(sqlite3.connect(restored.aside)) as db:
        assert db.execute("SELECT x FROM old").fetchall() == [("before",), ("only in the journal",)]
    leftovers = {p.name for p in target.parent.iterdir()} - {
        "cascadia.sqlite3",
        "cascadia.sqlite3.lock",
        "cascadia.sqlite3.before-restore-20261202T030405Z",
    }
    assert not {name for name in leftovers if "restoring" in name or "partial" in name}


def test_the_restore_command_says_where_the_old_database_went(
    database: Path, tmp_path: Path
) -> None:
    saved = tmp_path / "saved.sqlite3"
    backup(database, saved)
    target = tmp_path / "other.sqlite3"
    target.write_bytes(database.read_bytes())
    done = run("restore", "--from", str(saved), db=target)
    assert done.returncode == 0, done.stderr
    games, moves = counts(saved)
    assert f"restored {saved} into {target}: {games} games, {moves} moves" in done.stdout
    [aside] = [p for p in tmp_path.iterdir() if ".before-restore-" in p.name]
    assert f"the database it replaced is kept as {aside}" in done.stdout
    assert counts(target) == (games, moves)


def test_restore_onto_no_database_yet(database: Path, tmp_path: Path) -> None:
    target = tmp_path / "new.sqlite3"
    done = run("restore", "--from", str(database), db=target)
    assert done.returncode == 0, done.stderr
    assert "kept as" not in done.stdout
    assert counts(target) == counts(database)


def newer(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {len(load_migrations()) + 1}")
        db.commit()


def foreign(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (x)")
        db.commit()


def older_in_name(path: Path) -> None:
    """A backup whose version was set back by hand: its tables are a later version's."""
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {len(load_migrations()) - 1}")
        db.commit()


def without_a_trigger(path: Path) -> None:
    """A backup made by hand without a trigger of its version (the next migration drops it)."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("DROP TRIGGER moves_no_delete")
        db.commit()


def an_orphan(path: Path) -> None:
    """A backup with a seat whose game is not there (written with foreign keys off)."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (999, 0, 1, 'Ada')")
        db.commit()


def others_with_a_version(path: Path) -> None:
    """Another application's tables of the same names, with a schema version of the bot's."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
        db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, game INTEGER)")
        db.execute(f"PRAGMA user_version = {len(load_migrations())}")
        db.commit()


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (corrupt, "is damaged|cannot be read as a database"),
        (newer, r"written by a newer version of the bot \(schema version (\d+), this one knows"),
        (lambda path: path.write_text("hello"), "is not a SQLite database"),
        (foreign, "is not a database of the bot"),
        (
            older_in_name,
            r"is not a backup of the bot's database: its schema version is \d+, but it is not "
            r"made as that version is "
            r"\(((table|index|trigger) \w+ of a later version(, )?)+\)\. Pick",
        ),
        (without_a_trigger, r"not made as that version is \(no trigger moves_no_delete\)"),
        (others_with_a_version, r"\(no table \w+, no table \w+, .* more\)"),
        (an_orphan, r"has rows that refer to rows it lacks \(seats row \d+ to games\)"),
    ],
    ids=["damaged", "newer", "text", "foreign", "set back", "hand-made", "same names", "orphan"],
)
def test_restore_refuses_a_bad_file_and_changes_nothing(
    database: Path, tmp_path: Path, spoil: object, message: str
) -> None:
    bad = tmp_path / "bad.sqlite3"
    if spoil not in (foreign, others_with_a_version):
        backup(database, bad)
    assert callable(spoil)
    spoil(bad)
    before = digest(database)
    done = run("restore", "--from", str(bad), db=database)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("cascadia-bot restore: ")
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert digest(database) == before
    assert not [p for p in tmp_path.iterdir() if "restor" in p.name]


def test_restore_refuses_while_a_bot_runs(database: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.sqlite3"
    backup(database, saved)
    before = digest(database)
    lock = check_database(database)
    try:
        done = run("restore", "--from", str(saved), db=database)
    finally:
        lock.release()
    assert done.returncode == 2
    assert "a bot is running on" in done.stderr
    assert "stop it, then restore" in done.stderr
    assert digest(database) == before
    with pytest.raises(BackupError, match="is the database itself"):
        restore(database, database)


class HourClock:
    """A clock one hour later at each reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(hours=1)
        return self.now


async def test_the_bot_keeps_its_newest_seven_backups(database: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a backup: stays")
    clock = HourClock()
    backups = Backups(database, folder, every=timedelta(hours=6), now=clock)
    assert backups.next_due() == datetime(2026, 12, 1, 1, tzinfo=UTC), "none yet: due at once"
    written = [await backups.write() for _ in range(KEEP + 2)]
    kept = [path for _, path in backups_in(folder)]
    assert kept == written[-KEEP:]
    assert kept[0].name == "cascadia-20261201T040000Z.sqlite3"
    assert sorted(p.name for p in folder.iterdir()) == [p.name for p in kept] + ["notes.txt"]
    for path in kept:
        assert inspect(path) == inspect(database)
    # Due six hours after the newest, whatever time the bot (re)starts at.
    assert Backups(database, folder, every=timedelta(hours=6)).next_due() == datetime(
        2026, 12, 1, 16, tzinfo=UTC
    )


async def test_once_closed_the_schedule_writes_nothing(database: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    backups = Backups(database, folder, every=timedelta(hours=1))
    await backups.close()
    with pytest.raises(BackupError, match="called off"):
        await backups.write()
    assert list(folder.iterdir()) == []


async def test_backups_inside_and_outside_the_bots_process_leave_its_store_working(
    database: Path, tmp_path: Path
) -> None:
    async with SqliteStore.open(database) as store:
        # The bot's own backup, in its process, then the command's, in another.
        await asyncio.to_thread(backup, database, tmp_path / "inside.sqlite3")
        done = await asyncio.to_thread(
            run, "backup", "--to", str(tmp_path / "out.sqlite3"), db=database
        )
        assert done.returncode == 0, done.stderr
        assert database.with_name(database.name + "-wal").exists(), "the journal was removed"
        await store.set_quiet(77_777, start=1, end=2, zone="UTC")
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
            found = db.execute("SELECT count(*) FROM people WHERE user_id = 77777").fetchone()
        assert found == (1,)
