"""Operator mistakes at start-up, through the real ``python -m bot``: each is one line naming the
problem and what to do, a non-zero exit, and every file left as it was; an unreachable Discord
is one line and then retries until it answers."""

from __future__ import annotations

import asyncio
import ctypes
import hashlib
import os
import random
import re
import socket
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.db.schema import load_migrations
from bot.ops.preflight import lock_path
from bot.stores import SqliteStore
from tests.e2e.conftest import new_server
from tests.e2e.harness import REPO_ROOT, World

RUN_TIMEOUT = 20.0
PR_CAPBSET_DROP = 24
FILE_OVERRIDES = (1, 2)
"""CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH: what lets root ignore file modes."""


def _respect_file_modes() -> None:
    """Run in the child before ``exec``: as root, drop the capabilities that ignore file
    modes, so that a read-only file is read-only to the bot as it is to any other user."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in FILE_OVERRIDES:
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _dead_api() -> str:
    """An API address where nothing listens (the bot must stop before it would get there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/v10"


async def run_bot(db: Path, *, env: dict[str, str] | None = None) -> tuple[int, list[str]]:
    """Run ``python -m bot`` on ``db`` to its end; returns the exit status and the non-empty
    lines of its output."""
    environment = {
        **os.environ,
        "DISCORD_TOKEN": "test-token",
        "CASCADIA_DB": str(db),
        "DISCORD_API_BASE": _dead_api(),
        **(env or {}),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=REPO_ROOT,
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        preexec_fn=_respect_file_modes,
    )
    try:
        async with asyncio.timeout(RUN_TIMEOUT):
            output, _ = await process.communicate()
    except TimeoutError:
        process.kill()
        output, _ = await process.communicate()
        raise AssertionError(
            f"the bot did not exit within {RUN_TIMEOUT}s: {output.decode(errors='replace')}"
        ) from None
    lines = [line for line in output.decode(errors="replace").splitlines() if line.strip()]
    assert process.returncode is not None
    return process.returncode, lines


def snapshot(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Every file under ``folder``: mode, modification time and a hash of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        found[str(path.relative_to(folder))] = (info.st_mode, info.st_mtime_ns, digest)
    return found


def bot_database(path: Path) -> None:
    """A SQLite database in write-ahead mode with some pages of rows, cleanly closed."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, channel INTEGER, state TEXT)")
    connection.executemany(
        "INSERT INTO games (channel, state) VALUES (?, ?)",
        [(n, "x" * 2000) for n in range(200)],
    )
    connection.commit()
    connection.close()


def corrupt(path: Path) -> None:
    """Overwrite the middle pages of ``path`` with seeded noise."""
    data = bytearray(path.read_bytes())
    noise = random.Random(9).randbytes(len(data) // 2)
    start = len(data) // 4
    data[start : start + len(noise)] = noise
    path.write_bytes(bytes(data))


def _directory(folder: Path) -> Path:
    (folder / "games").mkdir()
    return folder / "games"


def _missing_folder(folder: Path) -> Path:
    return folder / "nowhere" / "cascadia.sqlite3"


def _read_only_folder(folder: Path) -> Path:
    inner = folder / "locked"
    inner.mkdir()
    inner.chmod(0o555)
    return inner / "cascadia.sqlite3"


def _read_only_file(folder: Path) -> Path:
    db = folder / "cascadia.sqlite3"
    bot_database(db)
    db.chmod(0o444)
    return db


def _not_sqlite(folder: Path) -> Path:
    db = folder / "cascadia.sqlite3"
    db.write_text("game notes, not a database\n" * 50)
    return db


def _corrupted(folder: Path) -> Path:
    db = folder / "cascadia.sqlite3"
    bot_database(db)
    corrupt(db)
    return db


MISTAKES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a directory": (_directory, r"is a directory: set it to a file in it"),
    "a missing folder": (_missing_folder, r"folder of CASCADIA_DB .* does not exist: create it"),
    "a read-only folder": (_read_only_folder, r"folder of CASCADIA_DB .* is read-only: .*writable"),
    "a read-only file": (_read_only_file, r"database .* is read-only: make it writable"),
    "not SQLite": (_not_sqlite, r"is not a SQLite database: point CASCADIA_DB at"),
    "a damaged database": (_corrupted, r"database .* is damaged \(.*\): restore it from a backup"),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
async def test_an_unusable_database_is_one_line_and_changes_nothing(
    tmp_path: Path, mistake: str
) -> None:
    make, expected = MISTAKES[mistake]
    folder = tmp_path / "bot"
    folder.mkdir()
    db = make(folder)
    before = snapshot(folder)
    status, lines = await run_bot(db)
    assert status == 2, (status, lines)
    assert len(lines) == 1, lines
    assert lines[0].startswith("cascadia-bot: "), lines
    assert re.search(expected, lines[0]), lines[0]
    assert snapshot(folder) == before, "the refused start changed files"


def contents(db: Path) -> tuple[str, int, dict[str, int]]:
    """What a database holds, read without writing: its integrity check, schema version and
    the rows of each table."""
    uri = f"{db.resolve().as_uri()}?mode=ro&immutable=1"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        [(check,)] = connection.execute("PRAGMA integrity_check").fetchall()
        [(version,)] = connection.execute("PRAGMA user_version").fetchall()
        tables = [str(name) for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
        )]  # fmt: skip
        rows = {t: connection.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    return str(check), int(version), rows


async def the_bots(db: Path, version: int) -> None:
    """The bot's own database at schema ``version``, cleanly closed, with a lobby in it."""
    async with SqliteStore.open(db, migrations=load_migrations()[:version]) as store:
        if version == len(load_migrations()):
            await store.create_lobby(1, 2, 3, "Ada", "A")


def set_version(db: Path, version: int) -> None:
    with closing(sqlite3.connect(db)) as connection:
        connection.execute(f"PRAGMA user_version = {version:d}")
        connection.commit()


async def _newer(folder: Path) -> Path:
    db = folder / "cascadia.sqlite3"
    await the_bots(db, len(load_migrations()))
    set_version(db, 99)
    return db


async def _another_application(folder: Path) -> Path:
    db = folder / "cascadia.sqlite3"
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.executemany("INSERT INTO notes (body) VALUES (?)", [("x" * 500,)] * 50)
        connection.commit()
    return db


async def _set_back(folder: Path) -> Path:
    """A backup put back whose version was set back by hand: the next migration's table is
    there already (it used to fail on it with a traceback)."""
    db = folder / "cascadia.sqlite3"
    await the_bots(db, len(load_migrations()))
    set_version(db, len(load_migrations()) - 1)
    return db


SCHEMA_MISTAKES: dict[str, tuple[Callable[[Path], Awaitable[Path]], str]] = {
    "a newer schema": (
        _newer,
        r"cascadia\.sqlite3 was written by a newer version of the bot \(schema version 99, "
        rf"this one knows {len(load_migrations())}\): run that version on it, or restore a "
        r"backup made by this one$",
    ),
    "another application's database": (
        _another_application,
        r"cascadia\.sqlite3 is not the bot's database: it holds tables that are not the bot's "
        r"\(notes, users\) and no schema version\. Name the bot's database instead",
    ),
    "a version its tables disagree with": (
        _set_back,
        r"cascadia\.sqlite3 is not a database of the bot as its version says: its schema version "
        rf"is {len(load_migrations()) - 1}, but it is not made as that version is "
        r"\((table|index|trigger) [^)]* of a later version\)\. Restore a backup",
    ),
}


@pytest.mark.parametrize("mistake", list(SCHEMA_MISTAKES))
async def test_a_database_the_bot_cannot_take_is_refused_before_discord(
    tmp_path: Path, mistake: str
) -> None:
    make, expected = SCHEMA_MISTAKES[mistake]
    folder = tmp_path / "bot"
    folder.mkdir()
    db = await make(folder)
    before, held = snapshot(folder), contents(db)
    status, lines = await run_bot(db)
    assert status == 2, (status, lines)
    assert len(lines) == 1, lines
    assert lines[0].startswith("cascadia-bot: "), lines
    assert re.search(expected, lines[0]), lines[0]
    # Nothing created beside it (no -wal, -shm or .lock) and nothing in it changed.
    assert snapshot(folder) == before, "the refused start changed files"
    assert contents(db) == held
    assert held[0] == "ok"


async def test_a_migration_that_fails_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    """A database at schema version 1 with an outbox row whose game is gone (written with
    foreign keys off): the migration that rebuilds the outbox fails on it."""
    folder = tmp_path / "bot"
    folder.mkdir()
    db = folder / "cascadia.sqlite3"
    await the_bots(db, 1)
    with closing(sqlite3.connect(db)) as connection:
        connection.execute(
            "INSERT INTO games (guild_id, channel_id, status, host_id, cards, created_at,"
            " updated_at, revision) VALUES (1, 2, 'lobby', 3, 'A', 't', 't', 1)"
        )
        connection.executemany(
            "INSERT INTO outbox (game_id, channel_id, kind, payload, created_at)"
            " VALUES (?, 2, 'lobby', '{}', 't')",
            [(1,), (7,)],
        )
        connection.commit()
    before, held = snapshot(folder), contents(db)
    status, lines = await run_bot(db)
    assert status == 2, (status, lines)
    assert len(lines) == 1, lines
    assert " ERROR   bot: cannot use the database " in lines[0], lines
    assert lines[0].endswith(
        "migration 0002 (outbox_snapshots) failed: FOREIGN KEY constraint failed; nothing was "
        "changed: the database is still at schema version 1. Restore a backup made by this "
        "version of the bot, or keep the file as it is and report the error"
    ), lines
    assert contents(db) == held == ("ok", 1, {"games": 1, "seats": 0, "moves": 0, "outbox": 2,
                                              "sqlite_sequence": 2})  # fmt: skip
    assert snapshot(folder) == before, "the refused start changed files"


async def test_a_second_bot_on_the_same_database_is_refused(world: World) -> None:
    db = world.bot.db_path
    env = {**world.server.env(), "CASCADIA_GUILD_ID": str(world.guild)}
    status, lines = await run_bot(db, env=env)
    assert status == 2, (status, lines)
    assert len(lines) == 1, lines
    assert "another bot process is already using" in lines[0], lines
    assert lock_path(db).name in lines[0]
    # The first bot is untouched and still answers.
    answer = await world.table().run(world.alice, "mygames")
    assert "not in any game" in answer.text


async def test_an_unreachable_discord_is_one_line_then_retried_until_it_answers(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"127.0.0.1:{port}"
    env = {
        **os.environ,
        "DISCORD_TOKEN": "test-token",
        "CASCADIA_DB": str(tmp_path / "cascadia.sqlite3"),
        "DISCORD_API_BASE": f"http://{base}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://{base}/gateway",
        "DISCORD_CDN_BASE": f"http://{base}/cdn",
        "PYTHONUNBUFFERED": "1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=REPO_ROOT, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert process.stdout is not None
    server = new_server()
    try:
        # The database is opened (and made) first: its migrations are logged before.
        opened: list[str] = []
        async with asyncio.timeout(RUN_TIMEOUT):
            while "cannot reach Discord" not in (
                first := (await process.stdout.readline()).decode()
            ):
                assert "applied migration" in first, first
                opened.append(first)
        assert "DISCORD_API_BASE" in first, first
        assert process.returncode is None, "the bot exited instead of retrying"
        await server.start(port=port)
        guild = server.add_guild("Late Club")
        server.add_channel(guild, "cascadia")
        await server.wait_connected(timeout=RUN_TIMEOUT)
        await server.wait_for(
            lambda: server.command_syncs, timeout=RUN_TIMEOUT, what="the commands to sync"
        )
    finally:
        if process.returncode is None:
            process.terminate()
        rest, _ = await process.communicate()
        await server.close()
    lines = [*opened, first, *rest.decode(errors="replace").splitlines()]
    assert not [line for line in lines if "Traceback" in line or "ERROR" in line], lines
    assert sum("cannot reach Discord" in line for line in lines) == 1, lines
