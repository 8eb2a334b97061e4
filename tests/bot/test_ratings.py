"""``cascadia-bot ratings --rebuild`` as a process, on an SQLite file with a rated game."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.app import game_service
from bot.stores import SqliteStore
from tests.bot.achievements.test_hooks import _play_fast
from tests.bot.clocks import START, FakeClock
from tests.bot.standings.test_results import ADA, BOB, GUILD, _game, _play_out

ROOT = Path(__file__).resolve().parents[2]


def _rebuild(database: Path | str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "ratings", *arguments],
        env={**os.environ, "PYTHONPATH": str(ROOT), "CASCADIA_DB": str(database)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_the_ratings_are_rebuilt_from_the_kept_results(tmp_path: Path) -> None:
    database, clock = tmp_path / "bot.sqlite3", FakeClock(START)
    async with SqliteStore.open(database, now=clock) as store:
        service = game_service(store, now=clock, seeds=lambda: 5)
        before = await _play_out(service, clock, await _game(service, ADA, BOB), seed=6)
        await store.set_league(GUILD, enabled=True)
        for user in (ADA, BOB):
            await store.set_member(GUILD, user, joined=True)
        await _play_out(service, clock, await _game(service, ADA, BOB, computer="fast"), seed=7)
        board = await store.leaderboard(GUILD, 1)
        kept = await store.guild_results(GUILD)
        async with store.transaction() as db:
            await db.execute("DELETE FROM ratings")
            await db.execute("DELETE FROM results WHERE game_id = ?", (before.game.id,))
    assert len(board) == 3

    done = _rebuild(database, "--rebuild")
    assert done.returncode == 0, done.stderr
    assert "1 finished games' results filled in; 1 rated games replayed, 3 ratings" in done.stdout
    assert "2 finished games' achievements counted" in done.stdout
    async with SqliteStore.open(database, now=clock) as store:
        assert await store.leaderboard(GUILD, 1) == board
        assert await store.guild_results(GUILD) == kept


async def test_the_rebuild_counts_the_achievements_of_games_finished_before_they_were_kept(
    tmp_path: Path,
) -> None:
    database, clock = tmp_path / "bot.sqlite3", FakeClock(START)
    async with SqliteStore.open(database, now=clock) as store:
        service = game_service(store, now=clock, seeds=lambda: 5)
        table = await _play_fast(service, clock, await _game(service, ADA, BOB))
        kept = {user: await store.firsts(user, guild_id=None) for user in (ADA, BOB)}
        await store.replace_earned([table.game.id], [])
    assert kept[ADA], "the game earned something"

    for _ in range(2):
        done = _rebuild(database, "--rebuild")
        assert done.returncode == 0, done.stderr
        assert "1 finished games' achievements counted" in done.stdout
        async with SqliteStore.open(database, now=clock) as store:
            assert {user: await store.firsts(user, guild_id=None) for user in (ADA, BOB)} == kept


def test_ratings_without_rebuild_is_refused(tmp_path: Path) -> None:
    done = _rebuild(tmp_path / "bot.sqlite3")
    assert done.returncode == 2
    assert "--rebuild" in done.stderr


def _notes(path: Path) -> Path:
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.commit()
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda path: path, "does not exist: point CASCADIA_DB at the bot's database"),
        (_notes, "is not the bot's database: it holds tables that are not the bot's (notes)"),
    ],
    ids=["missing", "another application's"],
)
def test_a_database_that_is_not_the_bots_is_refused_and_left_alone(
    tmp_path: Path, make: Callable[[Path], Path], words: str
) -> None:
    database = make(tmp_path / "bot.sqlite3")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    done = _rebuild(database, "--rebuild")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("cascadia-bot ratings: "), line
    assert words in line
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_an_impossible_url_is_one_line() -> None:
    done = _rebuild("postgresql://bot:pw-s3cret@127.0.0.1:99999/x", "--rebuild")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "CASCADIA_DB is not a usable PostgreSQL URL" in line
    assert "pw-s3cret" not in done.stderr
